package chatctl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
)

// The history browser (:ClaudeChat resume, lua/claude/chat/history.lua): the workspace's
// stored conversations with their titles and sizes, searched by text, previewed, renamed and
// deleted. Listing, searching and previewing read whole files, so they run off Neovim's loop
// and answer through View.ChatHistory; a rename or delete is one small file operation and
// answers at once.

// HistoryArgs are the browser handlers' argument. Seq numbers the browser's requests: an
// answer to an older one than the last is dropped by Lua, and a search overtaken by a newer
// one of the same workspace stops early.
type HistoryArgs struct {
	Dir   string            `msgpack:"dir"`
	Env   map[string]string `msgpack:"env"` // the CLI's environment: where its config directory is
	Seq   int               `msgpack:"seq"`
	Query string            `msgpack:"query"` // list: only the conversations with this text
	ID    string            `msgpack:"id"`    // preview, rename, delete: the conversation
	Title string            `msgpack:"title"` // rename
}

// HistoryReply is what the browser gets for a list or preview request (Kind).
type HistoryReply struct {
	Seq           int            `msgpack:"seq"`
	Kind          string         `msgpack:"kind"` // "list" or "preview"
	Query         string         `msgpack:"query,omitempty"`
	Conversations []Conversation `msgpack:"conversations"`
	ID            string         `msgpack:"id,omitempty"`      // preview: the conversation shown
	Preview       []string       `msgpack:"preview,omitempty"` // its first and last lines, as the transcript shows them
	Error         string         `msgpack:"error,omitempty"`
}

// historyTimeout bounds one list or preview: a search over a large history must not run on
// after the user has gone.
const historyTimeout = time.Minute

// previewLines is how many transcript lines the preview shows from the start of a
// conversation and from its end.
const previewLines = 12

// scanWorkers is how many conversation files a search reads at once: the machine's other
// work (the editor, a running CLI) keeps its share.
const scanWorkers = 2

// historySeqs keeps, per workspace, the newest list request, so an older search stops.
type historySeqs struct {
	mu     sync.Mutex
	newest map[string]int
}

func (h *historySeqs) set(dir string, seq int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.newest == nil {
		h.newest = map[string]int{}
	}
	h.newest[dir] = max(h.newest[dir], seq)
}

func (h *historySeqs) stale(dir string, seq int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.newest[dir] > seq
}

func configDir(a HistoryArgs) string {
	var env []string
	if a.Env != nil {
		env = envList(a.Env)
	}
	return chat.ConfigDir(env)
}

// HistoryList serves ClaudeHostChatHistory (async): the workspace's stored conversations,
// newest first, each with its title and message count; with a Query only those whose text
// has it.
func (c *Controller) HistoryList(args []HistoryArgs) {
	if len(args) == 0 || args[0].Dir == "" {
		return
	}
	a := args[0]
	c.historySeqs.set(a.Dir, a.Seq)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), historyTimeout)
		defer cancel()
		r := HistoryReply{Seq: a.Seq, Kind: "list", Query: a.Query, Conversations: []Conversation{}}
		list, err := c.historyList(ctx, a)
		c.log.Debug("chat: history listed", "dir", a.Dir, "n", len(list), "err", err)
		if errors.Is(err, errOvertaken) {
			return
		}
		if err != nil {
			r.Error = err.Error()
		} else {
			r.Conversations = list
		}
		if err := c.view.ChatHistory(ctx, a.Dir, r); err != nil {
			c.log.Warn("chat: history list", "dir", a.Dir, "err", err)
		}
	}()
}

// errOvertaken ends a search a newer one of the same workspace replaced.
var errOvertaken = errors.New("a newer search replaced this one")

func (c *Controller) historyList(ctx context.Context, a HistoryArgs) ([]Conversation, error) {
	if agent := agentOf(a.Dir); agent != "" {
		return c.agentHistory(ctx, a.Dir, agent, a.Query)
	}
	stored, err := chat.ListConversations(configDir(a), a.Dir)
	if err != nil {
		return nil, err
	}
	digests := make([]chat.Digest, len(stored))
	errs := make([]error, len(stored))
	next := make(chan int)
	var wg sync.WaitGroup
	for range scanWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				digests[i], errs[i] = chat.Scan(stored[i].Path, a.Query)
			}
		}()
	}
	var stop error
	for i := range stored {
		if c.historySeqs.stale(a.Dir, a.Seq) {
			stop = errOvertaken
			break
		}
		if ctx.Err() != nil {
			stop = fmt.Errorf("search conversations: %w", ctx.Err())
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if stop != nil {
		return nil, stop
	}
	out := make([]Conversation, 0, len(stored))
	for i, s := range stored {
		if errs[i] != nil || !digests[i].Found {
			continue // removed meanwhile, or not what was searched for
		}
		out = append(out, Conversation{
			ID: s.ID, FirstPrompt: s.FirstPrompt, Modified: s.Modified.Unix(), Branch: s.GitBranch,
			Title: digests[i].Title, Messages: digests[i].Messages,
		})
	}
	return out, nil
}

// HistoryPreview serves ClaudeHostChatPreview (async): the first and last lines of the
// conversation a.ID as the transcript would show them.
func (c *Controller) HistoryPreview(args []HistoryArgs) {
	if len(args) == 0 || args[0].Dir == "" {
		return
	}
	a := args[0]
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), historyTimeout)
		defer cancel()
		r := HistoryReply{Seq: a.Seq, Kind: "preview", ID: a.ID, Conversations: []Conversation{}}
		var lines []string
		var err error
		if agent := agentOf(a.Dir); agent != "" {
			err = fmt.Errorf("%w (<CR> loads it, with its turns)", errAgentHistory(agent, "preview"))
		} else {
			lines, err = previewOf(configDir(a), a.Dir, a.ID)
		}
		if err != nil {
			r.Error = err.Error()
		}
		r.Preview = lines
		if err := c.view.ChatHistory(ctx, a.Dir, r); err != nil {
			c.log.Warn("chat: history preview", "dir", a.Dir, "err", err)
		}
	}()
}

// previewOf renders a stored conversation as plain transcript lines and keeps the first and
// the last previewLines of them.
func previewOf(configDir, dir, id string) ([]string, error) {
	path, err := chat.ConversationPath(configDir, dir, id)
	if err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	evs, err := chat.History(path, historyMax)
	if err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	var lines []string
	for _, ev := range evs {
		lines = append(lines, previewLine(ev)...)
	}
	if len(lines) <= 2*previewLines+1 {
		return lines, nil
	}
	cut := len(lines) - 2*previewLines
	out := append([]string{}, lines[:previewLines]...)
	out = append(out, fmt.Sprintf("⋮  (%d lines more)", cut))
	return append(out, lines[len(lines)-previewLines:]...), nil
}

// previewLine is how one earlier event reads in the preview: as the transcript's lines,
// without the folds' bodies.
func previewLine(ev chat.Event) []string {
	switch e := ev.(type) {
	case chat.UserText:
		return append([]string{""}, prefixed("> ", e.Text)...)
	case chat.TextDelta:
		return strings.Split(strings.TrimRight(e.Text, "\n"), "\n")
	case chat.ToolUse:
		return []string{"● " + e.Name + "(" + e.Summary + ")"}
	case chat.ToolResult:
		first, _ := firstLine(withoutNumberedEnd(e.Content))
		return []string{"  ⎿  " + first}
	case chat.PermissionAnswer:
		return []string{"  ⎿  " + answerText(e)}
	}
	return nil
}

func prefixed(p, text string) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i := range lines {
		lines[i] = p + lines[i]
	}
	return lines
}

// answerText says how a stored permission request was answered, in the words the live
// transcript uses ("allowed: …", "denied: …").
func answerText(a chat.PermissionAnswer) string {
	if a.Allowed {
		if a.Scope == "" {
			return "allowed"
		}
		return "allowed: " + a.Scope
	}
	if a.Reason == "" {
		return "denied"
	}
	return "denied: " + a.Reason
}

// Renamer renames the conversation it runs: the Claude CLI (chat.Process).
type Renamer interface {
	RenameConversation(ctx context.Context, sessionID, title string) error
}

// HistoryRename serves ClaudeHostChatRename (sync: one append to one file): the conversation
// a.ID gets the title a.Title, stored as the CLI stores its own /rename. The conversation a
// chat's CLI runs is renamed through that CLI (rename_session, off this handler's goroutine),
// which holds the title then and writes the line itself; the browser is told to list again
// once it has ("renamed"). It answers true, or an error that says why not.
func (c *Controller) HistoryRename(args []HistoryArgs) (bool, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return false, errors.New("rename conversation: no directory")
	}
	a := args[0]
	if agent := agentOf(a.Dir); agent != "" {
		return false, errAgentHistory(agent, "rename conversation")
	}
	c.mu.Lock()
	var proc Renamer
	if dc := c.chats[a.Dir]; dc != nil && dc.conversation == a.ID {
		proc, _ = dc.proc.(Renamer)
	}
	c.mu.Unlock()
	if proc == nil {
		return done(chat.Rename(configDir(a), a.Dir, a.ID, a.Title))
	}
	if _, err := chat.CheckTitle(a.Title); err != nil {
		return false, err
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		if err := proc.RenameConversation(ctx, a.ID, a.Title); err != nil {
			// The CLI could not (gone meanwhile, or too old): the line is appended as for a
			// conversation no CLI runs.
			c.log.Warn("chat: rename through the CLI", "dir", a.Dir, "err", err)
			if err := chat.Rename(configDir(a), a.Dir, a.ID, a.Title); err != nil {
				c.log.Warn("chat: rename", "dir", a.Dir, "err", err)
			}
		}
		if err := c.view.ChatHistory(ctx, a.Dir, HistoryReply{Seq: a.Seq, Kind: "renamed", ID: a.ID, Conversations: []Conversation{}}); err != nil {
			c.log.Warn("chat: renamed", "dir", a.Dir, "err", err)
		}
	}()
	return true, nil
}

// done is a sync handler's answer to Lua: true, or the error (a handler that returns only an
// error answers nil either way when it succeeds, which Lua cannot tell from a failure
// host.lua has reported).
func done(err error) (bool, error) {
	return err == nil, err
}

// HistoryDelete serves ClaudeHostChatDelete (sync: one file removed): the conversation a.ID
// is gone for good. The one the chat's CLI runs is refused: the CLI would write it again.
// It answers true, or an error that says why not.
func (c *Controller) HistoryDelete(args []HistoryArgs) (bool, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return false, errors.New("delete conversation: no directory")
	}
	a := args[0]
	if agent := agentOf(a.Dir); agent != "" {
		return false, errAgentHistory(agent, "delete conversation")
	}
	c.mu.Lock()
	dc := c.chats[a.Dir]
	if dc != nil && dc.conversation == a.ID {
		if dc.proc != nil {
			c.mu.Unlock()
			return false, errors.New("delete conversation: the chat runs it; :Claude chat end first, or :ClaudeChat new")
		}
		dc.conversation = "" // the next message starts a new one instead of resuming it
	}
	c.mu.Unlock()
	return done(chat.Delete(configDir(a), a.Dir, a.ID))
}
