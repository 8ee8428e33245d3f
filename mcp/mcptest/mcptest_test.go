package mcptest_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

func TestNotificationsAreBufferedPerMethodInOrder(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Config{Token: "tok", ListenDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = srv.Close(ctx)
		ts.Close()
	})
	c := mcptest.Dial(t, ts.URL, "tok")
	c.Initialize()

	for i := range 3 {
		srv.Notify("a", map[string]int{"n": i})
		srv.Notify("b", map[string]int{"n": i})
	}
	// Wait for the last one first: everything before it must still be kept.
	for _, want := range []struct{ method, params string }{
		{"b", `{"n":0}`}, {"b", `{"n":1}`}, {"b", `{"n":2}`},
		{"a", `{"n":0}`}, {"a", `{"n":1}`}, {"a", `{"n":2}`},
	} {
		got, err := c.WaitNotification(want.method, 20*time.Second)
		if err != nil || string(got) != want.params {
			t.Errorf("WaitNotification(%q) = %s, %v; want %s", want.method, got, err, want.params)
		}
	}
	if _, err := c.Call("no/such/method", nil); err == nil {
		t.Errorf("Call of an unknown method succeeded")
	}
}
