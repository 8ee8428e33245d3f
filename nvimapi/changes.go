package nvimapi

import (
	"context"

	"github.com/claude-nvim/claude.nvim/changes"
)

// ChangesReply hands the answer to a :ClaudeChanges request (lua/claude/changes) back: op
// is the request's, result its value (nil on error), errText why it failed.
func (e *Editor) ChangesReply(ctx context.Context, op, cwd string, result any, errText string) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').changes_reply(...)`, op, cwd, result, errText); err != nil {
		return luaError(err)
	}
	return nil
}

// MarkChanges gives the signs of a workspace's unreviewed lines (lua/claude/changes/signs.lua):
// one round trip, whatever the number of files.
func (e *Editor) MarkChanges(ctx context.Context, marks changes.Marks) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').mark_changes(...)`, marks); err != nil {
		return luaError(err)
	}
	return nil
}

// ChangesTrouble tells the editor why the ledger of root could not record a turn (shown
// once, and in the statusline until cleared), or with no reason that it records again.
func (e *Editor) ChangesTrouble(ctx context.Context, root, reason string) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').changes_trouble(...)`, root, reason); err != nil {
		return luaError(err)
	}
	return nil
}
