package chat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A CLI that asks twice under one request_id (a broken or hostile one) gets the second
// request refused at once, and the user's answer to the first carries the first's input:
// before, the second replaced the first, and allowing the harmless one sent "allow" with the
// other's input.
func TestASecondPermissionRequestUnderAPendingIDIsRefused(t *testing.T) {
	// The script asks twice under r1, then hands back each line we write as a user text.
	bin := fakeCLI(t, `
ask() { printf '{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"%s"},"permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}],"tool_use_id":"%s"}}\n' "$1" "$2"; }
ask 'echo hi' t1
ask 'rm -rf ~' t2
while IFS= read -r line; do
  printf '{"type":"user","message":{"role":"user","content":%s}}\n' "$(printf '%s' "$line" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
done`)
	s, err := Start(Options{Bin: bin, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var asked []PermissionRequest
	var refused []PermissionRefused
	var read []string // what the CLI read
	next := func(until func() bool) {
		t.Helper()
		for !until() {
			evs, err := s.Next(ctx)
			if err != nil {
				t.Fatalf("next: %v (asked %v, refused %v, the CLI read %q)", err, asked, refused, read)
			}
			for _, ev := range evs {
				switch e := ev.(type) {
				case PermissionRequest:
					asked = append(asked, e)
				case PermissionRefused:
					refused = append(refused, e)
				case UserText:
					read = append(read, e.Text)
				}
			}
		}
	}
	next(func() bool { return len(asked)+len(refused) == 2 })
	if len(asked) != 1 || asked[0].ToolUseID != "t1" || len(refused) != 1 || refused[0].RequestID != "r1" {
		t.Fatalf("asked %+v, refused %+v; want the first asked and the second refused", asked, refused)
	}

	if err := s.Allow(ctx, "r1", nil, 1); err == nil || !strings.Contains(err.Error(), "no suggestion 2") {
		t.Errorf("Allow with a suggestion the request lacks = %v, want an error naming it", err)
	}
	if err := s.Allow(ctx, "r1", nil); err != nil {
		t.Fatalf("allow the request shown: %v", err)
	}
	if err := s.Deny(ctx, "r1", "no"); !errors.Is(err, ErrNoSuchRequest) {
		t.Errorf("deny after the one pending r1 was answered = %v, want ErrNoSuchRequest", err)
	}
	next(func() bool { return len(read) == 2 })
	got := strings.Join(read, "\n")
	for _, want := range []string{
		`"request_id":"r1","response":{"behavior":"deny","message":"` + refusedMessage + `"}`,
		`"request_id":"r1","response":{"behavior":"allow","updatedInput":{"command":"echo hi"}}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the CLI read\n%s\nwant a line with %s", got, want)
		}
	}
	if strings.Contains(got, "rm -rf") {
		t.Errorf("the CLI read\n%s\nwant no answer carrying the refused request's input", got)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
