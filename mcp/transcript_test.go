package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

var update = flag.Bool("update", false, "rewrite the expected server frames in testdata/*.txtar")

// Transcripts (testdata/*.txtar) describe protocol behaviour as data. The
// archive comment configures the server:
//
//	tools: ide test    which tools to serve (IDETools of the fake editor, testTools)
//	editor: empty      the fake editor has no file, selection, buffer or folder
//	workspace: fake    serve the variant protocol's direct methods from fakeWorkspace
//
// Each file in the archive is one session on a fresh connection, a list of
// lines:
//
//	> FRAME            send FRAME as a text frame, byte for byte (may be bad JSON)
//	>binary DATA       send DATA as a binary frame
//	< FRAME            a frame the server must send
//	# ...              comment
//
// Consecutive "<" lines after a run of ">" lines are one block: the
// server's frames for the block are compared as a set, in any order (tool
// calls answer concurrently). After sending a block the runner sends its own
// ping and reads until that ping and every tools/call of the block are
// answered, so an unexpected extra frame fails the test. -update rewrites
// the "<" lines with what the server sent.
const transcriptToken = "transcript-token"

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in testdata: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := parseArchive(data)
			url := startTranscriptServer(t, string(ar.comment))
			changed := false
			for i := range ar.files {
				f := &ar.files[i]
				t.Run(f.name, func(t *testing.T) {
					out := runSession(t, url, f.data)
					if *update && !bytes.Equal(out, f.data) {
						f.data, changed = out, true
					}
				})
			}
			if changed {
				if err := os.WriteFile(file, formatArchive(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("updated %s", file)
			}
		})
	}
}

func startTranscriptServer(t *testing.T, comment string) string {
	t.Helper()
	conf := map[string]string{}
	for _, line := range strings.Split(comment, "\n") {
		if key, val, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "#") {
			conf[strings.TrimSpace(key)] = strings.TrimSpace(val)
		}
	}
	ed := fakeEditor{empty: conf["editor"] == "empty"}
	var tools []Tool
	for _, set := range strings.Fields(conf["tools"]) {
		switch set {
		case "ide":
			tools = append(tools, IDETools(ed)...)
		case "test":
			tools = append(tools, testTools()...)
		default:
			t.Fatalf("unknown tool set %q", set)
		}
	}
	var ws Workspace
	switch conf["workspace"] {
	case "":
	case "fake":
		ws = fakeWorkspace(ed)
	default:
		t.Fatalf("unknown workspace %q", conf["workspace"])
	}
	srv, err := NewServer(Config{Token: transcriptToken, Tools: tools, Workspace: ws, Name: "claude-nvim-test",
		Version: "0.0.0-test", Logger: NewTestLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		ts.Close()
	})
	return "ws" + strings.TrimPrefix(ts.URL, "http")
}

// scriptLine is one line of a session; kind is '>', 'b' (binary), '<' or
// ' ' (comment or blank, kept as is).
type scriptLine struct {
	kind byte
	text string // the frame for '>', 'b', '<'; the whole line otherwise
}

func parseSession(data []byte) []scriptLine {
	var lines []scriptLine
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l == "" {
			continue
		}
		body := strings.TrimSuffix(l, "\n")
		switch {
		case strings.HasPrefix(body, ">binary "):
			lines = append(lines, scriptLine{'b', strings.TrimPrefix(body, ">binary ")})
		case body == ">":
			lines = append(lines, scriptLine{'>', ""})
		case strings.HasPrefix(body, "> "):
			lines = append(lines, scriptLine{'>', strings.TrimPrefix(body, "> ")})
		case strings.HasPrefix(body, "< "):
			lines = append(lines, scriptLine{'<', strings.TrimPrefix(body, "< ")})
		default:
			lines = append(lines, scriptLine{' ', body})
		}
	}
	return lines
}

// runSession plays one session and returns its text with the "<" lines
// replaced by what the server sent (used by -update).
func runSession(t *testing.T, url string, data []byte) []byte {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"mcp"}, HandshakeTimeout: 10 * time.Second}
	ws, _, err := d.Dial(url, http.Header{authHeader: {transcriptToken}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer func() {
		// Leave as the CLI does, with 1000, and wait for the server's answer.
		_ = ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				break
			}
		}
		ws.Close()
	}()

	lines := parseSession(data)
	var out []string
	for i := 0; i < len(lines); {
		// A block: ">" lines (with comments between), then "<" lines.
		var sends []scriptLine
		var want []string
		var blockOut []string
		j := i
		for ; j < len(lines) && lines[j].kind != '<'; j++ {
			if lines[j].kind == '>' || lines[j].kind == 'b' {
				sends = append(sends, lines[j])
			}
			blockOut = append(blockOut, render(lines[j]))
		}
		for ; j < len(lines) && lines[j].kind == '<'; j++ {
			want = append(want, lines[j].text)
		}
		got := exchange(t, ws, sends, fmt.Sprintf("sync-%d", i))
		if !*update {
			compareFrames(t, sends, want, got)
		} else if !sameFrames(want, got) {
			want = inSendOrder(sends, got)
		}
		for _, g := range want {
			blockOut = append(blockOut, "< "+g)
		}
		out = append(out, blockOut...)
		i = j
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

func render(l scriptLine) string {
	switch l.kind {
	case '>':
		if l.text == "" {
			return ">"
		}
		return "> " + l.text
	case 'b':
		return ">binary " + l.text
	}
	return l.text
}

// answersLater are the methods that run on a goroutine of their own and may answer after
// a later request: tools/call and the variant protocol's direct methods.
var answersLater = map[string]bool{"tools/call": true, "readFile": true, "writeFile": true, "listFiles": true,
	"getWorkspaceInfo": true, "getOpenFiles": true, "getCurrentFile": true}

// exchange sends a block and returns the server's frames for it.
func exchange(t *testing.T, ws *websocket.Conn, sends []scriptLine, syncID string) []string {
	t.Helper()
	async := map[string]bool{}
	for _, s := range sends {
		typ := websocket.TextMessage
		if s.kind == 'b' {
			typ = websocket.BinaryMessage
		}
		if err := ws.WriteMessage(typ, []byte(s.text)); err != nil {
			t.Fatalf("send %s: %v", s.text, err)
		}
		var m struct {
			ID     json.RawMessage
			Method string
		}
		if json.Unmarshal([]byte(s.text), &m) == nil && answersLater[m.Method] && validID(m.ID) {
			async[string(m.ID)] = true
		}
	}
	ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"ping"}`, syncID)
	if err := ws.WriteMessage(websocket.TextMessage, []byte(ping)); err != nil {
		t.Fatalf("send sync ping: %v", err)
	}
	var got []string
	synced := false
	// A generous bound that only turns a hang into a failure.
	_ = ws.SetReadDeadline(time.Now().Add(20 * time.Second))
	for !synced || len(async) > 0 {
		typ, data, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("read server frames (still waiting for sync=%v calls=%v; got so far %q): %v", !synced, async, got, err)
		}
		if typ != websocket.TextMessage {
			t.Fatalf("server sent a non-text frame %q", data)
		}
		var m struct{ ID json.RawMessage }
		_ = json.Unmarshal(data, &m)
		if string(m.ID) == fmt.Sprintf("%q", syncID) {
			synced = true
			continue
		}
		delete(async, string(m.ID))
		got = append(got, string(data))
	}
	return got
}

// compareFrames checks got against want as multisets of JSON values.
func compareFrames(t *testing.T, sends []scriptLine, want, got []string) {
	t.Helper()
	count := map[string]int{}
	for _, w := range want {
		count[canonical(t, w)]++
	}
	var unexpected []string
	for _, g := range got {
		k := canonical(t, g)
		if count[k] > 0 {
			count[k]--
			continue
		}
		unexpected = append(unexpected, g)
	}
	var missing []string
	for k, n := range count {
		for ; n > 0; n-- {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(unexpected) > 0 {
		var sent []string
		for _, s := range sends {
			sent = append(sent, render(s))
		}
		t.Errorf("after sending\n\t%s\nmissing frames:\n\t%s\nunexpected frames:\n\t%s",
			strings.Join(sent, "\n\t"), strings.Join(missing, "\n\t"), strings.Join(unexpected, "\n\t"))
	}
}

func sameFrames(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	count := map[string]int{}
	for _, w := range want {
		if !json.Valid([]byte(w)) {
			return false
		}
		count[canonicalJSON(w)]++
	}
	for _, g := range got {
		k := canonicalJSON(g)
		if count[k] == 0 {
			return false
		}
		count[k]--
	}
	return true
}

// inSendOrder orders the server's frames for -update so that rewriting is
// stable: answers by the position of their request, and frames without a
// request id (id-null errors) right after the frame that arrived before them.
func inSendOrder(sends []scriptLine, got []string) []string {
	pos := map[string]float64{}
	for i, s := range sends {
		var m struct{ ID json.RawMessage }
		if json.Unmarshal([]byte(s.text), &m) == nil && validID(m.ID) {
			if _, seen := pos[string(m.ID)]; !seen {
				pos[string(m.ID)] = float64(i)
			}
		}
	}
	type ranked struct {
		key   float64
		frame string
	}
	rs := make([]ranked, len(got))
	last := -1.0
	for i, g := range got {
		var m struct{ ID json.RawMessage }
		_ = json.Unmarshal([]byte(g), &m)
		if p, ok := pos[string(m.ID)]; ok {
			rs[i] = ranked{p, g}
			last = p
		} else {
			rs[i] = ranked{last + 0.5, g}
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].key < rs[j].key })
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.frame
	}
	return out
}

// canonical re-encodes a JSON value with sorted keys and exact numbers.
func canonical(t *testing.T, s string) string {
	t.Helper()
	if !json.Valid([]byte(s)) {
		t.Fatalf("expected frame is not JSON: %s", s)
	}
	return canonicalJSON(s)
}

func canonicalJSON(s string) string {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return s
	}
	return string(b)
}
