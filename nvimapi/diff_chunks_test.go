package nvimapi

import (
	"slices"
	"strings"
	"testing"
)

func TestChunkLines(t *testing.T) {
	long := strings.Repeat("x", diffChunkBytes+10)
	line := strings.Repeat("y", 99) // 100 bytes with its newline
	many := slices.Repeat([]string{line}, 3*diffChunkBytes/100)
	tests := []struct {
		name   string
		lines  []string
		chunks int
	}{
		{"no lines make no chunk", nil, 0},
		{"a small proposal is one chunk", []string{"a", "b"}, 1},
		{"a line longer than a chunk is a chunk of its own", []string{"a", long, "b"}, 2},
		{"three chunks' worth of lines make three", many, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := chunkLines(tt.lines)
			if len(chunks) != tt.chunks {
				t.Errorf("chunkLines(%d lines) made %d chunks, want %d", len(tt.lines), len(chunks), tt.chunks)
			}
			var joined []string
			for i, c := range chunks {
				if len(c) == 0 {
					t.Errorf("chunk %d is empty", i)
				}
				size := 0
				for _, l := range c[:len(c)-1] {
					size += len(l) + 1
				}
				if size >= diffChunkBytes {
					t.Errorf("chunk %d holds %d bytes before its last line, want under %d", i, size, diffChunkBytes)
				}
				joined = append(joined, c...)
			}
			if !slices.Equal(joined, tt.lines) && len(tt.lines) > 0 {
				t.Errorf("the chunks of %d lines joined give %d lines, not the same", len(tt.lines), len(joined))
			}
		})
	}
}
