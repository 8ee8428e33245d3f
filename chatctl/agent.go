package chatctl

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acpchat"
	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/hooks"
)

// hookTimeout bounds a synthesized hook event (the ledger's snapshot of the workspace).
const hookTimeout = time.Minute

// startAgentLocked starts dir's chat on the ACP agent a names (a.Agent; a.Bin, a.Args and
// a.Env are its command), continuing the conversation resume when set. The workspace
// trust gate has passed; the session is offered mcpServers (the editor's tools). Called
// with c.mu held.
func (c *Controller) startAgentLocked(dc *dirChat, a StartArgs, resume string, mcpServers []acp.MCPServer) (int, error) {
	dir := a.workdir()
	opts := acpchat.Options{
		Name: a.Agent, Path: a.Bin, Args: a.Args, Env: c.environment(a), Dir: dir,
		Resume: resume, Mode: a.Mode, Logger: c.log.With("chat", dir, "agent", a.Agent), MCPServers: mcpServers,
	}
	if c.hook != nil {
		opts.Turns = func(event, sessionID, prompt string) string {
			return c.agentHook(dir, event, sessionID, prompt)
		}
		opts.Tools = func(sessionID, toolName, toolUseID string, input json.RawMessage) {
			c.agentToolHook(dir, sessionID, toolName, toolUseID, input)
		}
		opts.SessionMeta, opts.Env = c.agentHookSettings(dir, opts.Env)
	}
	proc, err := acpchat.Start(opts)
	if err != nil {
		return 0, err
	}
	dc.proc, dc.agent, dc.cliTemp = proc, a.Agent, ""
	dc.reviews, dc.messages = map[string]context.CancelFunc{}, map[string]*sentMessage{}
	dc.init = c.initialize(a.Dir, proc, func(*chat.InitializeResult, error) {})
	c.runs.Add(1)
	go func() {
		defer c.runs.Done()
		c.run(dc, proc)
	}()
	return proc.PID(), nil
}

// agentHook hands an ACP chat's turn to the hook bus as the Claude CLI's own hook would
// (UserPromptSubmit before the prompt goes, Stop at its answer), with origin chat:DIR: the
// change ledger records the agent's turns as it does Claude's. It returns what a
// UserPromptSubmit subscriber adds to the model's context (the note of a revert), which
// goes to the agent ahead of the prompt.
func (c *Controller) agentHook(dir, event, sessionID, prompt string) string {
	in, err := json.Marshal(map[string]string{"hook_event_name": event, "session_id": sessionID, "cwd": dir, "prompt": prompt})
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	out, err := c.hook(ctx, dir, in)
	if err != nil {
		c.log.Warn("chat: agent hook", "dir", dir, "event", event, "err", err)
		return ""
	}
	var o struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if len(out) == 0 || json.Unmarshal(out, &o) != nil {
		return ""
	}
	return o.Specific.Context
}

// agentToolHook hands a tool an ACP agent asks to run to the hook bus as the CLI's
// PreToolUse: outside git the change ledger records the files the tools named, and this
// is how it learns of an ACP agent's (claude-agent-acp asks before each edit in the mode
// "default"; an edit it runs unasked, in another mode, reaches the ledger only in git).
func (c *Controller) agentToolHook(dir, sessionID, toolName, toolUseID string, input json.RawMessage) {
	in, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": sessionID, "cwd": dir,
		"tool_name": toolName, "tool_use_id": toolUseID, "tool_input": input})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	if _, err := c.hook(ctx, dir, in); err != nil {
		c.log.Warn("chat: agent tool hook", "dir", dir, "tool", toolName, "err", err)
	}
}

// agentHookSettings gives the agent's session the PreToolUse hook for the Claude that
// claude-agent-acp runs (its _meta.claudeCode.options.settings, a --settings file, read by
// 0.101.0; any other agent ignores the field), and the agent's environment the hook's
// origin, which that Claude inherits. Its tools then reach the change ledger before they
// run in every mode, not only those asked about (agentToolHook): outside git, an edit made
// unasked is recorded too. Nothing, and env unchanged, without the settings.
func (c *Controller) agentHookSettings(dir string, env []string) (json.RawMessage, []string) {
	if c.agentToolHooks == nil {
		return nil, env
	}
	settings := c.agentToolHooks()
	if settings == "" {
		return nil, env
	}
	meta, err := json.Marshal(map[string]any{"claudeCode": map[string]any{"options": map[string]any{"settings": settings}}})
	if err != nil {
		return nil, env
	}
	if env == nil {
		env = os.Environ()
	}
	return meta, append(slices.Clip(env), hooks.OriginEnv+"=chat:"+dir)
}

// errAgentFork is a fork asked of an ACP chat: ACP cannot cut a conversation.
var errAgentFork = fmt.Errorf("fork: %w", ErrNotSupported)
