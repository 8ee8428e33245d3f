package host

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/relay"
)

// Hook events of a remote CLI (issue 41): they come over the relay
// (relay/hookbridge.go) and join the hook bus as the local CLIs' do, with
// the origin "remote:NAME" and their paths mapped to the editor's. A path
// outside the remote's map is dropped, never passed on: the ledger and the
// other subscribers only ever see files of the map (a hostile remote names
// what it likes), and the transcript, a file there, is not read here.

// remoteHook handles one event of remote r's CLI; it returns what the
// hook prints there.
func (h *Host) remoteHook(r *remote) func(context.Context, []byte) []byte {
	return func(ctx context.Context, data []byte) []byte {
		var e hooks.Event
		if err := json.Unmarshal(data, &e); err != nil || e.Name == "" {
			h.log.Debug("remote hook: bad event", "remote", r.name, "err", err)
			return nil
		}
		e.Origin = "remote:" + r.name
		e.Cwd = localOrEmpty(r.paths, e.Cwd)
		e.TranscriptPath = ""
		e.ToolInput = localToolInput(r.paths, e.ToolInput)
		return h.hookBus.handle(ctx, e).Stdout
	}
}

func localOrEmpty(m *relay.Map, remote string) string {
	if remote == "" {
		return ""
	}
	local, err := m.ToLocal(remote)
	if err != nil {
		return ""
	}
	return local
}

// localToolInput maps a tool input's path members; one outside the map
// (or relative) is removed.
func localToolInput(m *relay.Map, in json.RawMessage) json.RawMessage {
	var all map[string]json.RawMessage
	if len(in) == 0 || json.Unmarshal(in, &all) != nil {
		return in
	}
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		raw, ok := all[k]
		if !ok {
			continue
		}
		var p string
		if json.Unmarshal(raw, &p) != nil || !filepath.IsAbs(p) {
			delete(all, k)
			continue
		}
		local, err := m.ToLocal(p)
		if err != nil {
			delete(all, k)
			continue
		}
		all[k], _ = json.Marshal(local)
	}
	out, err := json.Marshal(all)
	if err != nil {
		return nil
	}
	return out
}

// remoteFolders are remote name's local directories (the ledger's roots
// for its events).
func (h *Host) remoteFolders(name string) []string {
	h.remotes.mu.Lock()
	r := h.remotes.byID[name]
	h.remotes.mu.Unlock()
	if r == nil {
		return nil
	}
	return r.paths.LocalRoots()
}
