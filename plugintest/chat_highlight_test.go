package plugintest

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The transcript's highlighter (lua/claude/chat/highlight.lua), in a real Neovim: what it
// marks, and that a long history is done a step at a time.

type mark struct {
	Row   int    `msgpack:"row"`
	Col   int    `msgpack:"col"`
	Group string `msgpack:"group"`
}

// marks are the highlighter's extmarks on buf, rows 0-based.
func marks(t *testing.T, nv *nvimtest.Nvim, buf int) []mark {
	t.Helper()
	var ms []mark
	nv.Lua(&ms, `
		local buf = ...
		local out = {}
		for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, require('claude.chat.highlight').ns, 0, -1, { details = true })) do
			table.insert(out, { row = m[2], col = m[3], group = m[4].hl_group })
		end
		return out`, buf)
	return ms
}

func hasMark(ms []mark, row int, group string) bool {
	for _, m := range ms {
		if m.Row == row && strings.HasPrefix(m.Group, group) {
			return true
		}
	}
	return false
}

// transcript makes a markdown buffer the highlighter owns, as the chat's windows.lua does.
func transcript(t *testing.T, nv *nvimtest.Nvim) int {
	t.Helper()
	var buf int
	nv.Lua(&buf, `
		local buf = vim.api.nvim_create_buf(false, true)
		vim.bo[buf].filetype = 'markdown'
		require('claude.chat.highlight').attach(buf)
		return buf`)
	return buf
}

func TestTheTranscriptIsHighlightedAsMarkdownWithItsCodeBlocks(t *testing.T) {
	nv := nvimtest.New(t)
	buf := transcript(t, nv)
	var bufferWide bool
	nv.Lua(&bufferWide, `return vim.treesitter.highlighter.active[...] ~= nil`, buf)
	if bufferWide {
		t.Error("Neovim's tree-sitter highlighter still runs on the whole transcript")
	}
	fence := "```"
	nv.Lua(nil, `
		local buf, fence = ...
		vim.api.nvim_buf_set_lines(buf, 0, -1, false, {
			'# A heading', '', 'Some **bold** words.', '', fence .. 'lua', 'local x = 1', '', 'return x', fence, '', 'streaming' })
		require('claude.chat.highlight').update(buf)`, buf, fence)
	ms := marks(t, nv, buf)
	for _, want := range []struct {
		row   int
		group string
	}{
		{0, "@markup.heading"},
		{2, "@markup.strong.markdown_inline"},
		{5, "@keyword.lua"}, // inside the fence, across its blank line: still Lua
		{7, "@keyword.return.lua"},
	} {
		if !hasMark(ms, want.row, want.group) {
			t.Errorf("no %s on row %d; marks: %+v", want.group, want.row, ms)
		}
	}
	// The last line grows as text streams in: its colours follow (at once or after the gap
	// between paints, as the loop's clock says).
	nv.Lua(nil, `
		local buf, span = ...
		vim.api.nvim_buf_set_text(buf, 10, 9, 10, 9, { ' text with ' .. span })
		require('claude.chat.highlight').update(buf)`, buf, "`code`")
	nvimtest.Wait(t, "the streamed code span's highlight", waitTimeout, func() bool {
		return hasMark(marks(t, nv, buf), 10, "@markup.raw")
	})
}

// A streamed answer writes to the transcript hundreds of times a second; a paint is a parse
// (about 2 ms). Writes in a burst are painted once for the lot, and the last one's text
// still gets its colours.
func TestABurstOfWritesIsPaintedOnceAndItsLastTextStillHighlighted(t *testing.T) {
	nv := nvimtest.New(t)
	buf := transcript(t, nv)
	var parses int
	nv.Lua(&parses, `
		local buf = ...
		local parse = vim.treesitter.get_string_parser
		local n = 0
		vim.treesitter.get_string_parser = function(...)
			n = n + 1
			return parse(...)
		end
		vim.api.nvim_buf_set_lines(buf, 0, -1, false, { 'The answer so far' })
		for i = 1, 30 do -- one event-loop turn: no timer runs in between
			local last = vim.api.nvim_buf_line_count(buf) - 1
			local line = vim.api.nvim_buf_get_lines(buf, last, last + 1, false)[1]
			vim.api.nvim_buf_set_text(buf, last, #line, last, #line, { ' word' .. i })
			require('claude.chat.highlight').update(buf)
		end
		vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', 'and **the end**' })
		require('claude.chat.highlight').update(buf)
		vim.treesitter.get_string_parser = parse
		return n`, buf)
	if parses > 2 {
		t.Errorf("32 writes in a burst made %d parses: each write is painted", parses)
	}
	nvimtest.Wait(t, "the last write's highlight", waitTimeout, func() bool {
		return hasMark(marks(t, nv, buf), 2, "@markup.strong")
	})
}

func TestALongHistoryIsHighlightedAStepAtATimeNewestFirst(t *testing.T) {
	nv := nvimtest.New(t)
	buf := transcript(t, nv)
	// 3,000 paragraphs written at once, as a resumed conversation's history is.
	var first []mark
	nv.Lua(&first, `
		local buf = ...
		local lines = {}
		for i = 1, 3000 do
			table.insert(lines, 'Paragraph ' .. i .. ' has **bold** words.')
			table.insert(lines, '')
		end
		table.insert(lines, 'The newest, *streaming*')
		vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
		require('claude.chat.highlight').update(buf)
		-- What that one call did, before any scheduled step ran:
		local out = {}
		for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, require('claude.chat.highlight').ns, 0, -1, { details = true })) do
			table.insert(out, { row = m[2], col = m[3], group = m[4].hl_group })
		end
		return out`, buf)
	last := 6000
	if !hasMark(first, last, "@markup.italic") || !hasMark(first, last-2, "@markup.strong") {
		t.Errorf("the newest lines were not highlighted first")
	}
	if hasMark(first, 0, "@markup.strong") {
		t.Errorf("the whole history was highlighted in one step (%d marks): the editor stalls on a long conversation", len(first))
	}
	nvimtest.Wait(t, "the oldest paragraph's highlights", waitTimeout, func() bool {
		return hasMark(marks(t, nv, buf), 0, "@markup.strong")
	})
	if ms := marks(t, nv, buf); len(ms) < 3001 {
		t.Errorf("%d marks after all steps, want at least one per paragraph", len(ms))
	}
}
