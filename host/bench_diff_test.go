package host

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neovim/go-client/nvim"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkOpenDiffManyHunks is the outside harness's worst case (issue 27
// item 5): a 5 MiB file and a proposal changing one line in every 50 (about
// 1,500 hunks), sent over the WebSocket as the CLI sends it, into an editor
// with a UI attached so redraws, syntax and folds all count. A second client
// (the UI's) asks Neovim for a trivial value every millisecond; freeze is its
// slowest round trip while the diff opens, visible the time from the request
// to ClaudeDiffOpened. Each iteration opens and closes the diff once.
func BenchmarkOpenDiffManyHunks(b *testing.B) {
	d := newDiffEnv(b, "")
	ui := dialSecondClient(b, d.nv)
	if err := ui.RegisterHandler("redraw", func(...any) {}); err != nil {
		b.Fatal(err)
	}
	if err := ui.AttachUI(200, 60, map[string]any{"ext_linegrid": true, "rgb": true}); err != nil {
		b.Fatal(err)
	}
	file, proposal := manyHunkPayload()
	path := d.nv.WriteFile("big.go", file)
	d.nv.Cmd("edit " + path)
	args, err := json.Marshal(map[string]any{
		"old_file_path": path, "new_file_path": path, "new_file_contents": proposal, "tab_name": "bench",
	})
	if err != nil {
		b.Fatal(err)
	}
	var visible, freeze []time.Duration
	for range b.N {
		stop := stallProbe(ui.Eval)
		start := time.Now()
		p, err := d.c.Start("tools/call", map[string]any{"name": "openDiff", "arguments": json.RawMessage(args)})
		if err != nil {
			b.Fatal(err)
		}
		nvimtest.Next(b, d.opened, "the diff to open", time.Minute)
		visible = append(visible, time.Since(start))
		// The probe runs on until the editor has drawn the diff and
		// answered once more: work deferred past the event counts too.
		var one int
		if err := ui.Eval("1", &one); err != nil {
			b.Fatal(err)
		}
		freeze = append(freeze, stop())
		callTool(b, d.c, "close_tab", map[string]string{"tab_name": "bench"})
		answer(b, p)
		nvimtest.Next(b, d.closed, "the diff to close", time.Minute)
	}
	nvimtest.ReportQuantiles(b, visible, "visible")
	nvimtest.ReportQuantiles(b, freeze, "freeze")
}

// dialSecondClient connects to nv's server address as another client (a
// UI, a probe), closed when b ends.
func dialSecondClient(b *testing.B, nv *nvimtest.Nvim) *nvim.Nvim {
	b.Helper()
	var addr string
	nv.Lua(&addr, `return vim.v.servername ~= '' and vim.v.servername or vim.fn.serverstart()`)
	c, err := nvim.Dial(addr)
	if err != nil {
		b.Fatalf("dial %s: %v", addr, err)
	}
	b.Cleanup(func() { _ = c.Close() })
	return c
}

// manyHunkPayload is a 5 MiB Go-like file and a proposal changing every 50th line of it
// (about 1,400 hunks): the many-hunk diff of issue 27.
func manyHunkPayload() (file, proposal string) {
	var f, p strings.Builder
	for n := 0; f.Len() < 5<<20; n++ {
		line := fmt.Sprintf("func generated%d() int { return %d } // filler to look like code\n", n, n)
		f.WriteString(line)
		if n%50 == 25 {
			line = fmt.Sprintf("func generated%d() int { return %d } // changed by the proposal\n", n, -n)
		}
		p.WriteString(line)
	}
	return f.String(), p.String()
}
