package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/nvimapi"
)

// chatWriteTimeout bounds a write to a chat CLI's stdin (a turn, an answer, an interrupt): a
// CLI that stopped reading must not pile up goroutines.
const chatWriteTimeout = 10 * time.Second

// chatCloseTimeout bounds :ClaudeChatStop's wait for the CLI to go.
const chatCloseTimeout = 10 * time.Second

// chats are the native chats (:ClaudeChat), one per workspace directory. The host owns each
// CLI child; lua/claude/chat.lua only renders what runChat pushes and sends what the user
// types.
type chats struct {
	mu    sync.Mutex // guards byDir; never held while calling Neovim or the CLI
	byDir map[string]*chatState

	mcpMu sync.Mutex // guards mcp, started by the first chat (chat_mcp.go)
	mcp   *chatMCP
}

// chatState is one workspace's chat: the running session, if any, and the id a restart
// resumes.
type chatState struct {
	dir       string
	session   *chat.Session
	sessionID string
	pending   map[string]chat.PermissionRequest // asked and not answered yet
	reviews   map[string]context.CancelFunc     // edits shown as diffs: withdraws them
	init      *chatInit                         // the running CLI's initialize answer
}

// chatStartArgs are ClaudeHostChatStart's argument (lua/claude/chat.lua).
type chatStartArgs struct {
	Dir  string            `msgpack:"dir"`
	Bin  string            `msgpack:"bin"`
	Args []string          `msgpack:"args"`
	Env  map[string]string `msgpack:"env"` // the CLI's whole environment
	// Resume, when set, continues that stored session, ending a CLI that runs another one.
	Resume string `msgpack:"resume"`
	// New ends a running CLI and starts a new conversation.
	New bool `msgpack:"new"`
}

// chatStart serves ClaudeHostChatStart: it starts the workspace's CLI unless it runs, and
// resumes the conversation when an earlier CLI of this chat exited. With Resume or New it
// replaces a running CLI (closed in the background; its last events are not shown). Sync, as
// Lua must know whether there is a CLI before it sends; the work is one fork and exec.
func (h *Host) chatStart(args []chatStartArgs) (bool, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return false, errors.New("chat start: no directory")
	}
	a := args[0]
	mcpConfigs, mcpArgs := h.chatMCPArgs()
	h.chats.mu.Lock()
	defer h.chats.mu.Unlock()
	if h.chats.byDir == nil {
		h.chats.byDir = map[string]*chatState{}
	}
	st := h.chats.byDir[a.Dir]
	if st == nil {
		st = &chatState{dir: a.Dir}
		h.chats.byDir[a.Dir] = st
	}
	replace := a.New || (a.Resume != "" && a.Resume != st.sessionID)
	if st.session != nil && !replace {
		return false, nil
	}
	if st.session != nil {
		h.retireLocked(st)
	}
	if a.New {
		st.sessionID = ""
	} else if a.Resume != "" {
		st.sessionID = a.Resume
	}
	s, err := chat.Start(chat.Options{
		Bin: a.Bin, Dir: a.Dir, Env: envList(a.Env), Args: append(mcpArgs, a.Args...),
		MCPConfig: mcpConfigs, Resume: st.sessionID, Logger: h.log.With("chat", a.Dir),
	})
	if err != nil {
		return false, err
	}
	st.session, st.pending, st.reviews = s, map[string]chat.PermissionRequest{}, map[string]context.CancelFunc{}
	st.init = h.initialize(a.Dir, s)
	if a.Resume != "" {
		go h.showHistory(a.Dir, envList(a.Env), a.Resume)
	}
	go h.runChat(a.Dir, st, s)
	return true, nil
}

// retireLocked ends st's running CLI in the background; runChat stops rendering it once
// st.session is another one. Called with h.chats.mu held.
func (h *Host) retireLocked(st *chatState) {
	old := st.session
	for _, cancel := range st.reviews {
		cancel()
	}
	st.session, st.pending, st.reviews, st.init = nil, nil, nil, nil
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), chatCloseTimeout)
		defer cancel()
		if err := old.Close(ctx); err != nil {
			h.log.Warn("chat: close", "dir", st.dir, "err", err)
		}
	}()
}

// envList turns the environment Lua sends into KEY=VALUE pairs, sorted so logs compare.
func envList(env map[string]string) []string {
	if env == nil {
		return nil
	}
	list := make([]string, 0, len(env))
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	sort.Strings(list)
	return list
}

// runChat pushes each batch of s's events to the editor, one call per batch, until the CLI
// has exited.
func (h *Host) runChat(dir string, st *chatState, s *chat.Session) {
	ctx := context.Background()
	for {
		evs, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			h.log.Warn("chat: next", "dir", dir, "err", err)
			return
		}
		h.chats.mu.Lock()
		retired := st.session != s // until its Exited is converted, a running CLI is st.session
		h.chats.mu.Unlock()
		if retired {
			continue // replaced by a resumed or new conversation: drain, show nothing
		}
		items := h.chatItems(st, s, evs)
		if err := h.editor.ChatEvents(ctx, dir, items); err != nil {
			h.log.Warn("chat: render", "dir", dir, "err", err)
		}
	}
}

// chatItems converts a batch for the renderer and keeps st in step: the session id to resume,
// the permission requests waiting, the session gone after Exited.
func (h *Host) chatItems(st *chatState, s *chat.Session, evs []chat.Event) []nvimapi.ChatItem {
	items := make([]nvimapi.ChatItem, 0, len(evs))
	for _, ev := range evs {
		switch e := ev.(type) {
		case chat.Init:
			h.chats.mu.Lock()
			if e.SessionID != "" {
				st.sessionID = e.SessionID
			}
			h.chats.mu.Unlock()
			items = append(items, nvimapi.ChatItem{Kind: "init", SessionID: e.SessionID, Model: e.Model, Mode: e.PermissionMode})
		case chat.Status:
			items = append(items, nvimapi.ChatItem{Kind: "status", Text: e.Status, Mode: e.PermissionMode})
		case chat.TextDelta, chat.ThinkingDelta, chat.BlockEnd, chat.ToolUse, chat.ToolResult:
			items = append(items, contentItem(e))
		case chat.UserText:
			if !e.Replay {
				items = append(items, nvimapi.ChatItem{Kind: "user", Text: e.Text})
			}
		case chat.PermissionRequest:
			it := permissionItem(e)
			if path, before, after, ok := proposal(e); ok {
				// Reviewed in a diff, answered by review; Lua does not ask.
				ctx, cancel := context.WithCancel(context.Background())
				h.chats.mu.Lock()
				st.reviews[e.RequestID] = cancel
				h.chats.mu.Unlock()
				it.Review = true
				go func() {
					h.review(ctx, st.dir, s, e, path, before, after)
					h.chats.mu.Lock()
					delete(st.reviews, e.RequestID)
					h.chats.mu.Unlock()
					cancel()
				}()
			} else {
				h.chats.mu.Lock()
				st.pending[e.RequestID] = e
				h.chats.mu.Unlock()
			}
			items = append(items, it)
		case chat.PermissionCancelled:
			h.chats.mu.Lock()
			delete(st.pending, e.RequestID)
			if cancel := st.reviews[e.RequestID]; cancel != nil {
				cancel()
			}
			h.chats.mu.Unlock()
			items = append(items, nvimapi.ChatItem{Kind: "cancelled", ID: e.RequestID})
		case chat.TurnEnd:
			items = append(items, nvimapi.ChatItem{
				Kind: "end", Subtype: e.Subtype, IsError: e.IsError, Text: e.Result, Errors: e.Errors,
				DurationMS: e.Duration.Milliseconds(), TokensIn: e.Tokens.Input + e.Tokens.CacheRead + e.Tokens.CacheCreation,
				TokensOut: e.Tokens.Output, CostUSD: e.CostUSD,
			})
		case chat.Exited:
			h.chats.mu.Lock()
			if st.session == s {
				for _, cancel := range st.reviews {
					cancel()
				}
				st.session, st.pending, st.reviews, st.init = nil, nil, nil, nil
			}
			h.chats.mu.Unlock()
			items = append(items, nvimapi.ChatItem{Kind: "exited", Code: e.Code, Signal: e.Signal, MidTurn: e.MidTurn})
		}
	}
	return items
}

// contentItem is what the transcript shows of the conversation's content: text, thinking,
// the end of a block, a tool use or its result.
func contentItem(ev chat.Event) nvimapi.ChatItem {
	switch e := ev.(type) {
	case chat.TextDelta:
		return nvimapi.ChatItem{Kind: "text", Text: e.Text}
	case chat.ThinkingDelta:
		return nvimapi.ChatItem{Kind: "thinking", Text: e.Text}
	case chat.ToolUse:
		return nvimapi.ChatItem{Kind: "tool", ID: e.ID, Name: e.Name, Summary: e.Summary, Body: inputLines(e.Input)}
	case chat.ToolResult:
		first, n := firstLine(e.Content)
		return nvimapi.ChatItem{Kind: "result", ID: e.ID, Text: first, Lines: n, IsError: e.IsError, Body: resultLines(e.Content)}
	}
	return nvimapi.ChatItem{Kind: "block_end"}
}

func permissionItem(e chat.PermissionRequest) nvimapi.ChatItem {
	it := nvimapi.ChatItem{Kind: "permission", ID: e.RequestID, Name: e.ToolName, Description: e.Description}
	var input any
	if json.Unmarshal(e.Input, &input) == nil {
		it.Input = input
	}
	for _, s := range e.Suggestions {
		var v any
		if json.Unmarshal(s, &v) == nil {
			it.Suggestions = append(it.Suggestions, v)
		}
	}
	return it
}

// firstLine is a tool result as the transcript shows it: its first line and how many lines
// it has, so a huge result never crosses to the editor.
func firstLine(s string) (string, int) {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "", 0
	}
	n := strings.Count(s, "\n") + 1
	first, _, _ := strings.Cut(s, "\n")
	const max = 200
	if len(first) > max {
		first = first[:max] + "…"
	}
	return first, n
}

// session returns the running session of dir's chat, or nil.
func (h *Host) chatSession(dir string) *chat.Session {
	h.chats.mu.Lock()
	defer h.chats.mu.Unlock()
	if st := h.chats.byDir[dir]; st != nil {
		return st.session
	}
	return nil
}

// chatFail shows a failed chat operation in the transcript.
func (h *Host) chatFail(dir, what string, err error) {
	h.log.Warn("chat: "+what, "dir", dir, "err", err)
	item := nvimapi.ChatItem{Kind: "error", Text: fmt.Sprintf("%s: %v", what, err)}
	if err := h.editor.ChatEvents(context.Background(), dir, []nvimapi.ChatItem{item}); err != nil {
		h.log.Warn("chat: render", "dir", dir, "err", err)
	}
}

// chatSendArgs are ClaudeHostChatSend's: the chat's directory, the user's text and the image
// files attached to it (:ClaudeChatAttach).
type chatSendArgs struct {
	Dir    string `msgpack:",array"`
	Text   string
	Images []string
}

// withChat runs write on dir's running chat, off the handler's goroutine and bounded by
// chatWriteTimeout; a chat that is not running, or a write that fails, is reported in its
// transcript as what failed.
func (h *Host) withChat(dir, what string, write func(context.Context, *chat.Session) error) {
	go func() {
		s := h.chatSession(dir)
		if s == nil {
			h.chatFail(dir, what, chat.ErrExited)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), chatWriteTimeout)
		defer cancel()
		if err := write(ctx, s); err != nil {
			h.chatFail(dir, what, err)
		}
	}()
}

// chatSend serves ClaudeHostChatSend (async): a user turn.
func (h *Host) chatSend(args chatSendArgs) {
	h.withChat(args.Dir, "send", func(ctx context.Context, s *chat.Session) error {
		images := make([]chat.Image, 0, len(args.Images))
		for _, path := range args.Images {
			img, err := readImage(path)
			if err != nil {
				return err
			}
			images = append(images, img)
		}
		return s.Send(ctx, args.Text, images...)
	})
}

// chatAnswerArgs are ClaudeHostChatAnswer's: the user's answer to a permission request.
type chatAnswerArgs struct {
	Dir       string `msgpack:"dir"`
	RequestID string `msgpack:"request_id"`
	Allow     bool   `msgpack:"allow"`
	// Suggestion is the 1-based index of the request's permission_suggestions entry the user
	// picked with the allow; 0 for none.
	Suggestion int    `msgpack:"suggestion"`
	Message    string `msgpack:"message"` // deny: what the model is told
	// Input replaces the tool's input on allow (the user's edit of a proposal); nil keeps it.
	Input map[string]any `msgpack:"input"`
}

// chatAnswer serves ClaudeHostChatAnswer (async).
func (h *Host) chatAnswer(all []chatAnswerArgs) {
	if len(all) == 0 {
		return
	}
	args := all[0]
	h.chats.mu.Lock()
	var s *chat.Session
	var req chat.PermissionRequest
	var ok bool
	if st := h.chats.byDir[args.Dir]; st != nil && st.session != nil {
		s = st.session
		req, ok = st.pending[args.RequestID]
		delete(st.pending, args.RequestID)
	}
	h.chats.mu.Unlock()
	if s == nil || !ok {
		h.log.Info("chat: answer to a request no longer pending", "dir", args.Dir, "request", args.RequestID)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), chatWriteTimeout)
		defer cancel()
		var err error
		if args.Allow {
			var perms []json.RawMessage
			if i := args.Suggestion; i > 0 && i <= len(req.Suggestions) {
				perms = append(perms, req.Suggestions[i-1])
			}
			var input json.RawMessage
			if args.Input != nil {
				if input, err = json.Marshal(args.Input); err != nil {
					h.chatFail(args.Dir, "allow", err)
					return
				}
			}
			err = s.Allow(ctx, args.RequestID, input, perms...)
		} else {
			err = s.Deny(ctx, args.RequestID, args.Message)
		}
		if err != nil && !errors.Is(err, chat.ErrNoSuchRequest) {
			h.chatFail(args.Dir, "answer", err)
		}
	}()
}

// chatInterrupt serves ClaudeHostChatInterrupt (async): stop the running turn.
func (h *Host) chatInterrupt(args []string) {
	if len(args) == 0 {
		return
	}
	dir := args[0]
	s := h.chatSession(dir)
	if s == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), chatWriteTimeout)
		defer cancel()
		if err := s.Interrupt(ctx); err != nil {
			h.chatFail(dir, "interrupt", err)
		}
	}()
}

// chatStop serves ClaudeHostChatStop (async): end the CLI; the transcript gets its Exited.
// The next :ClaudeChat starts a new conversation.
func (h *Host) chatStop(args []string) {
	if len(args) == 0 {
		return
	}
	dir := args[0]
	h.chats.mu.Lock()
	var s *chat.Session
	if st := h.chats.byDir[dir]; st != nil {
		s = st.session
		st.sessionID = "" // stopped on purpose: no resume
	}
	h.chats.mu.Unlock()
	if s == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), chatCloseTimeout)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			h.log.Warn("chat: close", "dir", dir, "err", err)
		}
	}()
}

// CloseChats ends every chat's CLI, for a host that is exiting with Neovim: each gets its
// stdin closed and is killed when ctx ends, so none goes on with a turn nobody sees.
func (h *Host) CloseChats(ctx context.Context) {
	h.chats.mu.Lock()
	var sessions []*chat.Session
	for _, st := range h.chats.byDir {
		if st.session != nil {
			sessions = append(sessions, st.session)
		}
	}
	h.chats.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = s.Close(ctx)
		}()
	}
	wg.Wait()
	h.closeChatMCP(ctx)
}
