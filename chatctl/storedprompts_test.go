package chatctl

import (
	"slices"
	"testing"
)

// A resumed conversation's stored prompts are older than any the chat sent since it started:
// a rewind to one of them must name the newest as seen, so they go first; a chat that moved
// to another conversation meanwhile is left alone.
func TestStoredPromptsGoBeforeThoseSentSinceTheChatStarted(t *testing.T) {
	dc := &dirChat{dir: "/w", conversation: "conv", prompts: map[string]string{"m1": "live"}, sentOrder: []string{"live"}}
	c := &Controller{chats: map[string]*dirChat{"/w": dc}}
	c.knowStoredPrompts("/w", "conv", []string{"s1", "s2"})
	if want := []string{"s1", "s2", "live"}; !slices.Equal(dc.sentOrder, want) {
		t.Errorf("sentOrder = %v, want %v", dc.sentOrder, want)
	}
	if dc.prompts["r:s1"] != "s1" || dc.prompts["r:s2"] != "s2" || dc.prompts["m1"] != "live" {
		t.Errorf("prompts = %v, want r:s1, r:s2 and m1 known", dc.prompts)
	}
	_, u, later := c.promptOf("/w", "r:s1")
	if u != "s1" || !slices.Equal(later, []string{"s2", "live"}) {
		t.Errorf("promptOf(r:s1) = %q, later %v; want s1, later [s2 live]", u, later)
	}

	c.knowStoredPrompts("/w", "another", []string{"x"})
	if _, ok := dc.prompts["r:x"]; ok || len(dc.sentOrder) != 3 {
		t.Errorf("the prompts of a conversation the chat no longer shows were taken: %v %v", dc.prompts, dc.sentOrder)
	}
}
