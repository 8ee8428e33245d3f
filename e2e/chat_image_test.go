package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

func TestAnImageAttachedWithClaudeChatAttachReachesTheModel(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("A red square."))
	t.Cleanup(s.logTranscript)
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(0, 0, color.RGBA{R: 0xff, A: 0xff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.env.Project, "square.png")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openChat()
	s.nv.Cmd("ClaudeChatAttach square.png")
	s.chatSend("What is in this picture?")
	s.waitChat("> [image: square.png]")
	s.waitChat("A red square.")
	req := s.chatRequest(1)
	var images int
	for _, m := range req.Messages.Messages {
		for _, b := range m.Content {
			if m.Role == "user" && b.Type == "image" {
				images++
			}
		}
	}
	if images != 1 {
		t.Errorf("the model got %d image blocks, want the attached one", images)
	}
}
