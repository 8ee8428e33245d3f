package chatpeer

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkChatToolResult10MiB has the scripted model run Bash on a 10 MiB build log (the
// project's settings allow `cat`, so neither chat asks) and then stream 64 KiB of text. The
// CLI does not pass 10 MiB on: 2.1.332 keeps the output in a file and gives the model, and
// its stream-json, a 2 KiB preview (chat/doc.go), so this measures what a user of either
// chat meets. It reports the stalls over the whole turn, the delay of the text after the
// result (API to buffer, as BenchmarkChatStream1MiB), and, where the chat shows the
// result's first line (a marker), the time from the tool call leaving the API to that
// (result-ms: the CLI running Bash and writing 10 MiB to its file included).
func BenchmarkChatToolResult10MiB(b *testing.B) {
	const size, text, chunk, markEvery = 10 << 20, 64 << 10, 128, 16 << 10
	for _, p := range plugins(b) {
		b.Run(p.name, func(b *testing.B) {
			e := start(b, p)
			e.allowCat()
			e.open()
			e.warmUp()
			var stalls, delays, results []time.Duration
			for i := 0; i < b.N; i++ {
				asked, shown := e.mark(), e.mark()
				log := e.buildLog(i, shown, size)
				answer, marks := e.prose(text, markEvery, chunk)
				left := newDepartures()
				e.api.Push(
					fakeapi.Turn{Text: asked + " Reading the build log.", Sent: left.note, Tools: []fakeapi.ToolUse{{
						Name: "Bash", Input: map[string]any{"command": "cat " + log, "description": "Print the build log"},
					}}},
					fakeapi.Turn{Text: answer, Chunk: chunk, Delay: time.Millisecond, Sent: left.note},
				)
				runtime.GC()
				stopProbe := nvimtest.ProbeStalls(e.nv.Eval)
				e.send(fmt.Sprintf("Read the build log, number %d", i+1))
				seen := e.collect(marks[len(marks)-1])
				e.waitIdle()
				stalls = append(stalls, stopProbe()...)
				for _, mark := range marks {
					s, ok := seen[mark]
					if at, sent := left.when(mark); ok && sent {
						delays = append(delays, s.got.Sub(at))
					}
				}
				if s, ok := seen[shown]; ok {
					if at, sent := left.when(asked); sent {
						results = append(results, s.got.Sub(at))
					}
				}
			}
			nvimtest.ReportQuantiles(b, stalls, "stall")
			nvimtest.ReportQuantiles(b, delays, "delay")
			if len(results) > 0 {
				b.ReportMetric(ms(median(results)), "result-ms")
			} else {
				b.Logf("%s did not show the result's first line", p.name)
			}
		})
	}
}

// allowCat lets the CLI run `cat` without asking, in the project's settings (both chats'
// CLIs read them).
func (e *editor) allowCat() {
	e.b.Helper()
	dir := filepath.Join(e.env.Project, ".claude")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		e.b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"permissions":{"allow":["Bash(cat:*)"]}}`), 0o600); err != nil {
		e.b.Fatal(err)
	}
}

// buildLog writes a log of size bytes whose first line holds mark, and returns its path.
func (e *editor) buildLog(i int, mark string, size int) string {
	e.b.Helper()
	var s strings.Builder
	s.WriteString(mark + " build started\n")
	for s.Len() < size {
		fmt.Fprintf(&s, "ok  \tgithub.com/example/project/pkg%d\t0.%03ds\n", s.Len()%997, s.Len()%1000)
	}
	path := filepath.Join(e.env.Project, fmt.Sprintf("build%d.log", i))
	if err := os.WriteFile(path, []byte(s.String()[:size]), 0o600); err != nil {
		e.b.Fatal(err)
	}
	return path
}

// collect waits until the editor has shown last and returns every marker it showed until
// then.
func (e *editor) collect(last string) map[string]seenMark {
	e.b.Helper()
	out := map[string]seenMark{}
	deadline := time.After(turnTimeout)
	for {
		select {
		case s := <-e.seen:
			out[s.mark] = s
			if s.mark == last {
				return out
			}
		case <-deadline:
			e.b.Fatalf("%s never showed %s in its chat buffer%s", e.p.name, last, e.state())
		}
	}
}
