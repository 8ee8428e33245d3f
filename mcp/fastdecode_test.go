package mcp

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// transcriptFrames is every frame the transcripts in testdata send.
func transcriptFrames(tb testing.TB) [][]byte {
	tb.Helper()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no transcripts: %v", err)
	}
	var frames [][]byte
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		for _, sf := range parseArchive(data).files {
			for _, l := range parseSession(sf.data) {
				if l.kind == '>' || l.kind == 'b' {
					frames = append(frames, []byte(l.text))
				}
			}
		}
	}
	return frames
}

func sameMessage(a, b message) bool {
	return a.kind == b.kind && a.method == b.method && a.err == nil && b.err == nil &&
		bytes.Equal(a.id, b.id) && bytes.Equal(a.params, b.params)
}

// FuzzFastDecodeAgrees holds the fast path to the general one: whatever it
// accepts, encoding/json must read the same way, and tools/call's params
// likewise.
func FuzzFastDecodeAgrees(f *testing.F) {
	for _, frame := range transcriptFrames(f) {
		f.Add(frame)
	}
	for _, s := range fastCases {
		f.Add([]byte(s.frame))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := fastDecode(data)
		if !ok {
			return
		}
		if general := decodeGeneral(data); !sameMessage(fast, general) {
			t.Fatalf("%q: fast %+v, general %+v", data, fast, general)
		}
		if fast.params == nil {
			return
		}
		name, args, ok := fastCallParams(fast.params)
		if !ok {
			return
		}
		gName, gArgs, werr := callParams(fast.params)
		if werr != nil || name != gName || !bytes.Equal(args, gArgs) {
			t.Fatalf("%q: fast params %q %s, general %q %s %v", fast.params, name, args, gName, gArgs, werr)
		}
	})
}

var fastCases = []struct {
	frame string
	fast  bool // takes the fast path
}{
	// What the CLI sends, key order and all.
	{`{"method":"tools/call","params":{"name":"getDiagnostics","arguments":{"uri":"file:///a/b.go"}},"jsonrpc":"2.0","id":7}`, true},
	{`{"method":"notifications/initialized","jsonrpc":"2.0"}`, true},
	{`{"method":"ide_connected","params":{"pid":4242},"jsonrpc":"2.0"}`, true},
	{` {"jsonrpc": "2.0", "id": "a-1", "method": "ping"} ` + "\n", true},
	{`{"jsonrpc":"2.0","id":-3,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}`, true},
	// The general way's: anything unusual.
	{`{"jsonrpc":"2.0","ID":1,"method":"ping"}`, false},                              // encoding/json matches keys case-insensitively
	{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, false},                       // a duplicate
	{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, false},                           // -32600
	{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, false},                            // not an integer
	{`{"jsonrpc":"2.0","id":01,"method":"ping"}`, false},                             // not JSON
	{`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`, false},                         // an escape
	{`{"jsonrpc":"2.0","id":1,"method":"pi\u006eg"}`, false},                         // an escape
	{`{"jsonrpc":"2.0","id":1,"method":""}`, false},                                  // -32600
	{`{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}`, false},                    // array params
	{`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":tru}}`, false},              // -32700
	{`{"jsonrpc":"2.0","id":1,"method":"x"} {}`, false},                              // -32700
	{`{"jsonrpc":"2.0","id":1,"method":"x",}`, false},                                // -32700
	{`{"jsonrpc":"1.0","id":1,"method":"x"}`, false},                                 // -32600
	{`{"id":1,"method":"x"}`, false},                                                 // -32600
	{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},                                  // a response
	{`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"` + "\x01" + `"}}`, false}, // -32700
}

// The fast path must carry the CLI's own frames (else it is dead weight)
// and must leave every unusual one to encoding/json.
func TestFastDecodeTakesOnlyThePlainRequest(t *testing.T) {
	for _, c := range fastCases {
		fast, ok := fastDecode([]byte(c.frame))
		if ok != c.fast {
			t.Errorf("fastDecode(%s) took the fast path: %v, want %v", c.frame, ok, c.fast)
			continue
		}
		if ok && !sameMessage(fast, decodeGeneral([]byte(c.frame))) {
			t.Errorf("fastDecode(%s) = %+v; encoding/json reads %+v", c.frame, fast, decodeGeneral([]byte(c.frame)))
		}
	}
	taken := 0
	frames := transcriptFrames(t)
	for _, frame := range frames {
		if _, ok := fastDecode(frame); ok {
			taken++
		}
	}
	if taken < len(frames)/2 {
		t.Errorf("the fast path took %d of the transcripts' %d frames; the well-formed ones should take it", taken, len(frames))
	}
	for _, p := range []string{`{"name":"getOpenEditors","arguments":{}}`, `{"name":"getOpenEditors"}`, `{"arguments":{},"name":"x"}`} {
		if _, _, ok := fastCallParams([]byte(p)); !ok {
			t.Errorf("fastCallParams(%s) fell back; it is the CLI's shape", p)
		}
	}
	for _, p := range []string{`{"name":"x","arguments":null}`, `{"name":"x","Arguments":{}}`, `{"name":"x","name":"y"}`, `{"name":1}`, `{}`} {
		if _, _, ok := fastCallParams([]byte(p)); ok {
			t.Errorf("fastCallParams(%s) took the fast path; encoding/json must read it", p)
		}
	}
}
