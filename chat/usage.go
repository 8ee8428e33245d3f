package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// Usage of the session and of the account (get_usage, both CLIs; doc.go): what the CLI
// process has spent since it started (a resumed conversation starts again from zero), and
// the account's plan windows where the CLI reports them (a claude.ai sign-in; none with an
// API key).

// SessionUsage is get_usage's answer.
type SessionUsage struct {
	CostUSD      float64
	APIDuration  time.Duration
	Duration     time.Duration
	LinesAdded   int
	LinesRemoved int
	Models       []ModelUsage // by model, the most costly first
	// Plan is the claude.ai subscription ("pro", "max", …); "" for an API key or a provider.
	Plan string
	// Limits are the plan's windows the CLI reports (none when LimitsAvailable is false).
	LimitsAvailable bool
	Limits          []Limit
}

// ModelUsage is one model's share of a session.
type ModelUsage struct {
	Model                                 string
	Input, Output, CacheRead, CacheCreate int
	CostUSD                               float64
}

// Limit is one window of the account's plan: how much of it is used (a percentage; -1 when
// the CLI does not know) and when it starts again ("" when not said).
type Limit struct {
	Name     string // "5-hour", "7-day", "7-day Opus", …
	Percent  float64
	ResetsAt string
}

type limitWire struct {
	Utilization *float64 `json:"utilization"`
	ResetsAt    *string  `json:"resets_at"`
}

// Usage asks the CLI for its usage (get_usage with skip_behaviors: the scan of a week of
// transcripts it would otherwise make is not needed; detached, 2.1.332: a message sent
// meanwhile does not wait for the answer).
func (s *Process) Usage(ctx context.Context) (*SessionUsage, error) {
	raw, err := s.ctl.request(ctx, "get_usage", map[string]any{"skip_behaviors": true, "detached": true})
	if err != nil {
		return nil, err
	}
	return decodeUsage(raw)
}

// decodeUsage reads get_usage's answer.
func decodeUsage(raw json.RawMessage) (*SessionUsage, error) {
	var r struct {
		Session struct {
			TotalCostUSD       float64 `json:"total_cost_usd"`
			TotalAPIDurationMS float64 `json:"total_api_duration_ms"`
			TotalDurationMS    float64 `json:"total_duration_ms"`
			LinesAdded         int     `json:"total_lines_added"`
			LinesRemoved       int     `json:"total_lines_removed"`
			ModelUsage         map[string]struct {
				Input       int     `json:"inputTokens"`
				Output      int     `json:"outputTokens"`
				CacheRead   int     `json:"cacheReadInputTokens"`
				CacheCreate int     `json:"cacheCreationInputTokens"`
				CostUSD     float64 `json:"costUSD"`
			} `json:"model_usage"`
		} `json:"session"`
		SubscriptionType    *string `json:"subscription_type"`
		RateLimitsAvailable bool    `json:"rate_limits_available"`
		RateLimits          *struct {
			FiveHour    *limitWire `json:"five_hour"`
			SevenDay    *limitWire `json:"seven_day"`
			SevenOpus   *limitWire `json:"seven_day_opus"`
			SevenSonnet *limitWire `json:"seven_day_sonnet"`
			ModelScoped []struct {
				DisplayName string `json:"display_name"`
				limitWire
			} `json:"model_scoped"`
		} `json:"rate_limits"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("get_usage: decode response: %w", err)
	}
	ses := r.Session
	u := &SessionUsage{
		CostUSD: ses.TotalCostUSD, LinesAdded: ses.LinesAdded, LinesRemoved: ses.LinesRemoved,
		APIDuration:     time.Duration(ses.TotalAPIDurationMS * float64(time.Millisecond)),
		Duration:        time.Duration(ses.TotalDurationMS * float64(time.Millisecond)),
		LimitsAvailable: r.RateLimitsAvailable,
	}
	if r.SubscriptionType != nil {
		u.Plan = *r.SubscriptionType
	}
	for name, m := range ses.ModelUsage {
		u.Models = append(u.Models, ModelUsage{Model: name, Input: m.Input, Output: m.Output, CacheRead: m.CacheRead, CacheCreate: m.CacheCreate, CostUSD: m.CostUSD})
	}
	sort.Slice(u.Models, func(i, j int) bool {
		if u.Models[i].CostUSD != u.Models[j].CostUSD {
			return u.Models[i].CostUSD > u.Models[j].CostUSD
		}
		return u.Models[i].Model < u.Models[j].Model
	})
	if rl := r.RateLimits; rl != nil {
		add := func(name string, w *limitWire) {
			if w == nil {
				return
			}
			l := Limit{Name: name, Percent: -1}
			if w.Utilization != nil {
				l.Percent = *w.Utilization
			}
			if w.ResetsAt != nil {
				l.ResetsAt = *w.ResetsAt
			}
			u.Limits = append(u.Limits, l)
		}
		add("5-hour", rl.FiveHour)
		add("7-day", rl.SevenDay)
		add("7-day Opus", rl.SevenOpus)
		add("7-day Sonnet", rl.SevenSonnet)
		for _, m := range rl.ModelScoped {
			add("7-day "+m.DisplayName, &m.limitWire)
		}
	}
	return u, nil
}

// Tokens are the session's tokens in (input, cache reads and writes) and out, all models.
func (u *SessionUsage) Tokens() (in, out int) {
	for _, m := range u.Models {
		in += m.Input + m.CacheRead + m.CacheCreate
		out += m.Output
	}
	return in, out
}
