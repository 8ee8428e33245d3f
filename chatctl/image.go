package chatctl

import (
	"fmt"
	"net/http"
	"os"
	"slices"

	"github.com/claude-nvim/claude.nvim/chat"
)

// maxImageBytes is the largest image a turn takes: the API refuses bigger ones.
const maxImageBytes = 5 << 20

// imageTypes are the media types the API accepts in an image block.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// readImage reads an attached image file, its media type told by its bytes.
func readImage(path string) (chat.Image, error) {
	info, err := os.Stat(path)
	if err != nil {
		return chat.Image{}, fmt.Errorf("attach: %w", err)
	}
	if info.Size() > maxImageBytes {
		return chat.Image{}, fmt.Errorf("attach %s: %d bytes, more than the %d the API takes", path, info.Size(), maxImageBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return chat.Image{}, fmt.Errorf("attach: %w", err)
	}
	mt := http.DetectContentType(data)
	if !slices.Contains(imageTypes, mt) {
		return chat.Image{}, fmt.Errorf("attach %s: %s is no image the API takes (png, jpeg, gif, webp)", path, mt)
	}
	return chat.Image{MediaType: mt, Data: data}, nil
}
