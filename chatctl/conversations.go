package chatctl

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/claude-nvim/claude.nvim/chat"
)

// ConversationsArgs are ClaudeHostChatSessions' argument: the workspace and the CLI's
// environment (its config directory holds the stored conversations).
type ConversationsArgs struct {
	Dir string            `msgpack:"dir"`
	Env map[string]string `msgpack:"env"`
}

// Conversation is one stored conversation as :ClaudeChat resume's picker shows it. Its ID is
// what the CLI calls the session id, and what StartArgs.Resume takes.
type Conversation struct {
	ID          string `msgpack:"id"`
	FirstPrompt string `msgpack:"first_prompt"`
	Modified    int64  `msgpack:"modified"` // Unix seconds of the last activity
	Branch      string `msgpack:"branch"`
	// The history browser's (HistoryList): the user's name for it, and how many prompts and
	// answers it holds.
	Title    string `msgpack:"title,omitempty"`
	Messages int    `msgpack:"messages,omitempty"`
}

// Conversations serves ClaudeHostChatSessions: the workspace's stored conversations, newest
// first. Sync: it reads the head of each file (chat.ListSessions bounds how much).
func (c *Controller) Conversations(args []ConversationsArgs) ([]Conversation, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return nil, errors.New("chat conversations: no directory")
	}
	a := args[0]
	var env []string
	if a.Env != nil {
		env = envList(a.Env)
	}
	list, err := chat.ListConversations(chat.ConfigDir(env), a.Dir)
	if err != nil {
		return nil, err
	}
	out := make([]Conversation, 0, len(list))
	for _, s := range list {
		out = append(out, Conversation{ID: s.ID, FirstPrompt: s.FirstPrompt, Modified: s.Modified.Unix(), Branch: s.GitBranch})
	}
	return out, nil
}

// historyMax bounds how many earlier events a resumed chat shows.
const historyMax = 5000

// showHistory renders the stored conversation id of dir in its transcript, for a chat that
// resumes it: the earlier prompts (as "prompt" items), text, thinking, tool uses, the user's
// permission answers ("answered") and the tools' results.
func (c *Controller) showHistory(dir string, env []string, id string) {
	path := filepath.Join(chat.ProjectDir(chat.ConfigDir(env), dir), id+".jsonl")
	evs, err := chat.History(path, historyMax)
	if err != nil {
		c.log.Warn("chat: history", "dir", dir, "err", err)
		return
	}
	items := make([]Item, 0, len(evs))
	for _, ev := range evs {
		switch e := ev.(type) {
		case chat.UserText:
			items = append(items, Item{Kind: "prompt", Text: e.Text})
			continue
		case chat.PermissionAnswer:
			items = append(items, Item{Kind: "answered", ID: e.ToolUseID, Text: answerText(e)})
			continue
		}
		items = append(items, contentItem(ev))
	}
	c.show(context.Background(), dir, items...)
}
