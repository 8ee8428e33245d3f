package host

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkHunkKeysInALargeProposal is the per-hunk keys on the large path's worst case (the
// file of BenchmarkOpenDiffManyHunks: 5 MiB, a change every 50 lines, about 1,500 hunks).
// Each iteration takes back a hunk in the middle and keeps it again, as the user's two keys
// do (and, for comparison, Vim's do and u); "key" is the time of one of them, from the key to its effect (the edit, the marks, the
// count, and the buffer watch's recheck on the next turn of the main loop).
func BenchmarkHunkKeysInALargeProposal(b *testing.B) {
	for _, keys := range []struct{ name, back, keep string }{
		{"take back and keep", `\ab`, `\ak`},
		// The floor: Vim's own keys, and Neovim's diff that each change updates.
		{"do and u, for comparison", "do", "u"},
	} {
		b.Run(keys.name, func(b *testing.B) { benchHunkKeys(b, keys.back, keys.keep) })
	}
}

func benchHunkKeys(b *testing.B, back, keep string) {
	d := newDiffEnv(b, "")
	file, proposal := manyHunkPayload()
	path := d.nv.WriteFile("big.go", file)
	d.nv.Cmd("edit " + path)
	p := d.openDiff(path, proposal, "bench")
	d.nv.Cmd("ClaudeDiffFocus")
	// Line 37,526 is the proposal's changed line of hunk 751 (0-based n = 37,525).
	const line = 37526
	var keys []time.Duration
	press := func(key, state string) {
		start := time.Now()
		d.nv.Keys(fmt.Sprintf("%dG%s", line, key))
		d.nv.Lua(nil, `return 1`) // a round trip after the watch's recheck, scheduled by the key
		keys = append(keys, time.Since(start))
		var got string
		d.nv.Lua(&got, `return vim.api.nvim_buf_get_lines(0, ... - 1, ..., false)[1]`, line)
		if !strings.Contains(got, state) {
			b.Fatalf("after %s line %d is %q, want it %s", key, line, got, state)
		}
	}
	for range b.N {
		press(back, "filler to look like code")
		press(keep, "changed by the proposal")
	}
	nvimtest.ReportQuantiles(b, keys, "key")
	callTool(b, d.c, "close_tab", map[string]string{"tab_name": "bench"})
	answer(b, p)
}
