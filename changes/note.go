package changes

import (
	"fmt"
	"strings"
)

// noteLimit bounds the note: it names what was undone, the model can read the files.
const noteLimit = 12

// note remembers what the user undid, for the next prompt in the workspace.
func (r *Recorder) note(ws *workspace, what string) {
	ws.mu.Lock()
	ws.notes = append(ws.notes, what)
	ws.mu.Unlock()
	r.changed(ws)
}

// takeNote is the revert note for a prompt (nil when none, or when turned off), and forgets
// it: one prompt carries it.
func (r *Recorder) takeNote(ws *workspace) []byte {
	r.mu.Lock()
	off := r.opts.NoRevertNote
	r.mu.Unlock()
	ws.mu.Lock()
	notes := ws.notes
	ws.notes = nil
	ws.mu.Unlock()
	if off || len(notes) == 0 {
		return nil
	}
	more := ""
	if len(notes) > noteLimit {
		more = fmt.Sprintf(" (and %d more)", len(notes)-noteLimit)
		notes = notes[len(notes)-noteLimit:]
	}
	return []byte(fmt.Sprintf("[claude.nvim] Since your last turn the user reviewed your changes in their editor and reverted: %s%s. "+
		"Do not make these changes again unless the user asks for them.\n", strings.Join(notes, "; "), more))
}
