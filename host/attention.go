package host

import (
	"context"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/attention"
	"github.com/claude-nvim/claude.nvim/chatctl"
	"github.com/claude-nvim/claude.nvim/hooks"
)

// pushTimeout bounds one push of the attention list to Lua; a Neovim that does not answer in
// that time gets the next batch instead (Take keeps nothing back: the next change of a
// session sends it whole).
const pushTimeout = 10 * time.Second

// attentionList is the host's part of the attention list: the board (package attention) and
// the goroutine that pushes its changes to Lua, started by the first change.
type attentionList struct {
	board  *attention.Board
	pusher sync.Once
}

// attentionChanged starts the pusher the first time anything changed. Lazy: Register may
// start no goroutine.
func (h *Host) attentionChanged() {
	if h.editor == nil {
		return
	}
	h.attention.pusher.Do(func() { go h.pushAttention() })
}

// pushAttention sends each batch of changed sessions to Lua in one call. It waits on the
// board's signal: nothing is polled, and a burst of hooks while a push is under way goes
// in the next one.
func (h *Host) pushAttention() {
	for range h.attention.board.Changes() {
		changed := h.attention.board.Take()
		if len(changed) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), pushTimeout)
		if err := h.editor.Attention(ctx, changed); err != nil {
			h.log.Warn("attention: push", "err", err)
		}
		cancel()
	}
}

// attentionHook is the hook bus's handler for the attention list: a terminal CLI's events
// move its session (the board ignores the others). Quick: it only updates the board.
func (h *Host) attentionHook(ctx context.Context, e hooks.Event) hooks.Reply {
	h.attention.board.Hook(e)
	h.attentionChanged()
	return hooks.Reply{}
}

// observeChat moves a chat's session from what its transcript is shown (chatctl's
// Options.Observe): it runs on the chat's goroutines and only updates the board.
func (h *Host) observeChat(dir string, items []chatctl.Item) {
	b := h.attention.board
	for _, it := range items {
		switch it.Kind {
		case "user":
			b.ChatSent(dir, it.Text)
		case "init":
			b.ChatConversation(dir, it.SessionID)
		case "text", "thinking", "tool", "result", "block_end": // not "status": the CLI may send one after the end
			b.ChatWorking(dir)
		case "permission":
			b.ChatWaits(dir, waitKind(it))
		case "answered", "cancelled":
			b.ChatAnswered(dir)
		case "end":
			b.ChatDone(dir)
		case "exited":
			b.ChatExited(dir)
		}
	}
	h.attentionChanged()
}

// waitKind says what a chat's permission item asks of the user.
func waitKind(it chatctl.Item) string {
	switch {
	case len(it.Questions) > 0:
		return attention.KindQuestion
	case it.Plan != "":
		return attention.KindPlan
	case it.Review:
		return attention.KindDiff
	}
	return attention.KindPermission
}

// attentionArgs are ClaudeHostAttention's: what the user did ("here": the cursor entered
// the window of session Key, "" for none of ours).
type attentionArgs struct {
	What string `msgpack:",array"`
	Key  string
}

// attentionFromLua serves ClaudeHostAttention (async).
func (h *Host) attentionFromLua(args attentionArgs) {
	switch args.What {
	case "here":
		h.attention.board.Here(args.Key)
	case "gone":
		h.attention.board.Gone(args.Key)
	default:
		h.log.Warn("attention: unknown report from Lua", "what", args.What)
		return
	}
	h.attentionChanged()
}
