package acpchat

import (
	"context"
	"errors"
	"fmt"

	"github.com/claude-nvim/claude.nvim/acp"
)

// maxListPages bounds session/list's paging: the history browser shows the newest ones.
const maxListPages = 20

// ListConversations is the agent's stored conversations of the workspace (session/list,
// every page up to maxListPages). Where the agent does not offer session/list the error
// says so in words the transcript can show.
func (b *Backend) ListConversations(ctx context.Context) ([]acp.SessionInfo, error) {
	if _, err := b.sessionID(ctx); err != nil {
		return nil, err
	}
	var out []acp.SessionInfo
	cursor := ""
	for range maxListPages {
		res, err := b.agent.ListSessions(ctx, acp.ListSessionsRequest{Cwd: b.opts.Dir, Cursor: cursor})
		if errors.Is(err, acp.ErrUnsupported) {
			return nil, fmt.Errorf("%s does not list its conversations (it offers no session/list)", b.name())
		}
		if err != nil {
			return nil, fmt.Errorf("%s: session/list: %w", b.name(), err)
		}
		out = append(out, res.Sessions...)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	return out, nil
}
