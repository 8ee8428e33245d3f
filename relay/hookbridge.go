package relay

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// Hook events over the link (issue 41). The relay runs a hooks.Receiver
// there, in a private directory with the --settings file whose hooks run
// this binary in -hook mode; each event it reads (bounded as for a local
// CLI) crosses as one kindHook frame and waits for the host's kindHookReply,
// which is what the hook prints. A host that does not answer in time, or a
// link that ends, leaves the hook answered empty: a hook never stops Claude.

// maxHostHooks bounds the events the host handles at once for one link; an
// event past it is answered empty at once.
const maxHostHooks = 16

// hookTimeout bounds the host's handling of one event (hooks' own is 50 s).
const hookTimeout = 50 * time.Second

// hookBridge is the relay's end: it sends events and hands replies back.
type hookBridge struct {
	m    *mux
	next atomic.Uint32

	mu      sync.Mutex
	waiting map[uint32]chan []byte
}

func (b *hookBridge) handle(ctx context.Context, e hooks.Event) hooks.Reply {
	payload, err := json.Marshal(e)
	if err == nil && len(payload) > MaxPayload {
		// A Write's whole content: the host needs the tool's paths only.
		e.ToolInput = pathsOnly(e.ToolInput)
		payload, err = json.Marshal(e)
	}
	if err != nil || len(payload) > MaxPayload {
		return hooks.Reply{}
	}
	id := b.next.Add(1)
	ch := make(chan []byte, 1)
	b.mu.Lock()
	b.waiting[id] = ch
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.waiting, id)
		b.mu.Unlock()
	}()
	if b.m.send(frame{conn: id, kind: kindHook, payload: payload}) != nil {
		return hooks.Reply{}
	}
	select {
	case out := <-ch:
		return hooks.Reply{Stdout: out}
	case <-ctx.Done():
		return hooks.Reply{}
	}
}

// reply hands the host's answer to the event waiting for it, if any.
func (b *hookBridge) reply(id uint32, out []byte) {
	b.mu.Lock()
	ch := b.waiting[id]
	b.mu.Unlock()
	if ch != nil {
		select {
		case ch <- out:
		default:
		}
	}
}

// pathsOnly keeps a tool input's path members.
func pathsOnly(in json.RawMessage) json.RawMessage {
	var all map[string]json.RawMessage
	if json.Unmarshal(in, &all) != nil {
		return nil
	}
	kept := map[string]json.RawMessage{}
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if v, ok := all[k]; ok && len(v) < 8<<10 {
			kept[k] = v
		}
	}
	out, _ := json.Marshal(kept)
	return out
}

// listenHooks starts the receiver there and writes the settings file
// beside its socket; the hooks run this binary. An error leaves the relay
// without hooks (logged): the CLI works without them.
func listenHooks(b *hookBridge, log *slog.Logger) (*hooks.Receiver, string) {
	exe, err := os.Executable()
	if err != nil {
		log.Warn("relay: no hooks", "err", err)
		return nil, ""
	}
	var r *hooks.Receiver
	for _, parent := range []string{os.Getenv("XDG_RUNTIME_DIR"), os.TempDir(), "/tmp"} {
		if parent == "" {
			continue
		}
		if r, err = hooks.Listen(parent, b.handle, log); err == nil {
			break
		}
	}
	if r == nil {
		log.Warn("relay: no hooks", "err", err)
		return nil, ""
	}
	data, err := hooks.Settings(exe, r.Socket())
	file := filepath.Join(filepath.Dir(r.Socket()), "settings.json")
	if err == nil {
		err = os.WriteFile(file, data, 0o600)
	}
	if err != nil {
		log.Warn("relay: no hooks", "err", err)
		r.Close()
		return nil, ""
	}
	return r, file
}
