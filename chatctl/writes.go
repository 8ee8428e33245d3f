package chatctl

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/claude-nvim/claude.nvim/chat"
)

// toolWrites remembers, from each tool use until its result, which file it may change, so the
// result item can tell the editor what to reload (issue 22 item 6): the chat's CLI writes
// files itself (acceptEdits, auto mode, Bash), and a buffer left stale gets Claude's edit
// overwritten at the user's next :w.
type toolWrites struct {
	mu      sync.Mutex
	pending map[string]string // tool use id -> the file it writes, or anyFile
}

// anyFile marks a tool that may write any file (Bash, an agent, another MCP server's tool).
const anyFile = "*"

// fileTools are the CLI's tools that write one file, and the input field naming it.
var fileTools = map[string]string{
	"Edit":         "file_path",
	"MultiEdit":    "file_path",
	"Write":        "file_path",
	"NotebookEdit": "notebook_path",
}

// readOnlyTools write nothing on disk; every other tool may, so after its result the editor
// checks all its file buffers (cheap: it only compares modification times).
var readOnlyTools = map[string]bool{
	"Read": true, "Glob": true, "Grep": true, "LS": true, "WebFetch": true, "WebSearch": true,
	"TodoWrite": true, "AskUserQuestion": true, "ExitPlanMode": true, "BashOutput": true,
	"KillShell": true, "ListMcpResourcesTool": true, "ReadMcpResourceTool": true,
}

// use notes what e may write.
func (w *toolWrites) use(e chat.ToolUse) {
	target := ""
	if field, ok := fileTools[e.Name]; ok {
		var in map[string]any
		if json.Unmarshal(e.Input, &in) == nil {
			target, _ = in[field].(string)
		}
		if target == "" {
			target = anyFile // a path we cannot read: look at everything
		}
	} else if !readOnlyTools[e.Name] && !strings.HasPrefix(e.Name, "mcp__ide__") {
		target = anyFile
	}
	if target == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending == nil {
		w.pending = map[string]string{}
	}
	w.pending[e.ID] = target
}

// result marks it, the item of e, with what the editor reloads now: the file a file tool
// wrote (none when it failed), or all file buffers after a tool that may have written any.
func (w *toolWrites) result(e chat.ToolResult, it *Item) {
	w.mu.Lock()
	target, ok := w.pending[e.ID]
	delete(w.pending, e.ID)
	w.mu.Unlock()
	switch {
	case !ok:
	case target == anyFile:
		it.CheckFiles = true
	case !e.IsError:
		it.Wrote = target
	}
}
