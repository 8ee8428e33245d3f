package nvimapi

import (
	"path/filepath"
	"strings"
	"sync"
)

// takenBackNotes hold, per terminal session and file, what the model is to be told of the
// hunks the user took back with a reason (mcp.TakenBackNote) until the CLI's PostToolUse of
// that edit collects it (Editor.TakenBackNote). A note not collected (the CLI wrote nothing:
// every hunk taken back reads as a rejection) is replaced by the next accepted review of the
// file, so at most one per file and session is ever held.
type takenBackNotes struct {
	mu       sync.Mutex
	m        map[noteKey]string
	rejected map[int][]string // per terminal session, the reasons for rejections not yet told
}

// maxRejectedNotes bounds the reasons held for one session: rejections the user explained
// without ever prompting again (the oldest go first).
const maxRejectedNotes = 16

func (n *takenBackNotes) putRejected(session int, note string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.rejected == nil {
		n.rejected = map[int][]string{}
	}
	held := append(n.rejected[session], note)
	if len(held) > maxRejectedNotes {
		held = held[len(held)-maxRejectedNotes:]
	}
	n.rejected[session] = held
}

// RejectedNote returns, once, what the model of terminal session is to be told of the
// proposals the user rejected saying why since its last prompt; "" for none.
func (e *Editor) RejectedNote(session int) string {
	n := &e.notes
	n.mu.Lock()
	defer n.mu.Unlock()
	held := n.rejected[session]
	delete(n.rejected, session)
	return strings.Join(held, "\n")
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
