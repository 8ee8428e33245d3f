package host

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// editPlaces knows, for each terminal session, where the edit its CLI is about to run stands
// among the edits of the model's message (hooks.EditPlace): the CLI asks about (and has
// reviewed) a message's edits one after the other, and the winbar of each review says "2 of
// 3". The edit's PreToolUse hook comes before its openDiff (the CLI waits for the hook), but
// the CLI may start a message's first tool before that message is in its transcript (seen
// with 2.1.332): a place not found then is looked for again when the review opens.
type editPlaces struct {
	log  *slog.Logger
	mu   sync.Mutex // guards last
	last map[int]editPlace
}

// editPlace is one edit's place among its message's (of is 0 while not known).
type editPlace struct {
	path, transcript, toolUseID string
	place, of                   int
}

// hook is the hook bus's handler: a terminal CLI's PreToolUse of a reviewed tool notes the
// edit, and its place when the transcript has it already.
func (p *editPlaces) hook(ctx context.Context, e hooks.Event) hooks.Reply {
	session, ok := terminalSession(e.Origin)
	if !ok || e.Name != hooks.PreToolUse || !hooks.Reviewed(e.ToolName) || e.FilePath() == "" {
		return hooks.Reply{}
	}
	edit := editPlace{path: filepath.Clean(e.FilePath()), transcript: e.TranscriptPath, toolUseID: e.ToolUseID}
	edit.find(p.log, session)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last == nil {
		p.last = map[int]editPlace{}
	}
	p.last[session] = edit
	return hooks.Reply{}
}

// find reads the edit's place from the transcript (its tail: hooks.EditPlace).
func (edit *editPlace) find(log *slog.Logger, session int) {
	place, of, err := hooks.EditPlace(edit.transcript, edit.toolUseID)
	log.Debug("review: edit place", "session", session, "tool_use_id", edit.toolUseID, "place", place, "of", of, "err", err)
	if err == nil {
		edit.place, edit.of = place, of
	}
}

// of answers nvimapi.Editor's question for a review of path in session, as it opens: its
// place and how many edits its message has; 0, 0 when not known. It may read the transcript
// (the openDiff's goroutine waits, never Neovim).
func (p *editPlaces) of(session int, path string) (int, int) {
	p.mu.Lock()
	edit, ok := p.last[session]
	p.mu.Unlock()
	if !ok || edit.path != filepath.Clean(path) {
		return 0, 0
	}
	if edit.of == 0 {
		edit.find(p.log, session)
		p.mu.Lock()
		if cur, ok := p.last[session]; ok && cur.toolUseID == edit.toolUseID {
			p.last[session] = edit
		}
		p.mu.Unlock()
	}
	return edit.place, edit.of
}

// terminalSession is the session number of a terminal's origin ("terminal:N").
func terminalSession(origin string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(origin, "terminal:"))
	return n, err == nil && strings.HasPrefix(origin, "terminal:") && n > 0
}

// takenBackHook gives a terminal CLI's model, with the result of an edit the user reviewed,
// why the user took hunks of it back (nvimapi.Editor.TakenBackNote): the CLI's own tool
// result only says the user modified the proposal, and a PostToolUse hook's additionalContext
// is the one way into the model's context beside it (2.1.332: a <system-reminder> after the
// tool result, in the same request).
func (h *Host) takenBackHook(_ context.Context, e hooks.Event) hooks.Reply {
	session, ok := terminalSession(e.Origin)
	if !ok || e.Name != hooks.PostToolUse || !hooks.Reviewed(e.ToolName) || e.FilePath() == "" || h.editor == nil {
		return hooks.Reply{}
	}
	note := h.editor.TakenBackNote(session, e.FilePath())
	if note == "" {
		return hooks.Reply{}
	}
	out, err := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": hooks.PostToolUse, "additionalContext": note,
	}})
	if err != nil {
		return hooks.Reply{}
	}
	return hooks.Reply{Stdout: out}
}

// rejectedHook gives a terminal CLI's model, with the user's next prompt, why they rejected
// proposals since the last (nvimapi.Editor.RejectedNote): a rejection stops the CLI's turn, so
// that prompt is the first the model reads after it; a UserPromptSubmit hook's output is added
// to its context beside the prompt.
func (h *Host) rejectedHook(_ context.Context, e hooks.Event) hooks.Reply {
	session, ok := terminalSession(e.Origin)
	if !ok || e.Name != hooks.UserPromptSubmit || h.editor == nil {
		return hooks.Reply{}
	}
	note := h.editor.RejectedNote(session)
	if note == "" {
		return hooks.Reply{}
	}
	return hooks.Reply{Stdout: []byte(note)}
}
