package chatctl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnAttachedFileMustBeAnImageTheAPITakes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gif := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	for _, tc := range []struct {
		name, path, want, err string
	}{
		{"a gif is sent as image/gif", write("a.gif", gif), "image/gif", ""},
		{"a text file is refused", write("a.txt", []byte("hello")), "", "is no image the API takes"},
		{"a file over 5 MiB is refused", write("big.png", make([]byte, maxImageBytes+1)), "", "more than the"},
		{"a missing file is refused", filepath.Join(dir, "none.png"), "", "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := readImage(tc.path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("readImage(%s) = %v, want an error with %q", tc.path, err, tc.err)
				}
				return
			}
			if err != nil || img.MediaType != tc.want {
				t.Errorf("readImage(%s) = %q, %v; want %s", tc.path, img.MediaType, err, tc.want)
			}
		})
	}
}
