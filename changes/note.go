package changes

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// noteName is the file, in the store's private directory (0600), that keeps the revert note
// until a prompt carries it: a Neovim restarted before the next prompt still sends it.
const noteName = "revert-note.json"

// noteLimit bounds the note: it names what was undone, the model can read the files.
const noteLimit = 12

// note remembers what the user undid, for the next prompt in the workspace.
func (r *Recorder) note(ws *workspace, what string) {
	ws.mu.Lock()
	ws.notes = append(ws.notes, what)
	err := ws.saveNotes()
	ws.mu.Unlock()
	if err != nil {
		r.log.Warn("changes: keeping the revert note", "root", ws.store.Root(), "err", err)
	}
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
	err := ws.saveNotes()
	ws.mu.Unlock()
	if err != nil {
		r.log.Warn("changes: dropping the delivered revert note", "root", ws.store.Root(), "err", err)
	}
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

// saveNotes writes ws.notes (ws.mu held, so that writes keep the order of the changes),
// renaming a complete file in; no notes, no file.
func (ws *workspace) saveNotes() error {
	path := filepath.Join(ws.store.Dir(), noteName)
	if len(ws.notes) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(ws.notes)
	if err != nil {
		return err
	}
	return ws.store.WriteFile(noteName, data)
}

// loadNotes reads the note an earlier Neovim kept and did not deliver.
func (ws *workspace) loadNotes() {
	data, err := os.ReadFile(filepath.Join(ws.store.Dir(), noteName))
	if err != nil {
		return
	}
	var notes []string
	if json.Unmarshal(data, &notes) != nil {
		return // a damaged file costs only the note
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.notes = append(notes, ws.notes...)
}
