package nvimapi

import "context"

// diffChunkBytes bounds the proposal text one RPC call carries. Neovim
// decodes a call and turns its arguments into Lua values on its main loop,
// where nothing else runs meanwhile: a 5 MiB proposal in one call froze the
// editor for tens of milliseconds before diff.lua even started. In pieces
// of this size the UI and a typing user's keys are served between them.
const diffChunkBytes = 256 << 10

// chunkLines splits lines into runs of about diffChunkBytes of text each
// (a longer line makes a run of its own), in order, none empty.
func chunkLines(lines []string) [][]string {
	var chunks [][]string
	start, size := 0, 0
	for i, l := range lines {
		size += len(l) + 1
		if size >= diffChunkBytes {
			chunks = append(chunks, lines[start:i+1])
			start, size = i+1, 0
		}
	}
	if start < len(lines) {
		chunks = append(chunks, lines[start:])
	}
	return chunks
}

// stageProposal hands a proposal larger than one chunk to Neovim in
// pieces before the view opens (lua/claude/diff/large.lua keeps them for
// the view id) and reports whether it did; a smaller one travels with the
// open call as before.
func (e *Editor) stageProposal(ctx context.Context, id int, lines []string) (bool, error) {
	chunks := chunkLines(lines)
	if len(chunks) < 2 {
		return false, nil
	}
	for _, chunk := range chunks {
		if err := e.lua(ctx, nil, `return require('claude.handlers').stage_diff(...)`, id, chunk); err != nil {
			return false, err
		}
	}
	return true, nil
}
