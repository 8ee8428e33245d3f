package nvimapi

import (
	"context"
	"sync"

	"github.com/claude-nvim/claude.nvim/kernels"
)

// Code proposals (executeCode) are split like diffs: Go owns the request
// waiting for the user's answer, lua/claude/code.lua the scratch buffer
// that shows the code, which reports the answer (ClaudeHostCodeDone ->
// ResolveCode).

// codeAnswer is what the view reports: allowed, and the code as the user
// left it.
type codeAnswer struct {
	allowed bool
	code    string
}

type codeProposals struct {
	mu      sync.Mutex
	next    int
	pending map[int]chan codeAnswer // buffered: the first answer wins
}

var _ kernels.Confirmer = (*Editor)(nil)

// ConfirmCode shows code in a scratch buffer for the current notebook and
// waits for the user to run it (:w) or refuse it (:q, closing it). When no
// notebook is open it shows nothing and returns an empty Notebook.
func (e *Editor) ConfirmCode(ctx context.Context, code string) (kernels.Decision, error) {
	p := &e.code
	p.mu.Lock()
	if p.pending == nil {
		p.pending = map[int]chan codeAnswer{}
	}
	p.next++
	id := p.next
	answer := make(chan codeAnswer, 1)
	p.pending[id] = answer
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}()
	var shown struct {
		Notebook   string `msgpack:"notebook"`
		Connection string `msgpack:"connection"` // molten's kernel, if it holds one
	}
	if err := e.lua(ctx, &shown, `return require('claude.handlers').propose_code(...)`, id, splitProposal(code).Lines); err != nil {
		// Given up while Neovim showed it (ctx ended before its answer was read): the
		// view may be there all the same, and must not wait for a decision nobody reads.
		e.closeCode(id)
		return kernels.Decision{}, luaError(err)
	}
	if shown.Notebook == "" {
		return kernels.Decision{}, nil
	}
	select {
	case a := <-answer:
		return kernels.Decision{Notebook: shown.Notebook, Connection: shown.Connection, Allowed: a.allowed, Code: a.code}, nil
	case <-ctx.Done():
		// The CLI gave up the call (the user pressed Esc there): the view
		// goes and nothing runs.
		e.closeCode(id)
		return kernels.Decision{}, ctx.Err()
	}
}

// closeCode closes code proposal id, if Neovim shows it, unanswered.
func (e *Editor) closeCode(id int) {
	ctx, cancel := context.WithTimeout(context.Background(), closeViewTimeout)
	defer cancel()
	_ = e.lua(ctx, nil, `return require('claude.handlers').close_code(...)`, id)
}

// ResolveCode records the user's answer to code proposal id.
func (e *Editor) ResolveCode(id int, allowed bool, code string) {
	e.code.mu.Lock()
	ch := e.code.pending[id]
	e.code.mu.Unlock()
	if ch != nil {
		select {
		case ch <- codeAnswer{allowed, code}:
		default:
		}
	}
}
