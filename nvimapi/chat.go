package nvimapi

import (
	"context"

	"github.com/claude-nvim/claude.nvim/chatctl"
)

var _ chatctl.View = (*Editor)(nil)

// ChatEvents hands one batch of a chat's events to the Lua renderer: one round trip per
// batch, whatever its size. dir names the chat (its workspace).
func (e *Editor) ChatEvents(ctx context.Context, dir string, items []chatctl.Item) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').show_chat_events(...)`, dir, items); err != nil {
		return luaError(err)
	}
	return nil
}

// ChatModels hands the CLI's model list to :ClaudeModel's picker (lua/claude/model.lua).
// running says whether dir's chat runs (the choice then applies to it at once); errText is
// why there is no list, if there is none.
func (e *Editor) ChatModels(ctx context.Context, dir string, models []chatctl.Model, running bool, errText string) error {
	if models == nil {
		models = []chatctl.Model{}
	}
	if err := e.lua(ctx, nil, `require('claude.handlers').show_models(...)`, dir, models, running, errText); err != nil {
		return luaError(err)
	}
	return nil
}

// ChatTrusted tells dir's chat (lua/claude/chat/trust.lua) whether the user's trust in its
// folder is recorded: errText is "" when it is, else why not.
func (e *Editor) ChatTrusted(ctx context.Context, dir string, errText string) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').chat_trusted(...)`, dir, errText); err != nil {
		return luaError(err)
	}
	return nil
}

// ChatHistory hands the history browser (lua/claude/chat/history.lua) a list of dir's stored
// conversations or the preview of one.
func (e *Editor) ChatHistory(ctx context.Context, dir string, r chatctl.HistoryReply) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').show_history(...)`, dir, r); err != nil {
		return luaError(err)
	}
	return nil
}
