package chatctl_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkCheckAllFileBuffers is the check the chat runs after each Bash result and at each
// turn's end (render.lua's reload_after → reload.check_all): every loaded file buffer of
// 500, none changed on disk. It reports the time Neovim spends on all of them in one go
// (all500) and on one step of check_all, 50 buffers, the longest the editor is held
// (step50), measured inside Neovim so the RPC round trip is not counted.
func BenchmarkCheckAllFileBuffers(b *testing.B) {
	e := newEnv(b)
	for i := range 500 {
		e.nv.WriteFile(fmt.Sprintf("src/f%03d.txt", i), "line\n")
	}
	e.nv.Lua(nil, `
		for _, f in ipairs(vim.fn.glob('src/*.txt', false, true)) do vim.fn.bufload(vim.fn.bufadd(vim.fn.fnamemodify(f, ':p'))) end`)
	var loaded int
	e.nv.Lua(&loaded, `return #vim.tbl_filter(vim.api.nvim_buf_is_loaded, vim.api.nvim_list_bufs())`)
	if loaded < 500 {
		b.Fatalf("%d buffers loaded, want 500", loaded)
	}
	var all, slice []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var ns []int64
		e.nv.Lua(&ns, `
			local reload, bufs = require('claude.reload'), vim.api.nvim_list_bufs()
			local t = vim.uv.hrtime()
			reload.check()
			local t2 = vim.uv.hrtime()
			for k = 1, 50 do reload.check(bufs[k]) end -- one step of check_all
			return { t2 - t, vim.uv.hrtime() - t2 }`)
		all, slice = append(all, time.Duration(ns[0])), append(slice, time.Duration(ns[1]))
	}
	nvimtest.ReportQuantiles(b, all, "all500")
	nvimtest.ReportQuantiles(b, slice, "step50")
}
