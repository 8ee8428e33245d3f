package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// SideText is the answer to side requests that do not ask for structured output.
const SideText = "OK"

var messageSeq atomic.Int64

// usage is what an answer claims to have cost unless its turn says otherwise (Turn.Usage):
// the CLI displays it and takes the context window's fill from it.
var usage = map[string]int{
	"input_tokens":                10,
	"output_tokens":               5,
	"cache_creation_input_tokens": 0,
	"cache_read_input_tokens":     0,
}

// thinkingSignature stands in for the API's opaque signature of a thinking block; the CLI only
// stores it and sends it back.
const thinkingSignature = "ZmFrZWFwaS1zaWduYXR1cmU="

// pacing says how a streamed answer is cut and slowed down; see Turn.Chunk and Turn.Delay.
type pacing struct {
	chunk int
	delay time.Duration
	sent  func(delta string) // Turn.Sent
	usage *Usage             // Turn.Usage; nil: the default usage
}

// usageOf is the API's usage object for u, the default one for nil.
func usageOf(u *Usage) map[string]int {
	if u == nil {
		return usage
	}
	return map[string]int{
		"input_tokens": u.Input, "output_tokens": u.Output,
		"cache_read_input_tokens": u.CacheRead, "cache_creation_input_tokens": u.CacheCreation,
	}
}

// split cuts s into pieces of at most p.chunk bytes, never inside a UTF-8 sequence.
func (p pacing) split(s string) []string {
	if p.chunk <= 0 || len(s) <= p.chunk {
		return []string{s}
	}
	var out []string
	for len(s) > p.chunk {
		n := p.chunk
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 { // a chunk smaller than one rune: take the whole rune
			_, n = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// writeMessage answers a Messages request with the given assistant content: server-sent events
// when the request asked for a stream, one JSON message otherwise. A streamed answer stops
// early when ctx ends (the client went away).
func writeMessage(ctx context.Context, w http.ResponseWriter, req *MessagesBody, content []Block, pace pacing) {
	stop := "end_turn"
	for _, b := range content {
		if b.Type == "tool_use" {
			stop = "tool_use"
		}
	}
	id := fmt.Sprintf("msg_fakeapi_%06d", messageSeq.Add(1))
	usage := usageOf(pace.usage)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	deltas := 0
	event := func(name string, data map[string]any) {
		if name == "content_block_delta" {
			if deltas > 0 && pace.delay > 0 {
				select {
				case <-time.After(pace.delay):
				case <-ctx.Done():
				}
			}
			deltas++
		}
		if ctx.Err() != nil {
			return
		}
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	for i, b := range content {
		switch b.Type {
		case "thinking":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
			for _, part := range pace.split(b.Thinking) {
				event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "thinking_delta", "thinking": part}})
			}
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "signature_delta", "signature": b.Signature}})
		case "text":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, part := range pace.split(b.Text) {
				event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": part}})
				if pace.sent != nil && ctx.Err() == nil {
					pace.sent(part)
				}
			}
		case "tool_use":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
				"type": "input_json_delta", "partial_json": string(b.Input)}})
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": usage["output_tokens"]},
	})
	event("message_stop", map[string]any{})
}

// sideContent is the canned answer to a side request. When it asks for JSON matching a schema
// (the session title does), the answer is the smallest object with the required properties.
func sideContent(req *MessagesBody) []Block {
	text := SideText
	if oc := req.OutputConfig; oc != nil && oc.Format != nil && oc.Format.Type == "json_schema" {
		if b, err := json.Marshal(sampleOf(oc.Format.Schema)); err == nil {
			text = string(b)
		}
	}
	return []Block{{Type: "text", Text: text}}
}

// sampleOf builds a value that satisfies a simple JSON schema: strings become "e2e".
func sampleOf(schema json.RawMessage) any {
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Enum       []any                      `json:"enum"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "object":
		obj := map[string]any{}
		for _, name := range s.Required {
			obj[name] = sampleOf(s.Properties[name])
		}
		return obj
	case "array":
		return []any{}
	case "string":
		return "e2e"
	case "boolean":
		return false
	case "number", "integer":
		return 0
	}
	return nil
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"type": "error", "error": map[string]string{"type": typ, "message": msg},
	})
}

// apiError is the error type and message a failing turn answers with: its own, else what the
// real API says for its status (docs.anthropic.com, "Errors").
func apiError(t Turn) (typ, msg string) {
	typ, msg = t.ErrorType, t.ErrorMessage
	var defType, defMsg string
	switch t.Fail {
	case http.StatusBadRequest:
		defType, defMsg = "invalid_request_error", "Invalid request"
	case http.StatusUnauthorized:
		defType, defMsg = "authentication_error", "invalid x-api-key"
	case http.StatusForbidden:
		defType, defMsg = "permission_error", "Your API key does not have permission to use the specified resource."
	case http.StatusNotFound:
		defType, defMsg = "not_found_error", "The requested resource could not be found."
	case http.StatusRequestEntityTooLarge:
		defType, defMsg = "request_too_large", "Request exceeds the maximum allowed number of bytes."
	case http.StatusTooManyRequests:
		defType, defMsg = "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"
	case 529:
		defType, defMsg = "overloaded_error", "Overloaded"
	default:
		defType, defMsg = "api_error", "Internal server error"
	}
	if typ == "" {
		typ = defType
	}
	if msg == "" {
		msg = defMsg
	}
	return typ, msg
}
