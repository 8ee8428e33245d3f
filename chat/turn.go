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
