package nvimapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// closeViewTimeout bounds closing a diff view after its request ended
// (client gone, cancelled): the editor may be busy, but not for long.
const closeViewTimeout = 10 * time.Second

// errIsDirectory refuses an openDiff of a directory.
var errIsDirectory = errors.New("is a directory, not a file")

// A proposal has two owners, each of its own half. Go (this file) owns the
// request: the openDiff call waiting for an answer, found by id or by the
// CLI's tab name, and its answer (the first decision wins). Lua
// (lua/claude/diff/init.lua) owns the view: windows, buffers, keymaps, waiting
// while the user types, found by the same id. Go never touches a window; Lua
// never answers the CLI: it reports the user's decision (ClaudeHostDiffDone
// -> ResolveDiff). What waits for an answer, as :ClaudeStatus lists it, is
// therefore Go's (PendingDiffs).

// pendingDiff is one proposal waiting for the user.
type pendingDiff struct {
	id      int
	session int // whose CLI asked (SessionEditor); 0 for none (the chat)
	tabName string
	path    string              // the file it changes
	result  chan mcp.DiffResult // buffered: the first decision wins
}

// tabKey names a proposal as its CLI does: two CLIs (sessions) may use
// the same tab name for the same file, and must not replace each other's.
type tabKey struct {
	session int
	tabName string
}

func (d *pendingDiff) decide(r mcp.DiffResult) {
	select {
	case d.result <- r:
	default:
	}
}

// diffs tracks pending proposals by id (what the Lua view knows) and by
// tab name (what the CLI refers to).
type diffs struct {
	mu    sync.Mutex
	next  int
	byID  map[int]*pendingDiff
	byTab map[tabKey]*pendingDiff
}

func newDiffs() diffs {
	return diffs{byID: map[int]*pendingDiff{}, byTab: map[tabKey]*pendingDiff{}}
}

// add registers a proposal; a pending one under the same tab name is
// returned so the caller can reject and close it (the newer replaces it).
func (ds *diffs) add(session int, tabName, path string) (d, replaced *pendingDiff) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ds.next++
	d = &pendingDiff{id: ds.next, session: session, tabName: tabName, path: path, result: make(chan mcp.DiffResult, 1)}
	if tabName == "" {
		d.tabName = fmt.Sprintf("claude-diff-%d", d.id)
	}
	replaced = ds.byTab[d.key()]
	if replaced != nil {
		delete(ds.byID, replaced.id)
	}
	ds.byID[d.id] = d
	ds.byTab[d.key()] = d
	return d, replaced
}

func (d *pendingDiff) key() tabKey { return tabKey{d.session, d.tabName} }

// remove unregisters d if it is still registered and reports whether it was.
func (ds *diffs) remove(d *pendingDiff) bool {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.byID[d.id] != d {
		return false
	}
	delete(ds.byID, d.id)
	if ds.byTab[d.key()] == d {
		delete(ds.byTab, d.key())
	}
	return true
}

// registered reports whether d is still waiting for a decision.
func (ds *diffs) registered(d *pendingDiff) bool {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return ds.byID[d.id] == d
}

func (ds *diffs) byIDTake(id int) *pendingDiff {
	ds.mu.Lock()
	d := ds.byID[id]
	ds.mu.Unlock()
	if d != nil && ds.remove(d) {
		return d
	}
	return nil
}

func (ds *diffs) byTabTake(session int, tab string) *pendingDiff {
	ds.mu.Lock()
	d := ds.byTab[tabKey{session, tab}]
	ds.mu.Unlock()
	if d != nil && ds.remove(d) {
		return d
	}
	return nil
}

// takeSession takes every proposal of one session.
func (ds *diffs) takeSession(session int) []*pendingDiff {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	var taken []*pendingDiff
	for id, d := range ds.byID {
		if d.session == session {
			taken = append(taken, d)
			delete(ds.byID, id)
			delete(ds.byTab, d.key())
		}
	}
	return taken
}

// PendingDiffs returns the tab names of the proposals of one session still
// waiting for an answer (for :ClaudeStatus).
func (e *Editor) PendingDiffs(session int) []string {
	e.diffs.mu.Lock()
	defer e.diffs.mu.Unlock()
	names := []string{}
	for key := range e.diffs.byTab {
		if key.session == session {
			names = append(names, key.tabName)
		}
	}
	return names
}

// proposal is the new text as Neovim wants it: lines without separators,
// plus whether the file ends in a newline and uses CRLF.
type proposal struct {
	Lines []string `msgpack:"lines"`
	EOL   bool     `msgpack:"eol"`
	DOS   bool     `msgpack:"dos"`
}

// splitProposal turns file contents into buffer lines. It is done here
// rather than in Lua so a multi-megabyte proposal crosses the RPC pipe
// once, as the list nvim_buf_set_lines takes.
func splitProposal(text string) proposal {
	p := proposal{EOL: strings.HasSuffix(text, "\n")}
	p.Lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	// Lines followed by a newline decide the format: CRLF if all end in \r.
	terminated := len(p.Lines)
	if !p.EOL {
		terminated--
	}
	if terminated == 0 {
		return p
	}
	for _, l := range p.Lines[:terminated] {
		if !strings.HasSuffix(l, "\r") {
			return p
		}
	}
	p.DOS = true
	for i := range p.Lines[:terminated] {
		p.Lines[i] = strings.TrimSuffix(p.Lines[i], "\r")
	}
	return p
}

// OpenDiff shows the proposal beside the file and waits for the user. It
// belongs to no session: the chat's reviews come this way.
func (e *Editor) OpenDiff(ctx context.Context, req mcp.DiffRequest) (mcp.DiffResult, error) {
	return e.openDiff(ctx, 0, req)
}

func (e *Editor) openDiff(ctx context.Context, session int, req mcp.DiffRequest) (mcp.DiffResult, error) {
	big := len(req.NewContents) >= bigProposal
	d, err := e.showDiff(ctx, session, req)
	if err != nil {
		return mcp.DiffResult{}, err
	}
	if big {
		// The proposal is in Neovim now; what the host read and sent it as is garbage, but
		// the runtime would collect it only when the heap next grows and give it back
		// slowly after that: the host held 15 MiB while a 1 MiB proposal was shown and
		// until it closed. req is dead past showDiff, and the caller's copy too
		// (mcp's openDiff keeps only the names).
		e.mu.Lock()
		after := e.afterBig
		e.mu.Unlock()
		if after == nil {
			after = debug.FreeOSMemory
		}
		go after()
	}
	return e.waitDiff(ctx, d)
}

// bigProposal: a proposal this large makes the host give its memory back once it shows.
const bigProposal = 1 << 20

// shownDiff is a proposal on screen (or waiting for the user to go to
// it), not yet decided.
type shownDiff struct {
	*pendingDiff
	newFile bool // the target did not exist when the view opened
}

// showDiff opens the view of a proposal and returns without waiting for
// the user (waitDiff waits).
func (e *Editor) showDiff(ctx context.Context, session int, req mcp.DiffRequest) (*shownDiff, error) {
	target := req.NewPath
	if target == "" {
		target = req.OldPath
	}
	for _, path := range []string{target, req.OldPath} {
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			// Neither side can be shown as a buffer; refuse before any
			// view or buffer exists.
			return nil, errIsDirectory
		}
	}
	d, replaced := e.diffs.add(session, req.TabName, target)
	if replaced != nil {
		// The CLI sent the same tab again: the old request is answered
		// as rejected and its view makes room for the new one.
		replaced.decide(mcp.DiffResult{Outcome: mcp.DiffRejected})
		e.closeView(ctx, replaced.id)
	}
	_, statErr := os.Stat(target)
	newFile := errors.Is(statErr, fs.ErrNotExist)
	p := splitProposal(req.NewContents)
	spec := map[string]any{
		"old_path": req.OldPath,
		"new_path": target,
		"tab_name": d.tabName,
		"eol":      p.EOL,
		"dos":      p.DOS,
	}
	if req.Of > 1 {
		spec["place"], spec["of"] = req.Place, req.Of // one of several edits of a message
	}
	if session > 0 {
		spec["session"] = session // its view opens in the session's tab page
		e.mu.Lock()
		editPlace := e.editPlace
		e.mu.Unlock()
		if editPlace != nil {
			if place, of := editPlace(session, target); of > 1 {
				spec["place"], spec["of"] = place, of // one of several edits of a message
			}
		}
	}
	staged, err := e.stageProposal(ctx, d.id, p.Lines)
	if staged {
		spec["staged"] = true // the lines are in Neovim already
	} else if err == nil {
		spec["lines"] = p.Lines
	}
	if err == nil {
		err = e.lua(ctx, nil, `return require('claude.handlers').open_diff(...)`, d.id, spec)
	}
	if err != nil {
		e.diffs.remove(d)
		e.closeView(context.Background(), d.id)
		return nil, luaError(err) // the tool names the path
	}
	if !e.diffs.registered(d) {
		// close_tab, closeAllDiffTabs or a newer diff of the same tab came
		// while the view was being opened, and found nothing to close yet.
		e.closeView(ctx, d.id)
	}
	return &shownDiff{pendingDiff: d, newFile: newFile}, nil
}

// waitDiff waits for the user's decision on d, or for ctx's end (then the
// view goes and nothing is written).
func (e *Editor) waitDiff(ctx context.Context, d *shownDiff) (mcp.DiffResult, error) {
	select {
	case r := <-d.result:
		r.NewFile = d.newFile
		return r, nil
	case <-ctx.Done():
		// The client went away or cancelled: the view goes, the file stays.
		if e.diffs.remove(d.pendingDiff) {
			e.closeView(context.Background(), d.id)
		}
		return mcp.DiffResult{}, ctx.Err()
	}
}

// ResolveDiff records the user's decision on the diff with this id (the
// Lua view reports it); accepted carries the final text of the proposal and
// the hunks taken back with a reason. A terminal session's reasons wait for
// its CLI's PostToolUse of that file (TakenBackNote): the CLI writes its own
// tool result and has no room in it for them. The chat's go with its
// answer (chatctl). A rejection's reason (rejected, may be empty) goes to the chat with
// the result, and waits for a terminal session's next prompt (RejectedNote): a rejection
// stops the CLI's turn, so the model reads nothing before it.
func (e *Editor) ResolveDiff(id int, accepted bool, text string, taken []mcp.TakenBack, rejected string) {
	d := e.diffs.byIDTake(id)
	if d == nil {
		return
	}
	if accepted {
		if d.session > 0 && len(taken) > 0 {
			e.notes.put(d.session, d.path, mcp.TakenBackNote(d.path, taken))
		}
		d.decide(mcp.DiffResult{Outcome: mcp.DiffAccepted, FinalText: text, TakenBack: taken})
	} else {
		if note := mcp.RejectedNote(d.path, rejected); d.session > 0 && note != "" {
			e.notes.putRejected(d.session, note)
		}
		d.decide(mcp.DiffResult{Outcome: mcp.DiffRejected, Reason: strings.TrimSpace(rejected)})
	}
}

// CloseDiff closes the view of tabName. A pending proposal there was
// decided in the CLI's own prompt: it is answered as rejected, which the
// CLI ignores by then, and nothing is written.
func (e *Editor) CloseDiff(ctx context.Context, tabName string) (bool, error) {
	return e.closeDiff(ctx, 0, tabName)
}

func (e *Editor) closeDiff(ctx context.Context, session int, tabName string) (bool, error) {
	d := e.diffs.byTabTake(session, tabName)
	if d == nil {
		return false, nil
	}
	// The pending openDiff is answered once Neovim has answered: waking it first put its
	// answer's encoding and writing, and the client reading it, beside close_tab's round
	// trip on the CPUs Neovim's tear-down then takes.
	defer d.decide(mcp.DiffResult{Outcome: mcp.DiffRejected})
	// The view leaves Neovim's list now and its windows and buffers go on the next turn of
	// Neovim's loop, after this answer: the CLI waits for close_tab, not for the tear-down.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeViewTimeout)
	defer cancel()
	if err := e.lua(ctx, nil, `return require('claude.handlers').close_diff_later(...)`, d.id); err != nil {
		return true, luaError(err)
	}
	return true, nil
}

// CloseAllDiffs closes the diff views of no session (the chat's) and
// rejects what was pending there.
func (e *Editor) CloseAllDiffs(ctx context.Context) (int, error) {
	return e.closeAllDiffs(ctx, 0)
}

// closeAllDiffs closes one session's diff views: a CLI's closeAllDiffTabs
// never closes another's.
func (e *Editor) closeAllDiffs(ctx context.Context, session int) (int, error) {
	for _, d := range e.diffs.takeSession(session) {
		d.decide(mcp.DiffResult{Outcome: mcp.DiffRejected})
	}
	var closed int
	if err := e.lua(ctx, &closed, `return require('claude.handlers').close_diffs(...)`, session); err != nil {
		return 0, luaError(err)
	}
	return closed, nil
}

// closeView closes one diff view without reporting a decision.
func (e *Editor) closeView(ctx context.Context, id int) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeViewTimeout)
	defer cancel()
	if err := e.lua(ctx, nil, `return require('claude.handlers').close_diff(...)`, id); err != nil {
		return luaError(err)
	}
	return nil
}
