package host

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/changes"
	"github.com/claude-nvim/claude.nvim/ledger"
)

// changesTimeout bounds one :Claude changes request's git work (a listing, a revert).
const changesTimeout = 2 * time.Minute

// changesConfig is ClaudeHostChangesConfigure's argument, from lua/claude/host.lua.
type changesConfig struct {
	Dir        string `msgpack:"dir"` // stdpath("state")/claude/ledger
	RevertNote bool   `msgpack:"revert_note"`
	// The size limits in MiB (changes.max_file_mb, changes.max_store_mb); 0: the defaults.
	MaxFileMiB  int64  `msgpack:"max_file_mb"`
	MaxStoreMiB int64  `msgpack:"max_store_mb"`
	Cwd         string `msgpack:"cwd"` // Neovim's: its workspace's signs come back if it has a ledger
}

// configureChanges sets where the ledger lives: sync, a mkdir.
func (h *Host) configureChanges(args []changesConfig) (bool, error) {
	var cfg changesConfig
	if len(args) > 0 {
		cfg = args[0]
	}
	limits := ledger.DefaultLimits
	if cfg.MaxFileMiB > 0 {
		limits.FileSize = cfg.MaxFileMiB << 20
	}
	if cfg.MaxStoreMiB > 0 {
		limits.StoreSize = cfg.MaxStoreMiB << 20
	}
	if err := h.changes.Configure(changes.Options{Dir: cfg.Dir, NoRevertNote: !cfg.RevertNote, Limits: limits}); err != nil {
		return false, err
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), changesTimeout)
		defer cancel()
		h.changes.Restore(ctx, cfg.Cwd)
	}()
	return true, nil
}

// changesArgs are ClaudeHostChanges': what to do, in which workspace, on what.
type changesArgs struct {
	Op   string `msgpack:",array"` // list, open, revert_hunk, revert_file, revert_turn, review, unreview, clear, qf, marks
	Cwd  string
	Turn string
	Path string
	Key  string
	Why  string // the user's reason for a revert, told to Claude with it
}

// changesRequest serves :Claude changes: async, the git work in a goroutine, the answer
// pushed back through handlers.changes_reply.
func (h *Host) changesRequest(args changesArgs) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), changesTimeout)
		defer cancel()
		result, err := h.doChanges(ctx, args)
		errText := ""
		if err != nil {
			errText, result = err.Error(), nil
		}
		if err := h.editor.ChangesReply(ctx, args.Op, args.Cwd, result, errText); err != nil {
			h.log.Warn("changes: reply", "op", args.Op, "err", err)
		}
	}()
}

func (h *Host) doChanges(ctx context.Context, a changesArgs) (any, error) {
	r := h.changes
	switch a.Op {
	case "list":
		return r.List(ctx, a.Cwd, a.Turn) // Turn names the scope, "" for the turns
	case "open":
		return r.Open(ctx, a.Cwd, a.Turn, a.Path)
	case "revert_hunk":
		return r.RevertHunk(ctx, a.Cwd, a.Turn, a.Path, a.Key, a.Why)
	case "revert_file":
		return r.RevertFile(ctx, a.Cwd, a.Turn, a.Path, a.Why)
	case "revert_turn":
		return r.RevertTurn(ctx, a.Cwd, a.Turn, a.Why)
	case "review", "unreview":
		return a.Key, r.Review(ctx, a.Cwd, a.Turn, a.Path, a.Key, a.Op == "review")
	case "clear":
		return r.Clear(ctx, a.Cwd)
	case "qf":
		return r.Marks(ctx, a.Cwd)
	case "marks":
		h.pushMarks(a.Cwd)
		return nil, nil
	}
	return nil, errUnknownOp(a.Op)
}

type errUnknownOp string

func (e errUnknownOp) Error() string { return "changes: unknown request " + string(e) }

// changesHealth serves :checkhealth: sync, a journal read and a walk of one store.
func (h *Host) changesHealth(args []string) (changes.Health, error) {
	ctx, cancel := context.WithTimeout(context.Background(), changesTimeout)
	defer cancel()
	cwd := ""
	if len(args) > 0 {
		cwd = args[0]
	}
	return h.changes.Health(ctx, cwd), nil
}

// pushMarks sends a workspace's unreviewed lines to the editor's signs (after a turn ends,
// a revert, a review): pushed, never polled.
func (h *Host) pushMarks(root string) {
	if h.editor == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), changesTimeout)
	defer cancel()
	marks, err := h.changes.Marks(ctx, root)
	if err != nil {
		h.log.Warn("changes: marks", "root", root, "err", err)
		return
	}
	if err := h.editor.MarkChanges(ctx, marks); err != nil {
		h.log.Warn("changes: marks", "root", root, "err", err)
	}
}

// changesTrouble tells the editor once why a workspace's turns are not recorded, and when
// they are again (changes.Recorder.Trouble).
func (h *Host) changesTrouble(root, reason string) {
	if h.editor == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), changesTimeout)
	defer cancel()
	if err := h.editor.ChangesTrouble(ctx, root, reason); err != nil {
		h.log.Warn("changes: trouble", "root", root, "err", err)
	}
}

// sessionFolders are the workspace folders of the session a hook event comes from, by its
// origin: a terminal bridge's (its lock file's), a chat's directory; nil when unknown. The
// ledger's root comes from them (changes.Recorder.Folders).
func (h *Host) sessionFolders(origin string) []string {
	kind, rest, _ := strings.Cut(origin, ":")
	switch kind {
	case "chat":
		return []string{rest}
	case "remote":
		return h.remoteFolders(rest)
	case "terminal":
		id, err := strconv.Atoi(rest)
		if err != nil {
			return nil
		}
		h.mu.Lock()
		b := h.bridges[id]
		h.mu.Unlock()
		if b != nil {
			return b.lock.Info().WorkspaceFolders
		}
	}
	return nil
}

// bufWritten hears every write of a buffer (async, the path only): a file the user saves
// while Claude's turn runs is marked in that turn (changes.Recorder.UserSaved).
func (h *Host) bufWritten(path string) {
	if path != "" {
		h.changes.UserSaved(path)
	}
}
