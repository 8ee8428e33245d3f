package mcp_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// startHTTP serves an HTTPEndpoint with testToken and cfg's tools on an
// httptest server; it returns the endpoint's URL.
func startHTTP(t *testing.T, cfg mcp.HTTPConfig) string {
	t.Helper()
	if cfg.Token == "" {
		cfg.Token = testToken
	}
	if cfg.Logger == nil {
		cfg.Logger = mcp.NewTestLogger(t)
	}
	e, err := mcp.NewHTTPEndpoint(cfg)
	if err != nil {
		t.Fatalf("NewHTTPEndpoint: %v", err)
	}
	ts := httptest.NewServer(e)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// serveHTTPEndpoint serves an HTTPEndpoint as the host does, with Serve on
// a listener of its own (which applies the listener limits and the raw
// socket calls; httptest would not), until the test ends. It returns the
// endpoint's URL.
func serveHTTPEndpoint(t testing.TB, cfg mcp.HTTPConfig) string {
	t.Helper()
	cfg.Token = testToken
	if cfg.Logger == nil {
		cfg.Logger = mcp.NewTestLogger(t)
	}
	e, err := mcp.NewHTTPEndpoint(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- e.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		if err := e.Close(ctx); err != nil {
			t.Error(err)
		}
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// httpReply is what a client got for one request.
type httpReply struct {
	status int
	header http.Header
	body   string
}

// post sends body to url the way the CLI does (with the bearer token and
// its Accept header), then applies edit to the request.
func post(t *testing.T, url, method, body string, edit func(*http.Request)) httpReply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if edit != nil {
		edit(req)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, short(body), err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read the answer: %v", method, short(body), err)
	}
	if res.Close {
		// net/http's client moves Connection: close out of the header.
		res.Header.Set("Connection", "close")
	}
	return httpReply{res.StatusCode, res.Header, string(b)}
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func header(k, v string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(k, v) }
}

func TestTheHTTPEndpointAnswersWithTheStatusesOfStreamableHTTP(t *testing.T) {
	url := startHTTP(t, mcp.HTTPConfig{Tools: []mcp.Tool{echoTool}})
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct {
		name, method, body string
		edit               func(*http.Request)
		status             int
		want               string // in the body
		wantHeader         [2]string
	}{
		{"a request without the token is refused with 401 and its connection closed", "POST", ping,
			func(r *http.Request) { r.Header.Del("Authorization") }, 401, "", [2]string{"Connection", "close"}},
		{"another token is refused with 401", "POST", ping, header("Authorization", "Bearer nope"), 401, "", [2]string{"Connection", "close"}},
		{"the token without its scheme is refused", "POST", ping, header("Authorization", testToken), 401, "", [2]string{}},
		{"the token in the WebSocket's header is refused", "POST", ping,
			func(r *http.Request) { r.Header.Del("Authorization"); r.Header.Set(mcptest.TokenHeader, testToken) }, 401, "", [2]string{}},
		{"a web page is refused with 403 even with the token", "POST", ping, header("Origin", "http://127.0.0.1"), 403, "", [2]string{"Connection", "close"}},
		{"a Host that is not loopback is refused with 403 even with the token", "POST", ping,
			func(r *http.Request) { r.Host = "evil.example" }, 403, "", [2]string{"Connection", "close"}},
		{"a GET for a server stream is 405 naming POST", "GET", "", nil, 405, "", [2]string{"Allow", "POST"}},
		{"a DELETE of a session is 405 naming POST", "DELETE", "", nil, 405, "", [2]string{"Allow", "POST"}},
		{"a protocol version we do not answer is 400", "POST", ping, header("MCP-Protocol-Version", "1999-01-01"), 400, "", [2]string{}},
		{"a protocol version we answer is served", "POST", ping, header("MCP-Protocol-Version", "2025-06-18"), 200,
			`{"jsonrpc":"2.0","id":1,"result":{}}`, [2]string{"Content-Type", "application/json"}},
		{"a body over 1 MiB is 413", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`,
			nil, 413, "", [2]string{"Connection", "close"}},
		{"initialize echoes a version it knows", "POST",
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","clientInfo":{"name":"claude-code"}}}`, nil, 200,
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{"tools":{"listChanged":false}},"serverInfo":{"name":"claude.nvim","version":"dev"}}}`,
			[2]string{"Content-Type", "application/json"}},
		{"initialize answers an unknown version with the newest", "POST",
			`{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}}`, nil, 200,
			`"protocolVersion":"2025-11-25"`, [2]string{}},
		{"a notification is 202 with no body", "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil, 202, "", [2]string{}},
		{"a response from the client is 202 with no body", "POST", `{"jsonrpc":"2.0","id":7,"result":{}}`, nil, 202, "", [2]string{}},
		{"tools/list lists the tools", "POST", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil, 200, `{"tools":[{"name":"echo"`, [2]string{}},
		{"tools/call answers with the tool's result", "POST",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, nil, 200,
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}`, [2]string{}},
		{"an unknown tool is -32602", "POST", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"openDiff"}}`, nil, 200,
			`{"code":-32602,"message":"invalid params: unknown tool: openDiff"}`, [2]string{}},
		{"a missing required argument is -32602", "POST", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, nil, 200,
			`"code":-32602`, [2]string{}},
		{"an unknown method is -32601", "POST", `{"jsonrpc":"2.0","id":6,"method":"sampling/createMessage"}`, nil, 200, `"code":-32601`, [2]string{}},
		{"bad JSON is -32700 with a null id", "POST", `{"jsonrpc":`, nil, 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700`, [2]string{}},
		{"invalid UTF-8 is -32700", "POST", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":\"\xff\"}}", nil, 200, `"code":-32700`, [2]string{}},
		{"a batch is one -32600", "POST", `[` + ping + `,` + ping + `]`, nil, 200,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are not supported"}}`, [2]string{}},
		{"a request with the wrong jsonrpc is -32600", "POST", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, nil, 200, `"id":8,"error":{"code":-32600`, [2]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := post(t, url, tc.method, tc.body, tc.edit)
			if got.status != tc.status || !strings.Contains(got.body, tc.want) {
				t.Errorf("%s %s: got %d %s, want %d with %s", tc.method, short(tc.body), got.status, short(got.body), tc.status, tc.want)
			}
			if k, v := tc.wantHeader[0], tc.wantHeader[1]; k != "" && got.header.Get(k) != v {
				t.Errorf("%s %s: header %s = %q, want %q", tc.method, short(tc.body), k, got.header.Get(k), v)
			}
			if tc.status == 202 && got.body != "" {
				t.Errorf("%s: 202 with body %q, want none", short(tc.body), got.body)
			}
		})
	}
}

func TestAToolPanicOverHTTPIsInternalErrorAndTheEndpointServesOn(t *testing.T) {
	url := startHTTP(t, mcp.HTTPConfig{Tools: []mcp.Tool{panicTool, echoTool}})
	got := post(t, url, "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"panic"}}`, nil)
	if want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error in tool panic"}}`; got.status != 200 || got.body != want {
		t.Errorf("a panicking tool: got %d %s, want 200 %s", got.status, got.body, want)
	}
	got = post(t, url, "POST", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`, nil)
	if !strings.Contains(got.body, `"text":"still here"`) {
		t.Errorf("the call after the panic: got %d %s", got.status, got.body)
	}
}

// A tool call ends when its client goes: the call's context is the
// request's.
func TestAClientThatHangsUpCancelsItsHTTPCall(t *testing.T) {
	b := newBlocker()
	url := serveHTTPEndpoint(t, mcp.HTTPConfig{Tools: []mcp.Tool{b.tool()}})
	ctx, hangUp := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", url,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`))
	req.Header.Set("Authorization", "Bearer "+testToken)
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	recv(t, b.started, "the call to start")
	hangUp()
	if err := recv(t, b.finished, "the call to be cancelled"); err != context.Canceled {
		t.Errorf("the call ended with %v, want context.Canceled", err)
	}
	recv(t, done, "the client to return")
}

// The host closes the endpoint whenever the editor quits, which may be
// before its goroutine has called Serve: that is no error, and the
// listener is not left open.
func TestServeAfterCloseReturnsAtOnceAndClosesTheListener(t *testing.T) {
	e, err := mcp.NewHTTPEndpoint(mcp.HTTPConfig{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(context.Background()); err != nil {
		t.Fatalf("Close before Serve: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Serve(ln); err != nil {
		t.Errorf("Serve after Close: %v, want nil", err)
	}
	if nc, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		nc.Close()
		t.Errorf("the listener at %s still accepts after Serve returned", ln.Addr())
	}
}
