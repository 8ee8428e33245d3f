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

// cliWarmFirstToken runs the CLI bare in stream-json mode (no editor, no MCP server, no
// settings of ours) through one short turn and then times the second message from its
// write to the answer's text on the CLI's stdout: the floor under a warm chat's first token.
func cliWarmFirstToken(b *testing.B) time.Duration {
	b.Helper()
	api := fakeapi.New(b)
	env := clienv.New(b, api.URL())
	const mark = "WARMFLOORMARK"
	api.Push(fakeapi.Say("Ready."), fakeapi.Say(mark+" Hello from the scripted model."))
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
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	defer cancel()
	send := func(text string) {
		if _, err := io.WriteString(stdin, `{"type":"user","message":{"role":"user","content":"`+text+`"}}`+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	send("Are you there?")
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 64<<20)
	var sent time.Time
	for lines.Scan() {
		line := lines.Text()
		if !sent.IsZero() && strings.Contains(line, mark) {
			took := time.Since(sent)
			stdin.Close()
			return took
		}
		if sent.IsZero() && strings.Contains(line, `"type":"result"`) {
			sent = time.Now()
			send("Say hello")
		}
	}
	b.Fatalf("the CLI ended before its second answer: %v", lines.Err())
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
