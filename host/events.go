package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
)

// folderUpdateTimeout bounds reading the working directories after a :cd.
const folderUpdateTimeout = 5 * time.Second

// cursorEvent handles CursorMoved, CursorMovedI, ModeChanged and BufEnter.
// Neovim evaluated ev when the event fired; the tracker only records it.
func (h *Host) cursorEvent(ev *selection.Event) {
	if ev == nil || (h.running() == nil && !h.feedsRunning()) {
		return
	}
	h.tracker.Observe(ev)
}

func (h *Host) sendSelection(sel *mcp.Selection) {
	if srv := h.running(); srv != nil {
		srv.SendSelection(sel)
	}
	h.sendRemoteSelections(sel)
}

// mentionArgs are ClaudeHostMention's arguments: a path and, for a range,
// its 0-based first and last lines (nil for a whole file or directory).
type mentionArgs struct {
	Path  string `msgpack:",array"`
	Start *int
	End   *int
}

func (h *Host) mention(args mentionArgs) {
	m := mcp.Mention{Path: args.Path, LineStart: args.Start, LineEnd: args.End}
	sent, refused := false, []string(nil)
	if args.Path != "" {
		sent, refused = h.mentionRemotes(m)
	}
	srv := h.running()
	if srv == nil || args.Path == "" {
		if !sent {
			h.log.Warn("mention dropped: server not running", "path", args.Path, "outside_map_of", refused)
			if len(refused) > 0 && h.editor != nil {
				msg := fmt.Sprintf("%s is outside the path map of remote %s: not sent", args.Path, strings.Join(refused, ", "))
				go func() { _ = h.editor.RemoteMessage(context.Background(), msg) }()
			}
		}
		return
	}
	srv.Mention(m)
}

// diffDoneArgs are ClaudeHostDiffDone's: the view's id, "accept" or
// "reject", on accept the final text of the proposal, and the hunks taken
// back with a reason (claude.diff.hunks.reasons).
type diffDoneArgs struct {
	ID        int `msgpack:",array"`
	Decision  string
	Text      string
	TakenBack []takenBackArg
	Reason    string // on reject, why, when the user said (:ClaudeDiffReject {reason})
}

type takenBackArg struct {
	Line     int    `msgpack:"line"`
	Kept     string `msgpack:"kept"`
	Proposed string `msgpack:"proposed"`
	Reason   string `msgpack:"reason"`
}

func (h *Host) diffDone(args diffDoneArgs) {
	var taken []mcp.TakenBack
	for _, t := range args.TakenBack {
		if t.Reason != "" {
			taken = append(taken, mcp.TakenBack(t))
		}
	}
	h.editor.ResolveDiff(args.ID, args.Decision == "accept", args.Text, taken, args.Reason)
}

// codeDone serves ClaudeHostCodeDone: the answer to an executeCode
// proposal, the same shape as a diff's ("accept" with the code to run).
func (h *Host) codeDone(args diffDoneArgs) {
	h.editor.ResolveCode(args.ID, args.Decision == "accept", args.Text)
}

// kernelClose serves ClaudeHostKernelClose: a notebook's buffer went, and
// its kernel with it.
func (h *Host) kernelClose(args []string) {
	if h.kernels != nil && len(args) > 0 {
		h.kernels.CloseNotebook(args[0])
	}
}

// lspDoneArgs are ClaudeHostLSPDone's: a language-server question's id and lua/claude/lsp's
// answer to it.
type lspDoneArgs struct {
	ID    int `msgpack:",array"`
	Reply nvimapi.LSPReply
}

func (h *Host) lspDone(args lspDoneArgs) {
	h.editor.LSPDone(args.ID, args.Reply)
}

// dirChanged keeps the lock file's workspaceFolders truthful after :cd,
// :tcd and :lcd (the CLI matches its own cwd against them).
func (h *Host) dirChanged() {
	locks := h.followingLocks() // a bridge bound to one folder keeps it
	if len(locks) == 0 {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), folderUpdateTimeout)
		defer cancel()
		folders, err := h.editor.ReadWorkspaceFolders(ctx) // not the cache: see its doc
		folders = nvimapi.WithoutFolders(folders, h.boundFolders())
		for _, lock := range locks {
			if err == nil {
				err = lock.SetWorkspaceFolders(folders)
			}
		}
		if err != nil {
			h.log.Warn("update workspace folders", "err", err)
		}
	}()
}

// diagnosticChanged is the one handler of DiagnosticChanged: the editor
// counts it (getDiagnostics may be waiting, see nvimapi/settle.go) and a
// connected client is told about a file's new diagnostics.
func (h *Host) diagnosticChanged(ev *nvimapi.DiagnosticEvent) {
	if ev == nil {
		return
	}
	h.editor.DiagnosticsChanged(ev)
	if ev.File && (h.running() != nil || h.feedsRunning()) {
		h.diags.Changed(ev.Path)
	}
}

func (h *Host) notifyDiagnostics(fd mcp.FileDiagnostics) {
	if srv := h.running(); srv != nil {
		srv.Notify("diagnostics_changed", mcp.DiagnosticsChangedParams(fd))
	}
	h.notifyRemoteDiagnostics(fd)
}
