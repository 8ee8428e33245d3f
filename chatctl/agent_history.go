package chatctl

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
)

// The history browser of an ACP agent's chat ("DIR//NAME"): the agent keeps its own
// conversations, so they are listed by the running agent (session/list), and <CR>
// continues one through the chat's start with Resume (session/resume, else session/load,
// acpchat). What the agent offers no request for (a preview, a rename, a delete) is
// refused with a line saying so.

// Lister lists the conversations its agent stored (ACP session/list).
type Lister interface {
	ListConversations(ctx context.Context) ([]acp.SessionInfo, error)
}

// agentOf is the agent name of an ACP chat's key, "" for the folder's Claude chat.
func agentOf(dir string) string {
	_, agent, _ := strings.Cut(dir, "//")
	return agent
}

// agentHistory lists the conversations of the ACP chat dir (agent is its agent's name),
// those whose title holds query when it is set, newest first.
func (c *Controller) agentHistory(ctx context.Context, dir, agent, query string) ([]Conversation, error) {
	c.mu.Lock()
	var proc Backend
	if dc := c.chats[dir]; dc != nil {
		proc = dc.proc
	}
	c.mu.Unlock()
	if proc == nil {
		return nil, fmt.Errorf("the agent %s lists its conversations itself and is not running: send a message in its chat (or :ClaudeChat %s), then list again", agent, agent)
	}
	l, ok := proc.(Lister)
	if !ok {
		return nil, fmt.Errorf("the agent %s cannot list its conversations: %w", agent, ErrNotSupported)
	}
	infos, err := l.ListConversations(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Conversation, 0, len(infos))
	for _, s := range infos {
		if query != "" && !strings.Contains(strings.ToLower(s.Title), strings.ToLower(query)) {
			continue
		}
		var mod int64
		if t, err := time.Parse(time.RFC3339, s.UpdatedAt); err == nil {
			mod = t.Unix()
		}
		title := s.Title
		if title == "" {
			title = s.SessionID
		}
		out = append(out, Conversation{ID: s.SessionID, FirstPrompt: title, Modified: mod})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Modified > out[j].Modified })
	return out, nil
}

// errAgentHistory refuses what an ACP agent's conversations cannot have done here.
func errAgentHistory(agent, what string) error {
	return fmt.Errorf("%s: the agent %s keeps its conversations and ACP has no request for it: %w", what, agent, ErrNotSupported)
}
