package chatctl

import (
	"context"
	"fmt"

	"github.com/claude-nvim/claude.nvim/chat"
)

// Usage (issue 39 item 3): the tokens and cost of the chat's CLI, and the account's plan
// windows where the CLI reports them (get_usage), in the winbar's context meter after each
// turn and in :Claude chat usage.

// UsageReporter reports the agent's usage: the Claude CLI (chat.Process).
type UsageReporter interface {
	Usage(ctx context.Context) (*chat.SessionUsage, error)
}

// UsageItem is a "usage" item's Usage: the whole answer, for :Claude chat usage's list.
type UsageItem struct {
	CostUSD       float64      `msgpack:"cost_usd"`
	APIMS         int64        `msgpack:"api_ms"`
	WallMS        int64        `msgpack:"wall_ms"`
	LinesAdded    int          `msgpack:"lines_added"`
	LinesRemoved  int          `msgpack:"lines_removed"`
	Models        []ModelUsage `msgpack:"models"`
	Plan          string       `msgpack:"plan"`
	LimitsKnown   bool         `msgpack:"limits_known"`
	Limits        []PlanLimit  `msgpack:"limits"`
	TokensIn      int          `msgpack:"tokens_in"`
	TokensOut     int          `msgpack:"tokens_out"`
	ContextTokens int          `msgpack:"context_tokens"`
	ContextMax    int          `msgpack:"context_max"`
}

// ModelUsage is one model's share (chat.ModelUsage).
type ModelUsage struct {
	Model       string  `msgpack:"model"`
	Input       int     `msgpack:"input"`
	Output      int     `msgpack:"output"`
	CacheRead   int     `msgpack:"cache_read"`
	CacheCreate int     `msgpack:"cache_create"`
	CostUSD     float64 `msgpack:"cost_usd"`
}

// PlanLimit is one window of the account's plan (chat.Limit; Percent -1: not known).
type PlanLimit struct {
	Name     string  `msgpack:"name"`
	Percent  float64 `msgpack:"percent"`
	ResetsAt string  `msgpack:"resets_at"`
}

func usageItem(u *chat.SessionUsage) *UsageItem {
	it := &UsageItem{
		CostUSD: u.CostUSD, APIMS: u.APIDuration.Milliseconds(), WallMS: u.Duration.Milliseconds(),
		LinesAdded: u.LinesAdded, LinesRemoved: u.LinesRemoved, Plan: u.Plan, LimitsKnown: u.LimitsAvailable,
		Models: []ModelUsage{}, Limits: []PlanLimit{},
	}
	it.TokensIn, it.TokensOut = u.Tokens()
	for _, m := range u.Models {
		it.Models = append(it.Models, ModelUsage{Model: m.Model, Input: m.Input, Output: m.Output, CacheRead: m.CacheRead, CacheCreate: m.CacheCreate, CostUSD: m.CostUSD})
	}
	for _, l := range u.Limits {
		it.Limits = append(it.Limits, PlanLimit{Name: l.Name, Percent: l.Percent, ResetsAt: l.ResetsAt})
	}
	return it
}

// meter is the plan window nearest its end, for the winbar ("5-hour 34%"); "" when none is
// reported.
func meter(u *chat.SessionUsage) string {
	best := -1.0
	out := ""
	for _, l := range u.Limits {
		if l.Percent > best {
			best, out = l.Percent, fmt.Sprintf("%s %.0f%%", l.Name, l.Percent)
		}
	}
	return out
}

// UsageShow serves ClaudeHostChatUsage (async; the chat's directory): the running CLI's
// usage as a "usage" item (Usage; Text what went wrong).
func (c *Controller) UsageShow(args []string) {
	if len(args) == 0 || args[0] == "" {
		return
	}
	dir := args[0]
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), contextTimeout)
		defer cancel()
		it := Item{Kind: "usage"}
		proc := c.running(dir)
		r, ok := proc.(UsageReporter)
		switch {
		case proc == nil:
			it.Text = "no chat CLI runs: send a message first"
		case !ok:
			it.Text = "this chat's agent does not report its usage"
		}
		if it.Text != "" {
			c.show(ctx, dir, it)
			return
		}
		u, err := r.Usage(ctx)
		if err != nil {
			it.Text = err.Error()
			c.show(ctx, dir, it)
			return
		}
		it.Usage = usageItem(u)
		if cu, err := proc.ContextUsage(ctx); err == nil {
			it.Usage.ContextTokens, it.Usage.ContextMax = cu.Tokens, cu.MaxTokens
		}
		c.show(ctx, dir, it)
	}()
}
