package chat

import (
	"context"
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
	s.turns.Add(1)
	err := s.in.writeJSON(ctx, userLine{Type: "user", Message: userMessage{Role: "user", Content: blocks}})
	if err != nil {
		s.endTurn()
		return fmt.Errorf("send: %w", err)
	}
	return nil
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
