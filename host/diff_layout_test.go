package host

import (
	"strings"
	"testing"
)

// Where a diff opens: in a window that shows files (never a side panel or
// a window pinned to its buffer), and as the diff options say.

func TestADiffOpensInAFileWindowNotAPanelOrAPinnedWindow(t *testing.T) {
	for _, panel := range []string{
		"topleft vnew | setlocal buftype=nofile filetype=NvimTree",
		"topleft vsplit | enew | setlocal winfixbuf",
	} {
		t.Run(panel, func(t *testing.T) {
			d := newDiffEnv(t, "")
			d.nv.Cmd(panel)
			var panelWin, panelBuf int
			d.nv.Lua(&panelWin, `return vim.api.nvim_get_current_win()`)
			d.nv.Lua(&panelBuf, `return vim.api.nvim_get_current_buf()`)
			p := d.openDiff(d.path, proposed, tab)
			var shown int
			var diff bool
			d.nv.Lua(&shown, `return vim.api.nvim_win_get_buf(...)`, panelWin)
			d.nv.Lua(&diff, `return vim.wo[...].diff`, panelWin)
			if shown != panelBuf || diff {
				t.Errorf("the panel window now shows buffer %d (diff %v), want its own buffer %d untouched", shown, diff, panelBuf)
			}
			if msgs := d.nv.Messages(); strings.Contains(msgs, "E1513") || strings.Contains(msgs, "rror") {
				t.Errorf("opening the diff reported: %s", msgs)
			}
			d.nv.Cmd("ClaudeDiffAccept")
			if got := answer(t, p); got[0] != "FILE_SAVED" {
				t.Errorf("answer %q", got)
			}
			d.assertClosed("after accepting")
		})
	}
}

func TestDiffLayoutOptions(t *testing.T) {
	d := newDiffEnv(t, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, diff = { layout = 'horizontal', keep_terminal_focus = true } })`)
	d.nv.Cmd("ClaudeOpen")
	p := d.openDiff(d.path, proposed, tab)
	var st struct {
		Cur    string `msgpack:"cur"`
		Layout string `msgpack:"layout"`
	}
	d.nv.Lua(&st, `
		local prop, orig
		for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
			local b = vim.api.nvim_win_get_buf(w)
			if vim.b[b].claude_diff then prop = w elseif vim.wo[w].diff then orig = w end
		end
		local pr, orr = vim.api.nvim_win_get_position(prop), vim.api.nvim_win_get_position(orig)
		return { cur = vim.bo.buftype, layout = (pr[1] > orr[1] and pr[2] == orr[2]) and 'horizontal' or 'vertical' }`)
	if st.Cur != "terminal" || st.Layout != "horizontal" {
		t.Errorf("focus in %q with a %s layout; want the terminal kept focused and the proposal below the file", st.Cur, st.Layout)
	}
	d.nv.Cmd("ClaudeDiffAccept")
	answer(t, p)
}
