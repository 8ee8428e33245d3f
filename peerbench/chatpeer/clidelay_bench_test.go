package chatpeer

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/chat/chattest"
	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkCLIHistoryDelay is BenchmarkChatHistory's turn without any editor: the CLI run
// bare in stream-json mode, fresh and resumed from the same 2,000-message conversation,
// streaming 256 KiB with a marker every 16 KiB, timed from a marker leaving the API
// stand-in to its line on the CLI's stdout (delay-*). What of the chats' delay grows with
// the history in the CLI itself, before any plugin sees the text.
func BenchmarkCLIHistoryDelay(b *testing.B) {
	const size, chunk, markEvery = 256 << 10, 128, 16 << 10
	for _, history := range []int{0, historyMessages()} {
		name := "fresh"
		if history > 0 {
			name = "resumed-" + strconv.Itoa(history)
		}
		b.Run("cli/"+name, func(b *testing.B) {
			var delays []time.Duration
			for i := 0; i < b.N; i++ {
				delays = append(delays, bareCLITurn(b, history, size, chunk, markEvery)...)
			}
			nvimtest.ReportQuantiles(b, delays, "delay")
		})
	}
}

// bareCLITurn runs one warm-up turn and one streamed turn through a bare CLI and returns
// each marker's way from the API to the CLI's stdout.
func bareCLITurn(b *testing.B, history, size, chunk, markEvery int) []time.Duration {
	b.Helper()
	api := fakeapi.New(b)
	env := clienv.New(b, api.URL())
	var args []string
	if history > 0 {
		stored, err := chattest.Write(env.ConfigDir, env.Project, chattest.Shape{Messages: history, ToolEvery: 5})
		if err != nil {
			b.Fatal(err)
		}
		args = append(args, "--resume", stored.ID)
	}
	e := &editor{b: b} // for its markers and prose only
	text, marks := e.prose(size, markEvery, chunk)
	left := newDepartures()
	api.Push(fakeapi.Say("Ready."), fakeapi.Turn{Text: text, Chunk: chunk, Delay: time.Millisecond, Sent: left.note})
	cli := startBareCLI(b, env, args...)
	defer cli.close()
	cli.send("Are you there?")
	lines := cli.lines
	results, want := 0, map[string]bool{}
	for _, m := range marks {
		want[m] = true
	}
	var delays []time.Duration
	for lines.Scan() {
		now := time.Now()
		line := lines.Text()
		if markRE.MatchString(line) && results == 1 {
			for _, m := range markRE.FindAllString(line, -1) {
				if want[m] {
					delete(want, m)
					if at, ok := left.when(m); ok {
						delays = append(delays, now.Sub(at))
					}
				}
			}
		}
		if strings.Contains(line, `"type":"result"`) { // the CLI does not put type first
			results++
			if results == 1 {
				cli.send("Write a long text")
			} else {
				return delays
			}
		}
	}
	b.Fatalf("the CLI ended before the turns did: %v", lines.Err())
	return nil
}
