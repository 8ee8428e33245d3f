package chatctl

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

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
	var stored []string // the prompts' uuids, oldest first
	for _, ev := range evs {
		switch e := ev.(type) {
		case chat.UserText:
			it := Item{Kind: "prompt", Text: e.Text}
			if e.UUID != "" {
				it.ID = resumedPrefix + e.UUID
				stored = append(stored, e.UUID)
			}
			items = append(items, it)
			continue
		case chat.PermissionAnswer:
			items = append(items, Item{Kind: "answered", ID: e.ToolUseID, Text: answerText(e)})
			continue
		}
		items = append(items, contentItem(ev))
	}
	c.knowStoredPrompts(dir, id, stored)
	c.show(context.Background(), dir, items...)
}

// resumedPrefix starts Lua's id of a resumed conversation's earlier prompt (its uuid
// follows); Lua's own ids for the prompts it sends are m1, m2, ….
const resumedPrefix = "r:"

// knowStoredPrompts makes the earlier prompts of dir's resumed conversation id (their
// uuids, oldest first) rewindable as those this host sent are: the CLI takes the uuids it
// stored them under (chat/doc.go, Checkpoints). They go before any prompt sent since the
// chat started, which are newer. Nothing is done when the chat moved to another
// conversation meanwhile.
func (c *Controller) knowStoredPrompts(dir, id string, uuids []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dc := c.chats[dir]
	if dc == nil || dc.conversation != id || dc.prompts == nil {
		return
	}
	var older []string
	for _, u := range uuids {
		if !slices.Contains(dc.sentOrder, u) {
			dc.prompts[resumedPrefix+u] = u
			older = append(older, u)
		}
	}
	dc.sentOrder = append(older, dc.sentOrder...)
}
