package nvimapi

import (
	"path/filepath"
	"sync"
)

// takenBackNotes hold, per terminal session and file, what the model is to be told of the
// hunks the user took back with a reason (mcp.TakenBackNote) until the CLI's PostToolUse of
// that edit collects it (Editor.TakenBackNote). A note not collected (the CLI wrote nothing:
// every hunk taken back reads as a rejection) is replaced by the next accepted review of the
// file, so at most one per file and session is ever held.
type takenBackNotes struct {
	mu sync.Mutex
	m  map[noteKey]string
}

type noteKey struct {
	session int
	path    string
}

func (n *takenBackNotes) put(session int, path, note string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil {
		n.m = map[noteKey]string{}
	}
	n.m[noteKey{session, filepath.Clean(path)}] = note
}

// TakenBackNote returns, once, the note of session's last accepted review of path that had
// hunks taken back with a reason; "" for none.
func (e *Editor) TakenBackNote(session int, path string) string {
	n := &e.notes
	n.mu.Lock()
	defer n.mu.Unlock()
	k := noteKey{session, filepath.Clean(path)}
	note := n.m[k]
	delete(n.m, k)
	return note
}
