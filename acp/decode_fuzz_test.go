package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// FuzzDecode: whatever the agent writes, the decoder classifies it without panicking, an
// invalid message gets an error answer that is valid JSON-RPC, and an update (or the head
// of a line too long to read) decodes or comes back raw. Seeded with the real agent's lines
// and broken ones.
func FuzzDecode(f *testing.F) {
	if file, err := os.Open("testdata/claude-agent-acp-0.101.0.jsonl"); err == nil {
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f.Add(bytes.Clone(sc.Bytes())) // Bytes is overwritten by the next Scan
		}
		file.Close()
	}
	for _, s := range []string{
		``, `{`, `[]`, `null`, `42`, `"x"`, `{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","id":null,"method":"m"}`,
		`{"jsonrpc":"2.0","id":{},"method":"m"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":7}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","method":"m","params":3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m := decode(line)
		switch m.kind {
		case kindInvalid:
			if m.rpcErr == nil {
				t.Fatalf("invalid %q without an error", line)
			}
			if ans := encodeError(m.id, m.rpcErr); !json.Valid(ans) {
				t.Fatalf("the answer to %q is not JSON: %s", line, ans)
			}
		case kindRequest, kindNotification:
			if m.method == "" {
				t.Fatalf("%q decoded without a method", line)
			}
			if m.method == "session/update" && m.params != nil {
				var p struct {
					Update json.RawMessage `json:"update"`
				}
				if json.Unmarshal(m.params, &p) == nil && p.Update != nil {
					if u := decodeUpdate(p.Update); u == nil {
						t.Fatalf("no update from %q", line)
					}
				}
			}
		}
		readHead(line)
	})
}
