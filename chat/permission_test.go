package chat

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// permissionRun is a stand-in CLI that prints asks (control lines), then hands back each line
// we write as a user text, and what the test has seen of it.
type permissionRun struct {
	t         *testing.T
	s         *Process
	ctx       context.Context
	asked     []PermissionRequest
	refused   []PermissionRefused
	cancelled []PermissionCancelled
	read      []string // what the CLI read
}

func newPermissionRun(t *testing.T, asks string) *permissionRun {
	t.Helper()
	bin := fakeCLI(t, `
ask() { printf '{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"%s"},"permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}],"tool_use_id":"%s"}}\n' "$1" "$2"; }
withdraw() { echo '{"type":"control_cancel_request","request_id":"r1"}'; }
`+asks+`
while IFS= read -r line; do
  printf '{"type":"user","message":{"role":"user","content":%s}}\n' "$(printf '%s' "$line" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
done`)
	// A CLI that ignores its stdin closing is killed at once.
	s, err := Start(Options{Bin: bin, Dir: t.TempDir(), CloseGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(func() {
		s.Close(ctx)
		cancel()
	})
	return &permissionRun{t: t, s: s, ctx: ctx}
}

// until takes events until done says so.
func (r *permissionRun) until(done func() bool) {
	r.t.Helper()
	for !done() {
		evs, err := r.s.Next(r.ctx)
		if err != nil {
			r.t.Fatalf("next: %v (asked %v, refused %v, the CLI read %q)", err, r.asked, r.refused, r.read)
		}
		for _, ev := range evs {
			switch e := ev.(type) {
			case PermissionRequest:
				r.asked = append(r.asked, e)
			case PermissionRefused:
				r.refused = append(r.refused, e)
			case PermissionCancelled:
				r.cancelled = append(r.cancelled, e)
			case UserText:
				r.read = append(r.read, e.Text)
			}
		}
	}
}

// A CLI that asks twice under one request_id (a broken or hostile one) gets the second
// request refused at once, and the user's answer to the first carries the first's input:
// before, the second replaced the first, and allowing the harmless one sent "allow" with the
// other's input.
func TestASecondPermissionRequestUnderAPendingIDIsRefused(t *testing.T) {
	r := newPermissionRun(t, `ask 'echo hi' t1; ask 'rm -rf ~' t2`)
	r.until(func() bool { return len(r.asked)+len(r.refused) == 2 })
	if len(r.asked) != 1 || r.asked[0].ToolUseID != "t1" || len(r.refused) != 1 || r.refused[0].RequestID != "r1" {
		t.Fatalf("asked %+v, refused %+v; want the first asked and the second refused", r.asked, r.refused)
	}
	shown := r.asked[0].Ticket
	if err := r.s.Allow(r.ctx, shown, nil, 1); err == nil || !strings.Contains(err.Error(), "no suggestion 2") {
		t.Errorf("Allow with a suggestion the request lacks = %v, want an error naming it", err)
	}
	if err := r.s.Allow(r.ctx, shown, nil); err != nil {
		t.Fatalf("allow the request shown: %v", err)
	}
	if err := r.s.Deny(r.ctx, shown, "no"); !errors.Is(err, ErrNoSuchRequest) {
		t.Errorf("deny after the one pending r1 was answered = %v, want ErrNoSuchRequest", err)
	}
	r.until(func() bool { return len(r.read) == 2 })
	got := strings.Join(r.read, "\n")
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
}

// An answer in flight for a request the CLI has withdrawn and then asked again under the
// same request_id reaches nothing: the new request waits for an answer of its own.
func TestAnAnswerToAWithdrawnRequestDoesNotAnswerItsSuccessor(t *testing.T) {
	r := newPermissionRun(t, `ask 'echo hi' t1; withdraw; ask 'rm -rf ~' t2`)
	r.until(func() bool { return len(r.asked) == 2 })
	first, second := r.asked[0], r.asked[1]
	if len(r.cancelled) != 1 || r.cancelled[0].Ticket != first.Ticket || first.Ticket == second.Ticket {
		t.Fatalf("asked %+v, withdrawn %+v; want two requests with tickets of their own, the first withdrawn", r.asked, r.cancelled)
	}
	if err := r.s.Allow(r.ctx, first.Ticket, nil); !errors.Is(err, ErrNoSuchRequest) {
		t.Errorf("allowing the withdrawn request = %v, want ErrNoSuchRequest", err)
	}
	if err := r.s.Deny(r.ctx, second.Ticket, "not that"); err != nil {
		t.Fatalf("deny the second: %v", err)
	}
	r.until(func() bool { return len(r.read) == 1 })
	if want := `"request_id":"r1","response":{"behavior":"deny","message":"not that"}`; !strings.Contains(r.read[0], want) {
		t.Errorf("the CLI read %s, want only the deny of the second request", r.read[0])
	}
}

// A CLI that floods duplicates and never reads its stdin has every one shown as refused, and
// no more than maxRefusing refusals waiting to be written: the rest would never be read.
func TestAFloodOfDuplicatesHoldsAFewWritersAtMost(t *testing.T) {
	const n = 2000
	before := runtime.NumGoroutine()
	r := newPermissionRun(t, `ask 'echo hi' t1
i=0; while [ $i -lt `+strconv.Itoa(n)+` ]; do ask "dup $i" t2; i=$((i+1)); done
exec sleep 600`)
	r.until(func() bool { return len(r.refused) == n })
	// The pipe holds a few hundred refusals; the writers beyond it wait out refuseTimeout.
	// The process itself runs a few goroutines (reader, stderr, exec's copiers).
	if got := runtime.NumGoroutine() - before; got > maxRefusing+10 {
		t.Errorf("%d goroutines more after %d refusals to a CLI that does not read, want at most %d", got, n, maxRefusing+10)
	}
}
