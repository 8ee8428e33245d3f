package chat

import (
	"context"
	"encoding/json"
	"fmt"
)

// FileSuggestions asks the CLI for the files an @-mention of query completes to
// (file_suggestions, both CLIs): the fuzzy-ranked list its own @ typeahead shows, paths
// relative to the workspace (a directory ends in "/"). The CLI builds its file index on the
// first request and answers that one with none (doc.go).
func (s *Process) FileSuggestions(ctx context.Context, query string) ([]string, error) {
	raw, err := s.ctl.request(ctx, "file_suggestions", map[string]any{"query": query})
	if err != nil {
		return nil, err
	}
	var r struct {
		Suggestions []struct {
			Path string `json:"path"`
		} `json:"suggestions"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("file_suggestions: decode response: %w", err)
	}
	out := make([]string, 0, len(r.Suggestions))
	for _, sg := range r.Suggestions {
		out = append(out, sg.Path)
	}
	return out, nil
}
