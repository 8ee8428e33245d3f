package changes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-nvim/claude.nvim/ledger"
)

// Scopes: besides each turn (the list's default), :ClaudeChanges shows one change at the
// scope the user picks, as one pseudo-turn that opens, reverts and marks like a turn (issue
// 36): the newest session's turns together, everything not committed (HEAD → now), or the
// branch (its merge base → now). The pseudo-turn's id names its scope; "now" is a snapshot
// taken when it is asked for.
const (
	ScopeSession     = "session"
	ScopeUncommitted = "uncommitted"
	ScopeBranch      = "branch"
)

// scopePrefix starts a pseudo-turn's id (no ":" in it: a hunk's key is "turn:path:…").
const scopePrefix = "scope-"

// ErrUnknownScope: not one of the scopes above.
var ErrUnknownScope = errors.New("changes: the scopes are session, uncommitted and branch")

// scopeTurn builds the pseudo-turn of scope in ws (id is its id, the scope from it).
func (ws *workspace) scopeTurn(ctx context.Context, id string) (ledger.Turn, error) {
	scope, _, _ := strings.Cut(strings.TrimPrefix(id, scopePrefix), "-")
	if !ws.store.Repository() {
		return ledger.Turn{}, fmt.Errorf("changes: the %s scope needs a git work tree (here only the files Claude's tools named are recorded)", scope)
	}
	switch scope {
	case ScopeSession:
		return ws.sessionTurn(ctx, id)
	case ScopeUncommitted, ScopeBranch:
		var before ledger.Tree
		var err error
		prompt := "everything not committed (HEAD → now)"
		if scope == ScopeUncommitted {
			before, err = ws.store.HeadTree(ctx)
		} else {
			var against string
			before, against, err = ws.store.BranchBase(ctx)
			prompt = fmt.Sprintf("the branch (its merge base with %s → now)", against)
		}
		if err != nil {
			return ledger.Turn{}, err
		}
		after, large, err := ws.store.SnapshotNow(ctx)
		if err != nil {
			return ledger.Turn{}, err
		}
		return ledger.Turn{ID: scopePrefix + scope, Prompt: prompt, Before: before, After: after, LargeAfter: large}, nil
	}
	return ledger.Turn{}, ErrUnknownScope
}

// sessionTurn is the newest session's ended turns as one: the first one's before, the last
// one's after.
func (ws *workspace) sessionTurn(ctx context.Context, id string) (ledger.Turn, error) {
	turns, err := ws.store.Turns()
	if err != nil {
		return ledger.Turn{}, err
	}
	// "scope-session-ID" names a session; "scope-session" the newest one's.
	session, named := strings.CutPrefix(id, scopePrefix+ScopeSession+"-")
	if !named {
		session = ""
		for i := len(turns) - 1; i >= 0 && session == ""; i-- {
			session = turns[i].Session
		}
	}
	var first, last *ledger.Turn
	n := 0
	for i := range turns {
		if turns[i].Session != session || turns[i].After == "" {
			continue
		}
		if first == nil {
			first = &turns[i]
		}
		last = &turns[i]
		n++
	}
	if first == nil {
		return ledger.Turn{}, fmt.Errorf("%w: no ended turn of a session here", ledger.ErrNoTurn)
	}
	return ledger.Turn{
		ID: scopePrefix + ScopeSession + "-" + session, Session: session, Source: last.Source,
		Prompt:  fmt.Sprintf("the session's %d turns, from %q", n, firstLine(first.Prompt)),
		Started: first.Started, Ended: last.Ended, Before: first.Before, After: last.After,
		LargeBefore: first.LargeBefore, LargeAfter: last.LargeAfter,
	}, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// listScope is List for a scope: its one pseudo-turn.
func (r *Recorder) listScope(ctx context.Context, ws *workspace, scope string) (Listing, error) {
	switch scope {
	case ScopeSession, ScopeUncommitted, ScopeBranch:
	default:
		return Listing{}, ErrUnknownScope
	}
	t, err := ws.scopeTurn(ctx, scopePrefix+scope)
	if err != nil {
		return Listing{}, err
	}
	files, err := ws.files(ctx, t)
	if err != nil {
		return Listing{}, err
	}
	if files, err = ws.withReverted(ctx, t, files); err != nil {
		return Listing{}, err
	}
	l := Listing{Root: ws.store.Root(), Repository: true, Scope: scope, Trouble: r.TroubleOf(ws.store.Root())}
	l.Turns = []Turn{{ID: t.ID, Started: t.Started.Unix(), Prompt: t.Prompt, Source: t.Source, Files: files}}
	return l, nil
}
