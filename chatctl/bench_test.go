package chatctl_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkChatRender streams through the whole chat path (a CLI's stdout, the host's parser
// and batcher, one nvimapi call per batch, chat.lua's rendering into the folded markdown
// transcript) and reports, with a probe asking Neovim for a trivial value every millisecond,
// how long the editor stopped answering (stall-p99/max: the probe's round trips), and the
// delay from a line leaving the CLI to its text being in the transcript (delay-p50/p99), and
// the time chat.lua takes per batch (render-p50/max).
//
// The CLI is a stand-in that copies a FIFO to its stdout; the benchmark writes what the real
// CLI prints into that FIFO. Text1MiB streams 1 MiB of assistant text in 24-byte deltas (a few
// tokens each), paced at 512 KiB/s (far faster than a model writes), with a marker every
// 16 KiB; ToolResult10MiB is a Read whose result line carries 10 MiB.
func BenchmarkChatRender(b *testing.B) {
	for _, bc := range []struct {
		name    string
		prepare func(w *chatBenchWriter) // outside the probes
		write   func(w *chatBenchWriter)
	}{
		{"Text1MiB", nil, func(w *chatBenchWriter) { w.text(1<<20, 24, 16<<10, 512<<10) }},
		{"ToolResult10MiB", func(w *chatBenchWriter) { w.resultLine(10 << 20) }, func(w *chatBenchWriter) { w.toolResult(10 << 20) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := newChatBench(b)
			if bc.prepare != nil {
				bc.prepare(w)
			}
			var stalls, delays []time.Duration
			for i := 0; i < b.N; i++ {
				// The benchmark's own garbage (the 10 MiB result) must not pause the probe,
				// which runs in this process.
				runtime.GC()
				stopProbe := nvimtest.ProbeStalls(w.e.nv.Eval)
				w.turn(bc.write)
				stalls = append(stalls, stopProbe()...)
				delays = append(delays, w.takeDelays()...)
			}
			// The time chat.lua spends on a batch, as Neovim measured it.
			var render []float64
			w.e.nv.Lua(&render, `local r = _G.chatbench_render; _G.chatbench_render = {}; return r`)
			renders := make([]time.Duration, len(render))
			for i, ms := range render {
				renders[i] = time.Duration(ms * float64(time.Millisecond))
			}
			nvimtest.ReportQuantiles(b, renders, "render")
			nvimtest.ReportQuantiles(b, stalls, "stall")
			nvimtest.ReportQuantiles(b, delays, "delay")
		})
	}
}

// chatBenchWriter writes the CLI's lines and times their arrival in the transcript.
type chatBenchWriter struct {
	b    *testing.B
	e    *env
	out  *bufio.Writer
	seen chan string // markers rendered ("end" when a turn's summary is)

	result []byte // toolResult's line, built once

	mu     sync.Mutex
	sent   map[string]time.Time
	delays []time.Duration
	next   int
}

func newChatBench(b *testing.B) *chatBenchWriter {
	b.Helper()
	e := newEnv(b)
	fifo := filepath.Join(b.TempDir(), "stdout")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		b.Fatal(err)
	}
	cli := filepath.Join(b.TempDir(), "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\nexec cat '"+fifo+"'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	w := &chatBenchWriter{b: b, e: e, seen: make(chan string, 1024), sent: map[string]time.Time{}}
	const method = "chatbench_seen"
	if err := e.nv.RegisterHandler(method, func(mark string) {
		now := time.Now()
		w.mu.Lock()
		if t, ok := w.sent[mark]; ok {
			w.delays = append(w.delays, now.Sub(t))
			delete(w.sent, mark)
		}
		w.mu.Unlock()
		w.seen <- mark
	}); err != nil {
		b.Fatal(err)
	}
	// Told after each batch is rendered: the markers now in the transcript.
	e.nv.Lua(nil, `
		local cli, chan, method = ...
		require('claude').setup({ terminal_cmd = { cli } })
		local chat = require('claude.chat')
		local render = chat.show_events
		_G.chatbench_render = {}
		chat.show_events = function(dir, items)
			local t0 = vim.uv.hrtime()
			render(dir, items)
			table.insert(_G.chatbench_render, (vim.uv.hrtime() - t0) / 1e6)
			for _, it in ipairs(items) do
				for mark in (it.text or ''):gmatch('MARK%d+K') do
					vim.rpcnotify(chan, method, mark)
				end
				if it.kind == 'end' then
					vim.rpcnotify(chan, method, 'end')
				end
			end
		end`, cli, e.nv.ChannelID(), method)
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once the CLI reads it
		if err != nil {
			b.Error(err)
		}
		opened <- f
	}()
	// The chat starts a CLI only in a folder the CLI trusts (trust.go): the benchmark's is.
	nvimtest.TrustWorkspaces(b, e.nv)
	e.nv.Cmd("ClaudeChat")
	var f *os.File
	select {
	case f = <-opened:
	case <-time.After(waitTimeout):
		b.Fatal("the stand-in CLI never opened its FIFO")
	}
	b.Cleanup(func() { f.Close() })
	w.out = bufio.NewWriterSize(f, 1<<16)
	return w
}

// line writes one line of the CLI's output.
func (w *chatBenchWriter) line(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		w.b.Fatal(err)
	}
	w.out.Write(b)
	w.out.WriteByte('\n')
}

// mark returns a new marker and notes when it leaves (at the next flush).
func (w *chatBenchWriter) mark() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.next++
	m := fmt.Sprintf("MARK%dK", w.next)
	w.sent[m] = time.Time{}
	return m
}

// flush sends what was written and stamps the markers in it with the time it left.
func (w *chatBenchWriter) flush() {
	if err := w.out.Flush(); err != nil {
		w.b.Fatal(err)
	}
	now := time.Now()
	w.mu.Lock()
	for m, t := range w.sent {
		if t.IsZero() {
			w.sent[m] = now
		}
	}
	w.mu.Unlock()
}

func (w *chatBenchWriter) takeDelays() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.delays
	w.delays = nil
	return d
}

func streamEvent(event map[string]any) map[string]any {
	return map[string]any{"type": "stream_event", "event": event, "session_id": "bench", "parent_tool_use_id": nil}
}

// turn writes one turn (init, what write writes, the result) and waits until the transcript
// shows the turn's end.
func (w *chatBenchWriter) turn(write func(*chatBenchWriter)) {
	w.line(map[string]any{"type": "system", "subtype": "init", "session_id": "bench", "model": "bench-model", "permissionMode": "default"})
	write(w)
	w.line(map[string]any{"type": "result", "subtype": "success", "is_error": false, "duration_ms": 1, "num_turns": 1,
		"session_id": "bench", "total_cost_usd": 0, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}})
	w.flush()
	for {
		select {
		case m := <-w.seen:
			if m == "end" {
				return
			}
		case <-time.After(time.Minute):
			w.b.Fatal("the turn's end never showed in the transcript")
		}
	}
}

// text streams size bytes of prose (lines of about 80 bytes, a paragraph every 10) in deltas
// of chunk bytes, with a marker every markEvery bytes, at rate bytes per second.
func (w *chatBenchWriter) text(size, chunk, markEvery, rate int) {
	var prose strings.Builder
	for n := 0; prose.Len() < size; n++ {
		prose.WriteString("Streaming text arrives a few tokens at a time, as a model writes it.")
		if n%10 == 9 {
			prose.WriteString("\n\n")
		} else {
			prose.WriteString("\n")
		}
	}
	s := prose.String()[:size]
	w.line(streamEvent(map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}))
	start := time.Now()
	perMS := rate / 1000
	sent, nextMark := 0, 0
	for sent < len(s) {
		end := min(sent+chunk, len(s))
		delta := s[sent:end]
		if sent >= nextMark {
			delta = w.mark() + " " + delta
			nextMark += markEvery
		}
		w.line(streamEvent(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": delta}}))
		sent = end
		if sent%perMS < chunk { // about every millisecond's worth: send, and keep the pace
			w.flush()
			if ahead := time.Duration(sent/perMS)*time.Millisecond - time.Since(start); ahead > 0 {
				time.Sleep(ahead)
			}
		}
	}
	w.line(streamEvent(map[string]any{"type": "content_block_stop", "index": 0}))
	w.flush()
}

// toolResult writes a Read and its result of size bytes, the result's first line marked.
// The result's line is built once, before the first probe, with a marker put in each time.
func (w *chatBenchWriter) toolResult(size int) {
	w.line(map[string]any{"type": "assistant", "message": map[string]any{"id": "m1", "content": []any{
		map[string]any{"type": "tool_use", "id": "t1", "name": "Read", "input": map[string]any{"file_path": "/tmp/big.txt"}},
	}}})
	w.flush()
	w.out.Write(bytes.Replace(w.resultLine(size), []byte("MARK0K"), []byte(w.mark()), 1))
	w.out.WriteByte('\n')
	w.flush()
}

// resultLine is the user line of a tool result of size bytes whose first line is MARK0K.
func (w *chatBenchWriter) resultLine(size int) []byte {
	if w.result != nil {
		return w.result
	}
	var content strings.Builder
	content.WriteString("MARK0K\n")
	for n := 1; content.Len() < size; n++ {
		fmt.Fprintf(&content, "%6d\tfunc generated%d() int { return %d } // filler to look like code\n", n, n, n)
	}
	line, err := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": content.String()},
	}}})
	if err != nil {
		w.b.Fatal(err)
	}
	w.result = line
	return line
}
