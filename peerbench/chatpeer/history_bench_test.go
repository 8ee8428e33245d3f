package chatpeer

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/chat/chattest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/claude-nvim/claude.nvim/peerbench"
)

// historyMessages is the resumed conversation's length: the 2,000 issues 25 and 27 name,
// unless $BENCH_CHAT_HISTORY says otherwise.
func historyMessages() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_CHAT_HISTORY")); err == nil && n > 0 {
		return n
	}
	return 2000
}

// BenchmarkChatHistory streams 256 KiB of text (as BenchmarkChatStream1MiB does, a marker
// every 16 KiB) into a chat, once fresh and once resumed from a stored conversation of
// 2,000 messages (chattest.Write: prompts, markdown answers, a Read and its result every
// fifth exchange), the same file for both plugins. Stall and delay must not grow with the
// history: the two variants side by side say whether they do. It also reports how long the
// resumed history took to be shown (resume-ms, from asking to its last answer in the
// buffer) and the memory of Neovim and of the helper after the turn.
func BenchmarkChatHistory(b *testing.B) {
	const size, chunk, markEvery = 256 << 10, 128, 16 << 10
	for _, p := range plugins(b) {
		if p.resume == "" {
			continue // a chat with no resume measured here (claude.nvim-acp)
		}
		b.Run(p.name, func(b *testing.B) {
			for _, history := range []int{0, historyMessages()} {
				name := "fresh"
				if history > 0 {
					name = "resumed-" + strconv.Itoa(history)
				}
				b.Run(name, func(b *testing.B) {
					var stalls, delays []time.Duration
					for i := 0; i < b.N; i++ {
						e := start(b, p)
						e.open()
						if history > 0 {
							b.ReportMetric(ms(e.resume(history)), "resume-ms")
						}
						e.warmUp()
						d, st := e.streamTurn(size, chunk, markEvery, fmt.Sprintf("Write a long text, number %d", i+1))
						delays, stalls = append(delays, d...), append(stalls, st...)
						b.ReportMetric(float64(peerbench.RSS(e.pid))/(1<<20), "nvim-rss-MiB")
						b.ReportMetric(float64(peerbench.RSS(e.helperPID()))/(1<<20), "helper-rss-MiB")
					}
					nvimtest.ReportQuantiles(b, stalls, "stall")
					nvimtest.ReportQuantiles(b, delays, "delay")
				})
			}
		})
	}
}

// resume stores a conversation of n messages for the chat's folder, has the open chat
// continue it and waits until its last answer is in the buffer; it returns how long that
// took.
func (e *editor) resume(n int) time.Duration {
	e.b.Helper()
	stored, err := chattest.Write(e.env.ConfigDir, e.env.Project, chattest.Shape{Messages: n, ToolEvery: 5})
	if err != nil {
		e.b.Fatal(err)
	}
	t := time.Now()
	e.lua(nil, e.p.resume, stored.ID)
	deadline := time.Now().Add(turnTimeout)
	nvimtest.Wait(e.b, e.p.name+" to show the resumed conversation", 2*turnTimeout, func() bool {
		if time.Now().After(deadline) {
			e.b.Fatalf("%s did not show the resumed conversation's last answer%s", e.p.name, e.state())
		}
		var found string
		if e.nv.ExecLua(`local buf, text = ...
			if _G.chatpeer_resume_error then return _G.chatpeer_resume_error end
			for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, -400, -1, false)) do
				if l:find(text, 1, true) then return 'shown' end
			end
			return ''`, &found, e.buf, stored.LastAnswer) != nil {
			return false
		}
		if found != "" && found != "shown" {
			e.b.Fatalf("%s could not resume the conversation: %s", e.p.name, found)
		}
		return found == "shown"
	})
	took := time.Since(t)
	e.waitReady()
	return took
}
