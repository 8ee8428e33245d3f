package host

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Benchmarks report medians (p50) and tails (p99, max) of per-operation
// samples as custom metrics; `make bench` runs them. Each needs $NVIM.

// BenchmarkSelectionLatency measures the time from a cursor move in Neovim
// to the selection_changed frame at a connected client: an isolated move
// (the user pauses between moves) and the last move of a burst (a held key).
func BenchmarkSelectionLatency(b *testing.B) {
	e := newEnv(b)
	var lines strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&lines, "line %d of a file with some text on it\n", i+1)
	}
	path := e.nv.WriteFile("latency.txt", lines.String())
	c := e.connect()
	e.nv.Cmd("edit " + path)
	waitLine := func(line int) {
		for {
			s := mcptest.Next[selectionChanged](b, c, "selection_changed")
			if s.Selection.Start.Line == line {
				return
			}
		}
	}
	waitLine(0)
	line := 0
	for _, mode := range []struct {
		name  string
		burst int
	}{{"isolated", 1}, {"burst-of-10", 10}} {
		b.Run(mode.name, func(b *testing.B) {
			var samples []time.Duration
			for i := 0; i < b.N; i++ {
				time.Sleep(40 * time.Millisecond) // a pause: the next move is isolated again
				for k := 1; k < mode.burst; k++ {
					line++
					_, _ = e.nv.Input("j")
				}
				line++
				start := time.Now()
				if _, err := e.nv.Input("j"); err != nil {
					b.Fatal(err)
				}
				waitLine(line)
				samples = append(samples, time.Since(start))
				if line > 1900 {
					e.nv.Cmd("normal! gg")
					line = 0
					waitLine(0)
				}
			}
			nvimtest.ReportQuantiles(b, samples, "latency")
		})
	}
}

// BenchmarkCursorMovedCost measures what one CursorMoved costs Neovim's
// main loop because of us (evaluating the event's state and queueing the
// notification), as the difference between Neovim with and without the
// plugin's autocmds, timed inside Neovim.
func BenchmarkCursorMovedCost(b *testing.B) {
	perEvent := func(nv *nvimtest.Nvim) float64 {
		var ns float64
		nv.Lua(&ns, `
			local n = 20000
			local t = vim.uv.hrtime()
			for _ = 1, n do vim.api.nvim_exec_autocmds('CursorMoved', { modeline = false }) end
			return (vim.uv.hrtime() - t) / n`)
		return ns
	}
	e := newEnv(b)
	path := e.nv.WriteFile("cost.txt", "some text\n")
	e.start()
	e.nv.Cmd("edit " + path)
	e.nv.Cmd("doautocmd CursorMoved") // bootstrap the manifest's autocmds
	bare := nvimtest.New(b)
	bare.Cmd("edit " + bare.WriteFile("cost.txt", "some text\n"))
	var with, without []float64
	for i := 0; i < b.N; i++ {
		with = append(with, perEvent(e.nv))
		without = append(without, perEvent(bare))
	}
	slices.Sort(with)
	slices.Sort(without)
	b.ReportMetric(with[len(with)/2]/1000, "with-plugin-µs/event")
	b.ReportMetric(without[len(without)/2]/1000, "without-µs/event")
	b.ReportMetric((with[len(with)/2]-without[len(without)/2])/1000, "plugin-µs/event")
}

// BenchmarkStartup measures Neovim's startup (--startuptime's
// "NVIM STARTED") without the plugin, with it loaded and set up, and with
// auto_start, in the same run.
func BenchmarkStartup(b *testing.B) {
	bin := nvimtest.Binary(b)
	root := nvimtest.RepoRoot()
	variants := []struct {
		name string
		args []string
	}{
		{"without-plugin", nil},
		{"with-plugin", []string{"--cmd", "set rtp^=" + root, "-c", "lua require('claude').setup({})"}},
		{"with-plugin-auto_start", []string{"--cmd", "set rtp^=" + root, "-c", "lua require('claude').setup({ auto_start = true })"}},
	}
	dir := b.TempDir()
	env := append(nvimtest.BaseEnv(dir), "CLAUDE_NVIM_LOG=")
	samples := make([][]time.Duration, len(variants))
	for i := 0; i < b.N; i++ {
		for v, variant := range variants { // interleaved, so load hits all alike
			log := filepath.Join(dir, "startup.log")
			_ = os.Remove(log)
			args := append([]string{"--clean", "--headless", "-n", "-i", "NONE", "--startuptime", log}, variant.args...)
			args = append(args, "-c", "qa!")
			cmd := exec.Command(bin, args...)
			cmd.Env, cmd.Dir = env, dir
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", variant.name, err, out)
			}
			samples[v] = append(samples[v], startedAt(b, log))
		}
	}
	for v, variant := range variants {
		slices.Sort(samples[v])
		b.ReportMetric(float64(samples[v][len(samples[v])/2].Microseconds())/1000, variant.name+"-p50-ms")
	}
}

// startedAt reads the "--- NVIM STARTED ---" time from a --startuptime log.
func startedAt(b *testing.B, log string) time.Duration {
	data, err := os.ReadFile(log)
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "NVIM STARTED") {
			ms, err := strconv.ParseFloat(strings.Fields(line)[0], 64)
			if err != nil {
				b.Fatal(err)
			}
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	b.Fatalf("no NVIM STARTED in %s", log)
	return 0
}

// BenchmarkOpenDiff measures, for proposals of several sizes, the time
// from the openDiff request to the diff being shown (ClaudeDiffOpened), and
// the longest the editor stopped answering meanwhile: a probe asks Neovim
// for a trivial value every millisecond and keeps its slowest round trip.
func BenchmarkOpenDiff(b *testing.B) {
	for _, size := range []int{100 << 10, 1 << 20, 5 << 20} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			d := newDiffEnv(b, "")
			var file strings.Builder
			for n := 0; file.Len() < size; n++ {
				fmt.Fprintf(&file, "func generated%d() int { return %d } // filler to look like code\n", n, n)
			}
			text := file.String()
			path := d.nv.WriteFile("big.go", text)
			// A realistic edit: a few lines changed in the middle.
			proposal := strings.Replace(text, "return 1000 }", "return -1000 } // changed", 1)
			proposal = strings.Replace(proposal, "generated1500()", "renamed1500()", 1)
			// Encoded once: the CLI's cost of building its request is not ours.
			args, err := json.Marshal(map[string]any{
				"old_file_path": path, "new_file_path": path, "new_file_contents": proposal, "tab_name": "bench",
			})
			if err != nil {
				b.Fatal(err)
			}
			var visible, freeze []time.Duration
			for i := 0; i < b.N; i++ {
				stop := stallProbe(d.nv.Eval)
				start := time.Now()
				p, err := d.c.Start("tools/call", map[string]any{"name": "openDiff", "arguments": json.RawMessage(args)})
				if err != nil {
					b.Fatal(err)
				}
				nvimtest.Next(b, d.opened, "the diff to open", time.Minute)
				visible = append(visible, time.Since(start))
				freeze = append(freeze, stop())
				callTool(b, d.c, "close_tab", map[string]string{"tab_name": "bench"})
				answer(b, p)
				nvimtest.Next(b, d.closed, "the diff to close", time.Minute)
			}
			nvimtest.ReportQuantiles(b, visible, "visible")
			nvimtest.ReportQuantiles(b, freeze, "freeze")
		})
	}
}

// stallProbe is nvimtest.ProbeStalls reduced to its longest round trip: how long the
// editor did not answer meanwhile.
func stallProbe(eval func(expr string, result any) error) (stop func() time.Duration) {
	probe := nvimtest.ProbeStalls(eval)
	return func() time.Duration { return slices.Max(append(probe(), 0)) }
}

// BenchmarkCloseTab measures close_tab's round trip for a shown proposal the user has looked
// at for a moment (the CLI closes it after the user answered in its own prompt), in the
// editor's process and ours alone: no trimmed pages, no process waking from idle (peerbench's
// DiffMemory has those, beside the peer).
func BenchmarkCloseTab(b *testing.B) {
	d := newDiffEnv(b, "")
	var closing []time.Duration
	for i := 0; i < b.N; i++ {
		p := d.openDiff(d.path, proposed, "bench")
		time.Sleep(200 * time.Millisecond) // the view's deferred work is done
		start := time.Now()
		callTool(b, d.c, "close_tab", map[string]string{"tab_name": "bench"})
		closing = append(closing, time.Since(start))
		answer(b, p)
		nvimtest.Next(b, d.closed, "the diff to close", time.Minute)
	}
	nvimtest.ReportQuantiles(b, closing, "close")
}
