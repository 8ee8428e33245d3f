// Package acptest is a scripted ACP agent for testing the client in package acp: the test
// (or a helper process it starts) plays the agent's side line by line, asserting what the
// client sends and sending what a real agent would, or what a broken one would (bad JSON,
// unknown methods, huge updates, an early exit).
package acptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Msg is one message the client sent.
type Msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	// Line is the message as it came, without its newline.
	Line string `json:"-"`
}

// IsResponse says whether the message answers one of the agent's requests.
func (m Msg) IsResponse() bool { return m.Method == "" && (m.Result != nil || m.Error != nil) }

// Param decodes one member of the params, for assertions; nil when absent.
func (m Msg) Param(name string) any {
	var p map[string]any
	if json.Unmarshal(m.Params, &p) != nil {
		return nil
	}
	return p[name]
}

// Peer is the agent's end of a connection.
type Peer struct {
	r    *bufio.Reader
	fail func(msg string)

	wmu sync.Mutex
	w   io.Writer

	nextID int
}

// New plays the agent on r (what the client writes) and w (what it reads). fail is called
// when the client does not do what the script expects; it must not return (t.Fatal from
// the test's goroutine, runtime.Goexit after t.Error from another, os.Exit in a helper
// process).
func New(r io.Reader, w io.Writer, fail func(msg string)) *Peer {
	return &Peer{r: bufio.NewReaderSize(r, 1<<20), w: w, fail: fail}
}

func (p *Peer) failf(format string, args ...any) {
	p.fail(fmt.Sprintf(format, args...))
	panic("acptest: fail returned")
}

// Read is the next message the client sends.
func (p *Peer) Read() Msg {
	line, err := p.r.ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		p.failf("acptest: reading from the client: %v", err)
	}
	line = bytes.TrimRight(line, "\r\n")
	var m Msg
	if err := json.Unmarshal(line, &m); err != nil {
		p.failf("acptest: the client sent a line that is not JSON (%v): %.300q", err, line)
	}
	m.Line = string(line)
	return m
}

// Expect is the next message, which must be the request or notification method.
func (p *Peer) Expect(method string) Msg {
	m := p.Read()
	if m.Method != method {
		p.failf("acptest: the client sent %.300s; want %s", m.Line, method)
	}
	return m
}

// ExpectResponse is the next message, which must answer the agent's request id.
func (p *Peer) ExpectResponse(id int) Msg {
	m := p.Read()
	if !m.IsResponse() || string(m.ID) != fmt.Sprint(id) {
		p.failf("acptest: the client sent %.300s; want the answer to request %d", m.Line, id)
	}
	return m
}

// EOF waits for the client to close its end (the agent's stdin).
func (p *Peer) EOF() {
	line, err := p.r.ReadBytes('\n')
	if !errors.Is(err, io.EOF) || len(line) > 0 {
		p.failf("acptest: want the end of the client's output, got %.300q (%v)", line, err)
	}
}

// Send writes one line as it is (it may be anything, valid JSON or not).
func (p *Peer) Send(line string) {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		p.failf("acptest: writing to the client: %v", err)
	}
}

// SendJSON writes v as one line.
func (p *Peer) SendJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		p.failf("acptest: %v", err)
	}
	p.Send(string(b))
}

// Reply answers the client's request m.
func (p *Peer) Reply(m Msg, result any) {
	p.SendJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// ReplyError answers the client's request m with an error.
func (p *Peer) ReplyError(m Msg, code int, message string) {
	p.SendJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": code, "message": message}})
}

// Notify sends a notification.
func (p *Peer) Notify(method string, params any) {
	p.SendJSON(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Update sends a session/update.
func (p *Peer) Update(sessionID string, update any) {
	p.Notify("session/update", map[string]any{"sessionId": sessionID, "update": update})
}

// Request sends a request to the client and returns its id (the agent's ids count from 0,
// as claude-agent-acp's do); read the answer with ExpectResponse.
func (p *Peer) Request(method string, params any) int {
	id := p.nextID
	p.nextID++
	p.SendJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

// Initialize answers the client's initialize with result, and returns the request.
func (p *Peer) Initialize(result any) Msg {
	m := p.Expect("initialize")
	p.Reply(m, result)
	return m
}

// NewSession answers the client's session/new with sessionID.
func (p *Peer) NewSession(sessionID string) Msg {
	m := p.Expect("session/new")
	p.Reply(m, map[string]any{"sessionId": sessionID})
	return m
}

// Capabilities is an initialize answer offering session/load, list, resume and close, as
// claude-agent-acp 0.101.0 does.
func Capabilities() map[string]any {
	return map[string]any{
		"protocolVersion": 1,
		"agentCapabilities": map[string]any{
			"loadSession":         true,
			"promptCapabilities":  map[string]any{"image": true, "embeddedContext": true},
			"sessionCapabilities": map[string]any{"list": map[string]any{}, "resume": map[string]any{}, "close": map[string]any{}},
		},
		"authMethods": []any{},
		"agentInfo":   map[string]any{"name": "acptest", "version": "0"},
	}
}

// Baseline is an initialize answer with none of the optional methods.
func Baseline() map[string]any {
	return map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}}
}
