package changes

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
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
	for i, n := range notes {
		notes[i] = oneLine(n)
	}
	return []byte(fmt.Sprintf("[claude.nvim] Since your last turn the user reviewed your changes in their editor and reverted: %s%s. "+
		"Do not make these changes again unless the user asks for them.\n", strings.Join(notes, "; "), more))
}

// quoted is a file name as a note (and the user's message) gives it: in double quotes,
// escaped as Go escapes a string (strconv.Quote: a newline, a carriage return, a tab, any
// other control or non-printing character such as U+2028, a quote, a backslash, a byte that
// is not UTF-8). The note goes into the model's context in the plugin's voice; a name is the
// workspace's, which anyone who can write a file chooses, so none may start a line there nor
// end the plugin's sentence and go on as if it were the plugin's (issue 35).
func quoted(name string) string { return strconv.Quote(name) }

// oneLine is a note with whatever could break its line escaped: names are quoted where a note
// is made, but a note kept on disk by an older version holds them raw (loadNotes).
func oneLine(note string) string {
	if utf8.ValidString(note) && strings.IndexFunc(note, func(r rune) bool { return !strconv.IsPrint(r) }) < 0 {
		return note
	}
	q := strconv.Quote(note)
	return q[1 : len(q)-1]
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
