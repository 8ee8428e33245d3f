package chatpeer

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/claude-nvim/claude.nvim/peerbench"
)

// BenchmarkChatFirstToken sends a message and times, in Neovim's clock,
// from the <CR> that sends it to the answer's first text in the chat
// buffer. The first message goes to a chat just opened and ready
// (first-token-1st); the others to a chat that has answered before
// (first-token: quantiles of them).
func BenchmarkChatFirstToken(b *testing.B) {
	for _, p := range plugins(b) {
		b.Run(p.name, func(b *testing.B) {
			e := start(b, p)
			e.open()
			b.ResetTimer()
			var warm []time.Duration
			for i := 0; i < b.N; i++ {
				mark := e.mark()
				e.api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
				e.send(fmt.Sprintf("Say hello, number %d", i+1))
				took := time.Duration(e.waitMark(mark).at - e.sent())
				e.waitIdle()
				if i == 0 {
					b.ReportMetric(ms(took), "first-token-1st-ms")
				} else {
					warm = append(warm, took)
				}
			}
			b.StopTimer()
			nvimtest.ReportQuantiles(b, warm, "first-token")
			// What the plugin adds to the CLI's own warm first token (median of 3).
			var floors []time.Duration
			for range 3 {
				floors = append(floors, cliWarmFirstToken(b))
			}
			floor := median(floors)
			b.ReportMetric(ms(floor), "cli-first-token-ms")
			if len(warm) > 0 {
				b.ReportMetric(ms(median(warm)-floor), "added-first-token-p50-ms")
			}
		})
	}
}

// BenchmarkChatStream1MiB streams 1 MiB of text into a chat that has
// answered once: 128-byte deltas (a few dozen tokens each), a pause of
// 1 ms before each (about 100 KiB/s, far faster than a model writes), a
// marker every 16 KiB. It reports the editor's stalls (a 1 ms probe's
// round trips), the delay from a marker leaving the API stand-in to its
// showing in the chat buffer (through the CLI and the plugin), the CPU
// Neovim and the plugin's helper process spent per streamed KiB, and their
// memory after the turn.
func BenchmarkChatStream1MiB(b *testing.B) {
	const size, chunk, markEvery = 1 << 20, 128, 16 << 10
	for _, p := range plugins(b) {
		b.Run(p.name, func(b *testing.B) {
			e := start(b, p)
			e.open()
			e.warmUp()
			var stalls, delays []time.Duration
			var nvimCPU, helperCPU time.Duration
			for i := 0; i < b.N; i++ {
				helper := e.helperPID()
				nvim0, helper0 := peerbench.CPU(e.pid), peerbench.CPU(helper)
				d, st := e.streamTurn(size, chunk, markEvery, fmt.Sprintf("Write a long text, number %d", i+1))
				delays, stalls = append(delays, d...), append(stalls, st...)
				nvimCPU += peerbench.CPU(e.pid) - nvim0
				helperCPU += peerbench.CPU(helper) - helper0
			}
			kib := float64(b.N) * size / 1024
			b.ReportMetric(float64(nvimCPU.Microseconds())/kib, "nvim-cpu-us/KiB")
			b.ReportMetric(float64(helperCPU.Microseconds())/kib, "helper-cpu-us/KiB")
			b.ReportMetric(float64(peerbench.RSS(e.pid))/(1<<20), "nvim-rss-MiB")
			b.ReportMetric(float64(peerbench.RSS(e.helperPID()))/(1<<20), "helper-rss-MiB")
			nvimtest.ReportQuantiles(b, stalls, "stall")
			nvimtest.ReportQuantiles(b, delays, "delay")
			// The same stream through the bare CLI: its own share of the delay, and what the
			// plugin adds to it.
			cli := bareCLITurn(b, 0, size, chunk, markEvery)
			b.ReportMetric(ms(median(cli)), "cli-delay-p50-ms")
			b.ReportMetric(ms(median(delays)-median(cli)), "added-delay-p50-ms")
		})
	}
}

// streamTurn streams size bytes of prose (chunk-byte deltas, 1 ms apart, a marker every
// markEvery bytes) into the chat as the answer to prompt. It returns each marker's delay
// from the API stand-in to the chat buffer, and the editor's stalls meanwhile (a 1 ms
// probe's round trips, until the chat takes the next message).
func (e *editor) streamTurn(size, chunk, markEvery int, prompt string) (delays, stalls []time.Duration) {
	e.b.Helper()
	text, marks := e.prose(size, markEvery, chunk)
	left := newDepartures()
	e.api.Push(fakeapi.Turn{Text: text, Chunk: chunk, Delay: time.Millisecond, Sent: left.note})
	runtime.GC() // the benchmark's own garbage must not pause the probe
	stopProbe := nvimtest.ProbeStalls(e.nv.Eval)
	e.send(prompt)
	for _, mark := range marks {
		s := e.waitMark(mark)
		if at, ok := left.when(mark); ok {
			delays = append(delays, s.got.Sub(at))
		}
	}
	e.waitIdle()
	return delays, stopProbe()
}

// warmUp runs one short turn, so the CLI and the plugin are past their
// start-up.
func (e *editor) warmUp() {
	e.b.Helper()
	mark := e.mark()
	e.api.Push(fakeapi.Say(mark + " Ready."))
	e.send("Are you there?")
	e.waitMark(mark)
	e.waitIdle()
}

// mark returns a new marker, unique in this editor.
func (e *editor) mark() string {
	e.marks++
	return fmt.Sprintf("MARK%dK", e.marks)
}

// prose is size bytes of text in lines of about 80 bytes, a paragraph every
// ten, with a marker opening every markEvery bytes and one in the last tail
// bytes: each at a multiple of tail, the delta size, so none is cut in two.
func (e *editor) prose(size, markEvery, tail int) (string, []string) {
	var s strings.Builder
	var marks []string
	for s.Len() < size {
		mark := e.mark()
		marks = append(marks, mark)
		start := s.Len()
		s.WriteString(mark + " ")
		for n := 0; s.Len()-start < markEvery; n++ {
			s.WriteString("Streaming text arrives a few tokens at a time, as a model writes it.")
			if n%10 == 9 {
				s.WriteString("\n\n")
			} else {
				s.WriteString("\n")
			}
		}
		// Cut back to the segment's size, ending the line there.
		text := s.String()[:start+markEvery-1] + "\n"
		s.Reset()
		s.WriteString(text)
	}
	last := e.mark()
	end := last + " " + strings.Repeat(".", tail-len(last)-2) + "\n"
	return s.String()[:size-tail] + end, append(marks, last)
}

// departures are the times markers left the API stand-in.
type departures struct {
	mu sync.Mutex
	at map[string]time.Time
}

var markRE = regexp.MustCompile(`MARK\d+K`)

func newDepartures() *departures { return &departures{at: map[string]time.Time{}} }

// note is fakeapi.Turn.Sent.
func (d *departures) note(delta string) {
	now := time.Now()
	marks := markRE.FindAllString(delta, -1)
	if len(marks) == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, m := range marks {
		d.at[m] = now
	}
}

func (d *departures) when(mark string) (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	at, ok := d.at[mark]
	return at, ok
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkChatMemory answers turns one after another (each about 1 KiB of
// text) and reports the resident memory of Neovim and of the plugin's helper
// process (our Go host, the peer's ACP agent) after the first turn, the
// 100th and the last: $BENCH_CHAT_TURNS, 100 unless set (issue 27 asks for
// 2,000: BENCH_CHAT_TURNS=2000, about 15 minutes a plugin on 2 cores).
func BenchmarkChatMemory(b *testing.B) {
	turns := 100
	if n, err := strconv.Atoi(os.Getenv("BENCH_CHAT_TURNS")); err == nil && n > 1 {
		turns = n
	}
	answer := strings.Repeat("A short paragraph of an answer, as a model writes one.\n", 18)
	for _, p := range plugins(b) {
		b.Run(p.name, func(b *testing.B) {
			bare := bareNvimRSS(b)
			b.ReportMetric(float64(bare)/(1<<20), "nvim-bare-MiB")
			for i := 0; i < b.N; i++ {
				e := start(b, p)
				e.open()
				for turn := 1; turn <= turns; turn++ {
					mark := e.mark()
					e.api.Push(fakeapi.Say(mark + " " + answer))
					e.send(fmt.Sprintf("Tell me more, part %d", turn))
					e.waitMark(mark)
					e.waitIdle()
					if turn == 1 || turn == 100 || turn == turns {
						label := strconv.Itoa(turn)
						rss := peerbench.RSS(e.pid)
						b.ReportMetric(float64(rss)/(1<<20), "nvim-MiB-after-"+label)
						b.ReportMetric(float64(rss-bare)/(1<<20), "nvim-added-MiB-after-"+label)
						b.ReportMetric(float64(peerbench.RSS(e.helperPID()))/(1<<20), "helper-MiB-after-"+label)
					}
				}
			}
		})
	}
}
