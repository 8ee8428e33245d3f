package nvimapi

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// The language-server tools' questions. A question is one ExecLua that
// returns at once: lua/claude/lsp sends the requests asynchronously and
// answers later through ClaudeHostLSPDone (the host calls LSPDone), so
// neither the editor nor this call waits on a server. Lua bounds the
// servers by the timeout it is given; the wait here only adds a margin
// for an editor too busy to answer at all.

// DefaultLSPTimeout is how long the servers get to answer one question.
const DefaultLSPTimeout = 15 * time.Second

// lspAnswerMargin is how much longer than the servers' time this side
// waits for Lua's answer before it gives up on it.
const lspAnswerMargin = 5 * time.Second

// cancelLSPTimeout bounds telling Lua a question was dropped.
const cancelLSPTimeout = 5 * time.Second

// lspQuestions are the questions waiting for Lua's answer, by id.
type lspQuestions struct {
	mu      sync.Mutex
	next    int
	waiting map[int]chan LSPReply
	timeout time.Duration
}

func (qs *lspQuestions) add() (int, chan LSPReply) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if qs.waiting == nil {
		qs.waiting = map[int]chan LSPReply{}
	}
	qs.next++
	ch := make(chan LSPReply, 1)
	qs.waiting[qs.next] = ch
	return qs.next, ch
}

func (qs *lspQuestions) drop(id int) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	delete(qs.waiting, id)
}

// SetLSPTimeout sets how long the language servers get to answer one
// question (DefaultLSPTimeout when never set; tests shorten it).
func (e *Editor) SetLSPTimeout(d time.Duration) {
	e.lspq.mu.Lock()
	defer e.lspq.mu.Unlock()
	e.lspq.timeout = d
}

func (e *Editor) lspTimeout() time.Duration {
	e.lspq.mu.Lock()
	defer e.lspq.mu.Unlock()
	if e.lspq.timeout > 0 {
		return e.lspq.timeout
	}
	return DefaultLSPTimeout
}

// LSPDone takes Lua's answer to question id (ClaudeHostLSPDone); an
// answer nobody waits for any more is dropped.
func (e *Editor) LSPDone(id int, r LSPReply) {
	e.lspq.mu.Lock()
	ch := e.lspq.waiting[id]
	e.lspq.mu.Unlock()
	if ch != nil {
		select {
		case ch <- r:
		default:
		}
	}
}

// AskLSP asks the language servers attached to q.Path (see
// mcp.LanguageServers).
func (e *Editor) AskLSP(ctx context.Context, q mcp.LSPQuery) (mcp.LSPAnswer, error) {
	timeout := e.lspTimeout()
	id, ch := e.lspq.add()
	defer e.lspq.drop(id)
	question := map[string]any{
		"op": q.Op, "path": q.Path, "line": q.Line, "column": q.Column, "symbol": q.Symbol,
		"end_line": q.EndLine, "query": q.Query, "new_name": q.NewName,
		"include_declaration": q.IncludeDeclaration, "limit": q.Limit,
	}
	var now *LSPReply
	if err := e.lua(ctx, &now, `return require('claude.handlers').ask_lsp(...)`, id, question, timeout.Milliseconds()); err != nil {
		// Given up while Neovim was asking (ctx ended before its answer was read): the
		// question may be on its way all the same.
		e.cancelLSP(id)
		return mcp.LSPAnswer{}, luaError(err)
	}
	if now != nil {
		return now.answer(), nil
	}
	wait := time.NewTimer(timeout + lspAnswerMargin)
	defer wait.Stop()
	select {
	case r := <-ch:
		return r.answer(), nil
	case <-wait.C:
		e.cancelLSP(id)
		return mcp.LSPAnswer{Problem: fmt.Sprintf("The editor gave no answer within %s (it may be busy); nothing was asked of it after that.", timeout+lspAnswerMargin)}, nil
	case <-ctx.Done():
		e.cancelLSP(id)
		return mcp.LSPAnswer{}, ctx.Err()
	}
}

// cancelLSP tells Lua to drop question id, without waiting for it.
func (e *Editor) cancelLSP(id int) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cancelLSPTimeout)
		defer cancel()
		_ = e.lua(ctx, nil, `return require('claude.handlers').cancel_lsp(...)`, id)
	}()
}

// LSPPlace is a place as lua/claude/lsp sends it.
type LSPPlace struct {
	Path string `msgpack:"path"`
	Line int    `msgpack:"line"`
	Col  int    `msgpack:"col"`
	Text string `msgpack:"text"`
}

func (p LSPPlace) location() mcp.LSPLocation {
	return mcp.LSPLocation{Path: p.Path, Line: p.Line, Column: p.Col, Text: p.Text}
}

// LSPReply is lua/claude/lsp's answer to one question (ask_lsp's return
// value, or ClaudeHostLSPDone's argument).
type LSPReply struct {
	Problem   string     `msgpack:"problem"`
	Target    *LSPPlace  `msgpack:"target"`
	Symbol    string     `msgpack:"symbol"`
	Servers   []string   `msgpack:"servers"`
	Failures  []string   `msgpack:"failures"`
	Locations []LSPPlace `msgpack:"locations"`
	Total     int        `msgpack:"total"`
	Hover     string     `msgpack:"hover"`
	Symbols   []struct {
		Name      string   `msgpack:"name"`
		Kind      string   `msgpack:"kind"`
		Detail    string   `msgpack:"detail"`
		Container string   `msgpack:"container"`
		Depth     int      `msgpack:"depth"`
		Place     LSPPlace `msgpack:"place"`
	} `msgpack:"symbols"`
	Calls []struct {
		Name   string     `msgpack:"name"`
		Kind   string     `msgpack:"kind"`
		Detail string     `msgpack:"detail"`
		Place  LSPPlace   `msgpack:"place"`
		Sites  []LSPPlace `msgpack:"sites"`
	} `msgpack:"calls"`
	Actions []struct {
		Title     string `msgpack:"title"`
		Kind      string `msgpack:"kind"`
		Preferred bool   `msgpack:"preferred"`
		Disabled  string `msgpack:"disabled"`
	} `msgpack:"actions"`
	Files []struct {
		Path     string `msgpack:"path"`
		Text     string `msgpack:"text"`
		Outside  bool   `msgpack:"outside"`
		Encoding string `msgpack:"encoding"`
		Edits    []struct {
			SL   int    `msgpack:"sl"`
			SC   int    `msgpack:"sc"`
			EL   int    `msgpack:"el"`
			EC   int    `msgpack:"ec"`
			Text string `msgpack:"text"`
		} `msgpack:"edits"`
	} `msgpack:"files"`
	Refused string `msgpack:"refused"`
}

func (r LSPReply) answer() mcp.LSPAnswer {
	a := mcp.LSPAnswer{
		Problem: r.Problem, Symbol: r.Symbol, Servers: r.Servers, Failures: r.Failures,
		Total: r.Total, Hover: r.Hover, Refused: r.Refused,
	}
	if r.Target != nil {
		t := r.Target.location()
		a.Target = &t
	}
	for _, l := range r.Locations {
		a.Locations = append(a.Locations, l.location())
	}
	for _, s := range r.Symbols {
		a.Symbols = append(a.Symbols, mcp.LSPSymbol{Name: s.Name, Kind: s.Kind, Detail: s.Detail, Container: s.Container, Depth: s.Depth, Location: s.Place.location()})
	}
	for _, c := range r.Calls {
		call := mcp.LSPCall{Name: c.Name, Kind: c.Kind, Detail: c.Detail, Location: c.Place.location()}
		for _, s := range c.Sites {
			call.Sites = append(call.Sites, s.location())
		}
		a.Calls = append(a.Calls, call)
	}
	for _, x := range r.Actions {
		a.Actions = append(a.Actions, mcp.LSPAction{Title: x.Title, Kind: x.Kind, Preferred: x.Preferred, Disabled: x.Disabled})
	}
	for _, f := range r.Files {
		fe := mcp.LSPFileEdit{Path: f.Path, Text: f.Text, Outside: f.Outside, Encoding: f.Encoding}
		for _, e := range f.Edits {
			fe.Edits = append(fe.Edits, mcp.LSPTextEdit{StartLine: e.SL, StartChar: e.SC, EndLine: e.EL, EndChar: e.EC, NewText: e.Text})
		}
		a.Files = append(a.Files, fe)
	}
	return a
}
