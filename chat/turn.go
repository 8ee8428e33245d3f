package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Image is an image to attach to a turn, e.g. a PNG file's bytes.
type Image struct {
	MediaType string // image/png, image/jpeg, image/gif or image/webp
	Data      []byte // raw bytes; sent base64-encoded
}

// ErrEmptyTurn is Send with neither text nor images.
var ErrEmptyTurn = errors.New("empty turn")

// Send starts a user turn (or queues it: the CLI takes turns one after the other). Images
// come after the text, as the API's base64 image blocks. A slash command ("/compact") is
// sent as text.
func (s *Process) Send(ctx context.Context, text string, images ...Image) error {
	return s.SendAs(ctx, "", text, images...)
}

// SendAs is Send with the message's id (a UUID; "" for none). A CLI that knows queued
// messages (2.1.332) then reports the message's fate by that id as MessageState events:
// queued while a turn runs, started when a turn takes it in, completed or cancelled; and
// Withdraw can take it back while it waits.
func (s *Process) SendAs(ctx context.Context, id, text string, images ...Image) error {
	var blocks []outBlock
	if text != "" {
		blocks = append(blocks, outBlock{Type: "text", Text: text})
	}
	for _, im := range images {
		blocks = append(blocks, outBlock{Type: "image", Source: &imageSource{Type: "base64", MediaType: im.MediaType, Data: im.Data}})
	}
	if len(blocks) == 0 {
		return fmt.Errorf("send: %w", ErrEmptyTurn)
	}
	// Counted before closing is read, as Close sets closing before it reads the count: a
	// Send racing Close is either refused here or seen by Close as a turn to stop.
	s.turns.Add(1)
	if id != "" {
		s.unstarted.sent(id)
	}
	undo := func() {
		s.endTurn()
		if id != "" {
			s.unstarted.forget(id)
		}
	}
	if s.closing.Load() {
		undo()
		return fmt.Errorf("send: %w", ErrClosing)
	}
	err := s.in.writeJSON(ctx, userLine{Type: "user", UUID: id, Message: userMessage{Role: "user", Content: blocks}})
	if err != nil {
		undo()
		return fmt.Errorf("send: %w", err)
	}
	return nil
}

// Withdraw takes back a message sent with SendAs that waits in the CLI's queue
// (cancel_async_message). It reports whether the CLI withdrew it: false once a turn took it
// in. A CLI that knows no such request answers with an error.
func (s *Process) Withdraw(ctx context.Context, id string) (bool, error) {
	raw, err := s.ctl.request(ctx, "cancel_async_message", map[string]any{"message_uuid": id})
	if err != nil {
		return false, fmt.Errorf("withdraw %s: %w", id, err)
	}
	var r struct {
		Cancelled bool `json:"cancelled"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return false, fmt.Errorf("withdraw %s: decode answer: %w", id, err)
	}
	if r.Cancelled {
		s.unstarted.forget(id)
		if !s.lifecycle.Load() {
			// A CLI without command_lifecycle lines (2.1.197) says nothing more of it:
			// the turn it was counted as never comes.
			s.endTurn()
		}
	}
	return r.Cancelled, nil
}

// Tell gives the model text within the turn that runs, without starting one: the CLI hands a
// user message that arrives mid-turn to the model with its next request ("The user sent a new
// message while you were working: …"), after the tool results. Sent while a permission
// request waits, it reaches the model with that tool's result. It counts as no turn, so a CLI
// exiting later is not taken to have died mid-turn for it.
func (s *Process) Tell(ctx context.Context, text string) error {
	if text == "" {
		return fmt.Errorf("tell: %w", ErrEmptyTurn)
	}
	err := s.in.writeJSON(ctx, userLine{Type: "user", Message: userMessage{Role: "user", Content: []outBlock{{Type: "text", Text: text}}}})
	if err != nil {
		return fmt.Errorf("tell: %w", err)
	}
	return nil
}
