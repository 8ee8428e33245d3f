package acpchat

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/chat"
)

// turn is the prompt the agent works on.
type turn struct {
	id     string // the controller's id of the message ("" when it gave none)
	cancel context.CancelFunc
}

// queued is a message sent while a turn ran: ACP has one prompt at a time per session, so
// it waits here for the next turn (and can be withdrawn until then).
type queued struct {
	id     string
	prompt []acp.ContentBlock
}

// TurnHook, when set, sees each turn start ("UserPromptSubmit", before the prompt is sent)
// and end ("Stop", at the prompt's answer): the change ledger's before and after
// snapshots. It runs on the turn's goroutine; what it returns at the start goes to the
// agent ahead of the prompt (the note of a revert).
type TurnHook func(event string, sessionID, prompt string) string

// SendAs sends a user turn; while one runs it waits, queued, for its end (a "queued"
// MessageState), as the CLI's do.
func (b *Backend) SendAs(ctx context.Context, id, text string, images ...chat.Image) error {
	if text == "" && len(images) == 0 {
		return chat.ErrEmptyTurn
	}
	prompt := []acp.ContentBlock{}
	for _, im := range images {
		prompt = append(prompt, acp.Image(im.MediaType, base64.StdEncoding.EncodeToString(im.Data)))
	}
	if text != "" {
		prompt = append(prompt, acp.Text(text))
	}
	select {
	case <-b.done:
		return chat.ErrExited
	default:
	}
	b.mu.Lock()
	if b.closing {
		b.mu.Unlock()
		return chat.ErrExited
	}
	if b.turn != nil {
		b.waiting = append(b.waiting, queued{id: id, prompt: prompt})
		b.mu.Unlock()
		if id != "" {
			b.q.put(chat.MessageState{ID: id, State: "queued"})
		}
		return nil
	}
	b.startLocked(queued{id: id, prompt: prompt})
	b.mu.Unlock()
	return nil
}

// startLocked runs a turn in the background; called with b.mu held and no turn running.
func (b *Backend) startLocked(m queued) {
	ctx, cancel := context.WithCancel(context.Background())
	b.turn = &turn{id: m.id, cancel: cancel}
	b.turns.Add(1)
	go func() {
		defer b.turns.Done()
		b.run(ctx, m)
	}()
}

// run is one turn: the prompt and its answer, then the next queued message.
func (b *Backend) run(ctx context.Context, m queued) {
	if m.id != "" {
		b.q.put(chat.MessageState{ID: m.id, State: "started"})
	}
	end := b.prompt(ctx, m)
	b.q.put(end)
	if m.id != "" {
		b.q.put(chat.MessageState{ID: m.id, State: "completed"})
	}
	b.mu.Lock()
	b.turn.cancel()
	b.turn = nil
	if len(b.waiting) > 0 && !b.closing {
		next := b.waiting[0]
		b.waiting = b.waiting[1:]
		b.startLocked(next)
	}
	b.mu.Unlock()
}

// prompt sends m and returns how its turn ended.
func (b *Backend) prompt(ctx context.Context, m queued) chat.TurnEnd {
	sid, err := b.sessionID(ctx)
	if err != nil {
		return chat.TurnEnd{Subtype: "error_during_execution", IsError: true, Errors: []string{err.Error()}}
	}
	note := b.takeNotes() // what the user kept of the last turn's edits
	if b.opts.Turns != nil {
		note += b.opts.Turns("UserPromptSubmit", sid, blocksText(m.prompt))
		defer b.opts.Turns("Stop", sid, "")
	}
	if note != "" {
		m.prompt = append([]acp.ContentBlock{acp.Text(note)}, m.prompt...)
	}
	res, err := b.agent.Prompt(ctx, sid, m.prompt)
	if err != nil {
		var exit *acp.ExitError
		if errors.As(err, &exit) {
			// The transcript hears of the exit itself (watch).
			return chat.TurnEnd{Subtype: "error_during_execution", IsError: true, Errors: []string{b.name() + " exited mid-turn"}, SessionID: sid}
		}
		return chat.TurnEnd{Subtype: "error_during_execution", IsError: true, Errors: []string{err.Error()}, SessionID: sid}
	}
	end := chat.TurnEnd{Subtype: "success", SessionID: sid}
	switch res.StopReason {
	case "end_turn":
	case "cancelled":
		end.Subtype, end.IsError, end.Interrupted = "error_during_execution", true, true
		// What the Claude CLI writes for an interrupt, shown the same way.
		b.q.put(chat.UserText{Text: "[Request interrupted by user]"})
	default: // max_tokens, max_turn_requests, refusal
		end.Subtype, end.IsError = "error_"+res.StopReason, true
		end.Errors = []string{fmt.Sprintf("the turn stopped: %s", res.StopReason)}
	}
	return end
}

func blocksText(bs []acp.ContentBlock) string {
	for _, b := range bs {
		if b.Type == "text" {
			return b.Text
		}
	}
	return ""
}

// Withdraw drops a message still queued here; false when a turn took it already.
func (b *Backend) Withdraw(ctx context.Context, id string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, m := range b.waiting {
		if m.id == id {
			b.waiting = append(b.waiting[:i:i], b.waiting[i+1:]...)
			b.q.put(chat.MessageState{ID: id, State: "cancelled"})
			return true, nil
		}
	}
	return false, nil
}

// Interrupt cancels the running turn (session/cancel; its pending permissions are answered
// "cancelled"). The messages queued behind it stay queued, as the CLI's do.
func (b *Backend) Interrupt(ctx context.Context) error {
	b.mu.Lock()
	running, sid := b.turn != nil, b.session
	b.mu.Unlock()
	if !running || sid == "" {
		return nil
	}
	return b.agent.Cancel(ctx, sid)
}
