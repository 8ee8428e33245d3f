package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary frames to the decoder, seeded with every frame
// the transcripts send. Whatever comes in, decode must not panic and must
// classify it consistently with the JSON-RPC rules.
func FuzzDecode(f *testing.F) {
	for _, frame := range transcriptFrames(f) {
		f.Add(frame)
	}
	f.Add([]byte(" \t\r\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":null}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		m := decode(data)
		switch m.kind {
		case kindInvalid:
			if m.err == nil {
				t.Fatalf("decode(%q): invalid without an error", data)
			}
			switch m.err.Code {
			case CodeParseError:
				if json.Valid(data) {
					t.Fatalf("decode(%q): valid JSON reported as a parse error", data)
				}
				if m.id != nil {
					t.Fatalf("decode(%q): parse error must answer id null, got %s", data, m.id)
				}
			case CodeInvalidRequest:
				if !json.Valid(data) {
					t.Fatalf("decode(%q): invalid JSON reported as -32600, want -32700", data)
				}
			default:
				t.Fatalf("decode(%q): error code %d, want -32700 or -32600", data, m.err.Code)
			}
			if m.id != nil && !validID(m.id) {
				t.Fatalf("decode(%q): error echoes id %s, not a string or number", data, m.id)
			}
			if out := encodeError(m.id, m.err); !json.Valid(out) {
				t.Fatalf("decode(%q): error response is not JSON: %s", data, out)
			}
		case kindRequest, kindNotification:
			if !json.Valid(data) {
				t.Fatalf("decode(%q): invalid JSON accepted as a message", data)
			}
			if m.method == "" {
				t.Fatalf("decode(%q): message without a method", data)
			}
			if m.params != nil && m.params[0] != '{' && m.params[0] != '[' {
				t.Fatalf("decode(%q): params %s are not structured", data, m.params)
			}
			if m.kind == kindNotification && m.id != nil {
				t.Fatalf("decode(%q): notification with id %s", data, m.id)
			}
			if m.kind == kindRequest {
				if !validID(m.id) {
					t.Fatalf("decode(%q): request id %s", data, m.id)
				}
				if out := encodeResult(m.id, json.RawMessage(`{}`)); !json.Valid(out) {
					t.Fatalf("decode(%q): response is not JSON: %s", data, out)
				}
			}
		case kindResponse:
			if !json.Valid(data) {
				t.Fatalf("decode(%q): invalid JSON taken for a response", data)
			}
		default:
			t.Fatalf("decode(%q): unknown kind %d", data, m.kind)
		}
	})
}

func TestDecodeClassifiesMessages(t *testing.T) {
	tests := []struct {
		name   string
		frame  string
		kind   kind
		code   int
		id     string
		method string
	}{
		{"a request keeps its id byte for byte", `{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, kindRequest, 0, "1e2", "ping"},
		{"a string id is kept with its quotes", ` {"jsonrpc":"2.0","id":"x","method":"ping"}`, kindRequest, 0, `"x"`, "ping"},
		{"a message without id is a notification", `{"jsonrpc":"2.0","method":"n"}`, kindNotification, 0, "", "n"},
		{"null params count as absent", `{"jsonrpc":"2.0","method":"n","params":null}`, kindNotification, 0, "", "n"},
		{"a result without method is a response", `{"jsonrpc":"2.0","id":3,"result":null}`, kindResponse, 0, "3", ""},
		{"bad JSON is a parse error", `{"jsonrpc"`, kindInvalid, CodeParseError, "", ""},
		{"a batch is an invalid request", `[1]`, kindInvalid, CodeInvalidRequest, "", ""},
		{"a wrong version echoes the id", `{"jsonrpc":"2","id":"a","method":"m"}`, kindInvalid, CodeInvalidRequest, `"a"`, ""},
		{"a boolean id answers id null", `{"jsonrpc":"2.0","id":false,"method":"m"}`, kindInvalid, CodeInvalidRequest, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := decode([]byte(tt.frame))
			code := 0
			if m.err != nil {
				code = m.err.Code
			}
			if m.kind != tt.kind || code != tt.code || string(m.id) != tt.id || m.method != tt.method {
				t.Errorf("decode(%s) = kind %d code %d id %q method %q; want kind %d code %d id %q method %q",
					tt.frame, m.kind, code, m.id, m.method, tt.kind, tt.code, tt.id, tt.method)
			}
		})
	}
}

func TestIDKeyEquatesSpellingsOfTheSameID(t *testing.T) {
	a, _ := idKey(json.RawMessage(`"ab"`))
	b, _ := idKey(json.RawMessage(`"\u0061b"`))
	n, _ := idKey(json.RawMessage(`1`))
	s, _ := idKey(json.RawMessage(`"1"`))
	if a != b {
		t.Errorf(`idKey("ab") = %q, idKey("\u0061b") = %q; want equal`, a, b)
	}
	if n == s {
		t.Errorf(`idKey(1) = idKey("1") = %q; want different`, n)
	}
	if _, ok := idKey(json.RawMessage(`null`)); ok || strings.Contains(a, `"`) {
		t.Errorf("idKey(null) accepted or key %q kept quotes", a)
	}
}
