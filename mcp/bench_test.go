package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/gorilla/websocket"
)

// The benchmarks run over real loopback sockets and report per-iteration
// latency percentiles next to ns/op: the echo benchmark is the floor that
// gorilla/websocket and the kernel set, so the difference to the tool call
// is what this package costs.

var noopTool = mcp.Tool{Name: "noop", Description: "Answer ok",
	Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) {
		return mcp.TextResult("ok"), nil
	}}

func benchServer(b *testing.B, tools []mcp.Tool) string {
	b.Helper()
	// The round-trip benchmarks skip initialize; a long -benchtime must
	// not run into the initialize deadline.
	srv, err := mcp.NewServer(mcp.Config{Token: testToken, Tools: tools, Limits: mcp.Limits{Initialize: time.Hour}})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = srv.Close(ctx)
		ts.Close()
	})
	return mcptest.WebSocketURL(ts.URL)
}

func benchDial(b *testing.B, url string) *websocket.Conn {
	b.Helper()
	ws, _, err := mcptest.DialConn(url, tokenHeader())
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// roundTrip writes one frame and reads one frame.
func roundTrip(b *testing.B, ws *websocket.Conn, frame []byte) []byte {
	if err := ws.WriteMessage(websocket.TextMessage, frame); err != nil {
		b.Fatal(err)
	}
	_, data, err := ws.ReadMessage()
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func toolCallFrame(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) +
		`,"method":"tools/call","params":{"name":"noop","arguments":{},"_meta":{"progressToken":` + strconv.Itoa(id) + `}}}`)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	b.ReportMetric(us(lat[len(lat)/2]), "p50-µs")
	b.ReportMetric(us(lat[len(lat)*99/100]), "p99-µs")
}

func BenchmarkToolCallRoundTrip(b *testing.B) {
	ws := benchDial(b, benchServer(b, []mcp.Tool{noopTool}))
	defer ws.Close()
	timeRoundTrips(b, ws, func(resp []byte) {
		if len(resp) < 20 || resp[len(resp)-2] != '}' {
			b.Fatalf("unexpected answer %s", resp)
		}
	})
}

// timeRoundTrips sends b.N tool calls on ws one at a time, hands each
// answer to check, and reports the round trips' percentiles.
func timeRoundTrips(b *testing.B, ws *websocket.Conn, check func(resp []byte)) {
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame := toolCallFrame(i)
		start := time.Now()
		resp := roundTrip(b, ws, frame)
		lat[i] = time.Since(start)
		check(resp)
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

func BenchmarkWebSocketEchoRoundTrip(b *testing.B) {
	up := websocket.Upgrader{Subprotocols: []string{"mcp"}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			typ, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if err := ws.WriteMessage(typ, data); err != nil {
				return
			}
		}
	}))
	defer ts.Close()
	ws := benchDial(b, mcptest.WebSocketURL(ts.URL))
	defer ws.Close()
	timeRoundTrips(b, ws, func([]byte) {})
}

func BenchmarkHandshakeInitializeToolsList(b *testing.B) {
	url := benchServer(b, mcp.IDETools(nil))
	initialize := []byte(`{"id":0,"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"elicitation":{},"roots":{}},"clientInfo":{"name":"claude-code","version":"2.1.197"}}}`)
	initialized := []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	toolsList := []byte(`{"id":1,"jsonrpc":"2.0","method":"tools/list"}`)
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		ws := benchDial(b, url)
		roundTrip(b, ws, initialize)
		if err := ws.WriteMessage(websocket.TextMessage, initialized); err != nil {
			b.Fatal(err)
		}
		if resp := roundTrip(b, ws, toolsList); len(resp) < 1000 {
			b.Fatalf("short tools/list answer %s", resp)
		}
		lat[i] = time.Since(start)
		_ = ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		ws.Close()
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkHTTPToolCallRoundTrip is the chat's way to a tool: one POST per
// call on a kept-alive connection to HTTPEndpoint.Serve.
func BenchmarkHTTPToolCallRoundTrip(b *testing.B) {
	url := serveHTTPEndpoint(b, mcp.HTTPConfig{Tools: []mcp.Tool{noopTool}, Logger: slog.New(slog.DiscardHandler)})
	client := &http.Client{}
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req, _ := http.NewRequest("POST", url, bytes.NewReader(toolCallFrame(i)))
		req.Header.Set("Authorization", "Bearer "+testToken)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		lat[i] = time.Since(start)
		if err != nil || res.StatusCode != http.StatusOK || !bytes.HasSuffix(body, []byte(`"text":"ok"}]}}`)) {
			b.Fatalf("call %d: %d %s %v", i, res.StatusCode, body, err)
		}
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}
