package chatpeer

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/peerbench"
)

// What of each figure is not the plugin's: the bare CLI's own warm first token and a bare
// Neovim's memory. Both chats run the same CLI, so a figure the CLI dominates (a warm
// first token is mostly its request to the API) says little about either plugin; the
// benchmarks report, beside the whole figure, what the plugin adds on top of these.

// bareCLI is the CLI run bare in stream-json mode, as the chat runs it but with no editor, no
// MCP server and no settings of ours: what of a figure is the CLI's own.
type bareCLI struct {
	b      *testing.B
	cmd    *exec.Cmd
	cancel context.CancelFunc
	stdin  io.WriteCloser
	lines  *bufio.Scanner // its stdout
}

// startBareCLI starts the CLI in env's project with args after the stream-json ones; close
// ends it (turnTimeout does at the latest).
func startBareCLI(b *testing.B, env *clienv.Env, args ...string) *bareCLI {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	cmd := exec.CommandContext(ctx, clienv.Bin(b), append([]string{"-p", "--input-format", "stream-json",
		"--output-format", "stream-json", "--verbose", "--include-partial-messages"}, args...)...)
	cmd.Dir, cmd.Env = env.Project, env.Vars()
	c := &bareCLI{b: b, cmd: cmd, cancel: cancel}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		b.Fatal(err)
	}
	c.lines = bufio.NewScanner(stdout)
	c.lines.Buffer(make([]byte, 1<<20), 64<<20)
	return c
}

// send writes a user message.
func (c *bareCLI) send(text string) {
	if _, err := io.WriteString(c.stdin, `{"type":"user","message":{"role":"user","content":"`+text+`"}}`+"\n"); err != nil {
		c.b.Fatal(err)
	}
}

// close ends the CLI and waits for it.
func (c *bareCLI) close() {
	c.stdin.Close()
	c.cancel()
	_ = c.cmd.Wait()
}

// cliWarmFirstToken runs the bare CLI through one short turn and then times the second
// message from its write to the answer's text on the CLI's stdout: the floor under a warm
// chat's first token.
func cliWarmFirstToken(b *testing.B) time.Duration {
	b.Helper()
	api := fakeapi.New(b)
	env := clienv.New(b, api.URL())
	const mark = "WARMFLOORMARK"
	api.Push(fakeapi.Say("Ready."), fakeapi.Say(mark+" Hello from the scripted model."))
	cli := startBareCLI(b, env)
	defer cli.close()
	cli.send("Are you there?")
	var sent time.Time
	for cli.lines.Scan() {
		line := cli.lines.Text()
		if !sent.IsZero() && strings.Contains(line, mark) {
			return time.Since(sent)
		}
		if sent.IsZero() && strings.Contains(line, `"type":"result"`) {
			sent = time.Now()
			cli.send("Say hello")
		}
	}
	b.Fatalf("the CLI ended before its second answer: %v", cli.lines.Err())
	return 0
}

// bareNvimRSS is the resident memory of a Neovim started as start starts one (UI attached,
// the same flags and environment) with no plugin on 'runtimepath'.
func bareNvimRSS(b *testing.B) int64 {
	b.Helper()
	e := start(b, plugin{name: "bare"})
	e.lua(nil, `vim.cmd.redraw()`)
	return peerbench.RSS(e.pid)
}
