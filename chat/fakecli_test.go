package chat

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCLI writes a shell script that stands in for claude: it runs body, which reads our
// lines from stdin and prints what it likes.
func fakeCLI(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// drain collects every event until io.EOF.
func drain(t *testing.T, s *Process) []Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var all []Event
	for {
		evs, err := s.Next(ctx)
		if err == io.EOF {
			return all
		}
		if err != nil {
			t.Fatalf("next: %v (events so far: %v)", err, all)
		}
		all = append(all, evs...)
	}
}

// logBuffer is a log the test reads; the reader and the stderr copier write to it at once.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestACLIThatDiesMidTurnIsReportedWithItsCode(t *testing.T) {
	bin := fakeCLI(t, `
read line
echo '{"type":"system","subtype":"init","session_id":"s1","model":"m"}'
echo '{"type":"assistant","message":'
echo '{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"half an ans"}}}'
echo 'oops: a stray line' 
echo 'bye from stderr' >&2
exit 3`)
	var logs logBuffer
	s, err := Start(Options{Bin: bin, Dir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Send(ctx, "hi"); err != nil {
		t.Fatal(err)
	}
	evs := drain(t, s)
	if len(evs) != 3 {
		t.Fatalf("events = %#v; want Init, the text and Exited", evs)
	}
	if got, want := evs[1], (TextDelta{"half an ans"}); got != want {
		t.Errorf("text = %#v, want %#v", got, want)
	}
	if got, want := evs[2], (Exited{Code: 3, MidTurn: true, Stderr: "bye from stderr"}); got != want {
		t.Errorf("last event = %#v, want %#v", got, want)
	}
	for _, want := range []string{"skipped a line", "oops: a stray line", "bye from stderr", "claude exited"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	if err := s.Send(ctx, "again"); err == nil {
		t.Error("Send after the CLI exited succeeded")
	}
	if _, err := s.Initialize(ctx); err == nil {
		t.Error("Initialize after the CLI exited succeeded")
	}
	if err := s.Close(ctx); err != nil {
		t.Errorf("Close after exit: %v", err)
	}
}

func TestCloseKillsACLIThatIgnoresItsStdin(t *testing.T) {
	bin := fakeCLI(t, `trap '' TERM; exec sleep 600 </dev/null`)
	s, err := Start(Options{Bin: bin, Dir: t.TempDir(), CloseGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	evs := drain(t, s)
	if len(evs) != 1 || evs[0].(Exited).Signal != "killed" || evs[0].(Exited).MidTurn {
		t.Errorf("events = %#v, want one Exited by SIGKILL, not mid-turn", evs)
	}
}

func TestUnsupportedControlRequestsGetAnErrorAnswer(t *testing.T) {
	// The script answers whatever we write back by echoing it on stdout as a user text.
	bin := fakeCLI(t, `
echo '{"type":"control_request","request_id":"h1","request":{"subtype":"hook_callback"}}'
read line
printf '{"type":"user","message":{"role":"user","content":%s}}\n' "$(printf '%s' "$line" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
`)
	s, err := Start(Options{Bin: bin, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, s)
	if len(evs) != 2 {
		t.Fatalf("events = %#v", evs)
	}
	got := evs[0].(UserText).Text
	for _, want := range []string{`"subtype":"error"`, `"request_id":"h1"`, `hook_callback`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %s lacks %s", got, want)
		}
	}
}

func TestStartWithoutTheCLI(t *testing.T) {
	_, err := Start(Options{Bin: filepath.Join(t.TempDir(), "no-claude"), Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "start claude") {
		t.Errorf("Start = %v, want a start claude error", err)
	}
}

func TestSendWritesTextAndImageBlocks(t *testing.T) {
	// The script hands our line back as a tool result, so the test sees exactly what was written.
	bin := fakeCLI(t, `
read line
printf '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":%s}]}}\n' "$(printf '%s' "$line" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
`)
	s, err := Start(Options{Bin: bin, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), ""); err == nil {
		t.Error("Send of nothing succeeded")
	}
	if err := s.Send(context.Background(), "look", Image{MediaType: "image/png", Data: []byte("PNG")}); err != nil {
		t.Fatal(err)
	}
	evs := drain(t, s)
	want := `{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"look"},` +
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"UE5H"}}]},"parent_tool_use_id":null}`
	if got := evs[0].(ToolResult).Content; got != want {
		t.Errorf("line written =\n%s\nwant\n%s", got, want)
	}
	if ex := evs[len(evs)-1].(Exited); !ex.MidTurn || ex.Code != 0 {
		t.Errorf("Exited = %+v, want code 0 mid-turn (no result came)", ex)
	}
}
