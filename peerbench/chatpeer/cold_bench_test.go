package chatpeer

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// BenchmarkChatColdFirstToken: a fresh Neovim, the chat opened and a message sent as soon as
// the chat takes one (ours at once: the message waits for the CLI; the peer's only once its
// agent has a session, sooner fails), timed from the key that opens the chat to the answer's
// first text in the chat buffer (cold-ms). Beside it, the floor in the same sitting: the same
// CLI started directly in stream-json mode, the message written at once, to the answer's
// first text on its stdout (floor-ms): the CLI's own start-up plus one API round trip. Run it
// with -benchtime 3x or more: each iteration is a new Neovim and a new CLI.
func BenchmarkChatColdFirstToken(b *testing.B) {
	for _, p := range plugins(b) {
		b.Run(p.name, func(b *testing.B) {
			var cold, floor []time.Duration
			for i := 0; i < b.N; i++ {
				floor = append(floor, cliFloor(b))
				e := start(b, p)
				mark := e.mark()
				e.api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
				opened := time.Now()
				e.openWatched()
				if p.name != "claude.nvim" {
					e.waitReady()
				}
				e.send("Say hello")
				cold = append(cold, e.waitMark(mark).got.Sub(opened))
			}
			b.ReportMetric(ms(median(cold)), "cold-ms")
			b.ReportMetric(ms(median(floor)), "floor-ms")
			b.ReportMetric(float64(median(cold))/float64(median(floor)), "cold/floor")
		})
	}
}

// cliFloor starts the CLI as the chat does, bare (no MCP server, no settings of ours), writes
// one message at once and returns how long until the scripted answer's text came out.
func cliFloor(b *testing.B) time.Duration {
	b.Helper()
	api := fakeapi.New(b)
	env := clienv.New(b, api.URL())
	const mark = "FLOORMARK"
	api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, clienv.Bin(b), "-p", "--input-format", "stream-json",
		"--output-format", "stream-json", "--verbose", "--include-partial-messages")
	cmd.Dir, cmd.Env = env.Project, env.Vars()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	defer cancel()
	if _, err := io.WriteString(stdin, `{"type":"user","message":{"role":"user","content":"Say hello"}}`+"\n"); err != nil {
		b.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 64<<20)
	for lines.Scan() {
		if strings.Contains(lines.Text(), mark) {
			took := time.Since(start)
			stdin.Close()
			return took
		}
	}
	b.Fatalf("the CLI ended without the answer: %v", lines.Err())
	return 0
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
