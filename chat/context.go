package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// The context window and the effort: how full the conversation is, its compactions, and
// how hard the model thinks (checked against 2.1.332 and 2.1.197; see doc.go).

// Compacted is a compaction of the conversation (the CLI's system/compact_boundary): /compact
// sent as a message (Trigger "manual") or the CLI's own near the end of the window ("auto").
// The model goes on from a summary; PreTokens is how full the window was before (the last
// answer's usage), PostTokens after, as the CLI reports them (0: not said).
type Compacted struct {
	Trigger    string
	PreTokens  int
	PostTokens int
}

func (Compacted) event() {}

// ContextUsage is the CLI's answer to get_context_usage: how full the model's context window
// is. After a turn Tokens is the last request's input as the API counted it (cache reads and
// writes included); before the first turn, and right after a compaction, the CLI's own
// estimate.
type ContextUsage struct {
	Tokens    int    `json:"totalTokens"`
	MaxTokens int    `json:"maxTokens"`
	Percent   int    `json:"percentage"` // rounded by the CLI
	Model     string `json:"model"`
	// AutoCompactAt is the fill at which the CLI compacts by itself.
	AutoCompactAt int `json:"autoCompactThreshold"`
}

// ContextUsage asks the CLI how full the context window is.
func (s *Process) ContextUsage(ctx context.Context) (ContextUsage, error) {
	raw, err := s.ctl.request(ctx, "get_context_usage", nil)
	if err != nil {
		return ContextUsage{}, err
	}
	var u ContextUsage
	if err := json.Unmarshal(raw, &u); err != nil {
		return ContextUsage{}, fmt.Errorf("get_context_usage: decode response: %w", err)
	}
	return u, nil
}

// EffortLevels are the effort levels the CLI takes (--effort, settings effortLevel), least
// first. A model may support fewer (initialize's supportedEffortLevels).
var EffortLevels = []string{"low", "medium", "high", "xhigh", "max"}

// ErrUnknownEffort is SetEffort given a level not in EffortLevels: the CLI would take it
// without a word and go on with its default.
var ErrUnknownEffort = errors.New("unknown effort level")

// SetEffort sets the effort of the next requests (the API request's output_config.effort),
// as the settings' effortLevel would, through apply_flag_settings; "" goes back to the CLI's
// default (the model's, or the user's settings).
func (s *Process) SetEffort(ctx context.Context, level string) error {
	var value any // null removes the flag setting
	if level != "" {
		if !slices.Contains(EffortLevels, level) {
			return fmt.Errorf("effort %q: %w", level, ErrUnknownEffort)
		}
		value = level
	}
	_, err := s.ctl.request(ctx, "apply_flag_settings", map[string]any{"settings": map[string]any{"effortLevel": value}})
	return err
}

// Effort is the effort the CLI applies to the next request (get_settings' applied.effort),
// whichever setting chose it; "" when it does not say.
func (s *Process) Effort(ctx context.Context) (string, error) {
	raw, err := s.ctl.request(ctx, "get_settings", nil)
	if err != nil {
		return "", err
	}
	var r struct {
		Applied struct {
			Effort string `json:"effort"`
		} `json:"applied"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("get_settings: decode response: %w", err)
	}
	return r.Applied.Effort, nil
}
