package host

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/nvimapi"
)

// chatSessionsArgs are ClaudeHostChatSessions' argument: the workspace and the CLI's
// environment (its config directory holds the sessions).
type chatSessionsArgs struct {
	Dir string            `msgpack:"dir"`
	Env map[string]string `msgpack:"env"`
}

// chatSessionInfo is one stored session as :ClaudeChat resume's picker shows it.
type chatSessionInfo struct {
	ID          string `msgpack:"id"`
	FirstPrompt string `msgpack:"first_prompt"`
	Modified    int64  `msgpack:"modified"` // Unix seconds of the last activity
	Branch      string `msgpack:"branch"`
}

// chatSessions serves ClaudeHostChatSessions: the workspace's stored conversations, newest
// first. Sync: it reads the head of each session file (chat.ListSessions bounds how much).
func (h *Host) chatSessions(args []chatSessionsArgs) ([]chatSessionInfo, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return nil, errors.New("chat sessions: no directory")
	}
	a := args[0]
	var env []string
	if a.Env != nil {
		env = envList(a.Env)
	}
	list, err := chat.ListSessions(chat.ConfigDir(env), a.Dir)
	if err != nil {
		return nil, err
	}
	out := make([]chatSessionInfo, 0, len(list))
	for _, s := range list {
		out = append(out, chatSessionInfo{ID: s.ID, FirstPrompt: s.FirstPrompt, Modified: s.Modified.Unix(), Branch: s.GitBranch})
	}
	return out, nil
}

// chatHistoryMax bounds how many earlier events a resumed chat shows.
const chatHistoryMax = 5000

// showHistory renders the stored conversation id of dir in its transcript, for a chat that
// resumes it: the earlier prompts (as "prompt" items), text, thinking, tool uses and results.
func (h *Host) showHistory(dir string, env []string, id string) {
	path := filepath.Join(chat.ProjectDir(chat.ConfigDir(env), dir), id+".jsonl")
	evs, err := chat.History(path, chatHistoryMax)
	if err != nil {
		h.log.Warn("chat: history", "dir", dir, "err", err)
		return
	}
	items := make([]nvimapi.ChatItem, 0, len(evs))
	for _, ev := range evs {
		if u, ok := ev.(chat.UserText); ok {
			items = append(items, nvimapi.ChatItem{Kind: "prompt", Text: u.Text})
			continue
		}
		items = append(items, contentItem(ev))
	}
	if err := h.editor.ChatEvents(context.Background(), dir, items); err != nil {
		h.log.Warn("chat: render", "dir", dir, "err", err)
	}
}
