package chat

import (
	"reflect"
	"testing"
	"time"
)

// The plan's windows come only with a claude.ai sign-in, which the API stand-in cannot give;
// this is get_usage's answer in the shape 2.1.332's schema gives it.
func TestGetUsageIsReadWithThePlansWindows(t *testing.T) {
	const answer = `{"session":{"total_cost_usd":0.25,"total_api_duration_ms":1500,"total_duration_ms":9000,
		"total_lines_added":3,"total_lines_removed":1,"model_usage":{
		"claude-haiku-4-5":{"inputTokens":10,"outputTokens":5,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.01},
		"claude-opus-5-5":{"inputTokens":100,"outputTokens":50,"cacheReadInputTokens":20,"cacheCreationInputTokens":7,"costUSD":0.24}}},
		"subscription_type":"max","rate_limits_available":true,
		"rate_limits":{"five_hour":{"utilization":34.5,"resets_at":"2026-11-28T15:00:00Z"},"seven_day":{"utilization":null,"resets_at":null},
		"model_scoped":[{"display_name":"Fable","utilization":80,"resets_at":"2026-12-01T00:00:00Z"}]},"behaviors":null}`
	got, err := decodeUsage([]byte(answer))
	if err != nil {
		t.Fatal(err)
	}
	want := &SessionUsage{
		CostUSD: 0.25, APIDuration: 1500 * time.Millisecond, Duration: 9 * time.Second, LinesAdded: 3, LinesRemoved: 1,
		Models: []ModelUsage{
			{Model: "claude-opus-5-5", Input: 100, Output: 50, CacheRead: 20, CacheCreate: 7, CostUSD: 0.24},
			{Model: "claude-haiku-4-5", Input: 10, Output: 5, CostUSD: 0.01},
		},
		Plan: "max", LimitsAvailable: true,
		Limits: []Limit{{Name: "5-hour", Percent: 34.5, ResetsAt: "2026-11-28T15:00:00Z"}, {Name: "7-day", Percent: -1}, {Name: "7-day Fable", Percent: 80, ResetsAt: "2026-12-01T00:00:00Z"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeUsage =\n%+v\nwant\n%+v", got, want)
	}
	if in, out := got.Tokens(); in != 137 || out != 55 {
		t.Errorf("Tokens() = %d in, %d out; want 137, 55", in, out)
	}
}
