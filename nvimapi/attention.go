package nvimapi

import (
	"context"

	"github.com/claude-nvim/claude.nvim/attention"
)

// Attention hands the sessions whose state changed to the attention list
// (lua/claude/attention/init.lua): one round trip per batch, however many changed.
func (e *Editor) Attention(ctx context.Context, sessions []attention.Session) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').update_attention(...)`, sessions); err != nil {
		return luaError(err)
	}
	return nil
}
