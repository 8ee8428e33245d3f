package fakeapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// A main request as the CLI shapes it: tools offered, the prompt in a user message and the
// editor context in a following role "system" message with string content.
const mainBody = `{"model":"claude-opus-4-8","stream":true,"max_tokens":64000,
 "system":[{"type":"text","text":"You are Claude Code"}],
 "tools":[{"name":"Read"},{"name":"Edit"}],
 "messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>date</system-reminder>"},{"type":"text","text":"fix it"}]},
  {"role":"system","content":"The user selected the lines 2 to 3 from /p/f.txt:\ntwo\nthr\n\nThis may or may not be related to the current task."}]}`

// The session-title request: no tools, structured output.
const titleBody = `{"model":"claude-haiku-4-5-20251001","stream":true,"max_tokens":32000,"tools":[],
 "messages":[{"role":"user","content":[{"type":"text","text":"<session>\nfix it\n</session>"}]}],
 "output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"],"additionalProperties":false}}}}`

func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages?beta=true", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sseEvents decodes a stream into its data objects.
func sseEvents(t *testing.T, stream string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stream))
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				t.Fatalf("bad event data %q: %v", data, err)
			}
			out = append(out, m)
		}
	}
	return out
}

func TestSideRequestsGetACannedAnswerAndConsumeNoTurn(t *testing.T) {
	api := fakeapi.New(t, fakeapi.Read("/p/f.txt"), fakeapi.Say("done"))

	title := sseEvents(t, post(t, api.URL(), titleBody))
	if got := title[2]["delta"].(map[string]any)["text"]; got != `{"title":"e2e"}` {
		t.Errorf("title answer = %v, want the smallest object matching its schema", got)
	}

	first := sseEvents(t, post(t, api.URL(), mainBody))
	var types []string
	for _, e := range first {
		types = append(types, e["type"].(string))
	}
	if got, want := strings.Join(types, " "), "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"; got != want {
		t.Errorf("first main answer events = %q, want %q", got, want)
	}
	block := first[1]["content_block"].(map[string]any)
	if block["type"] != "tool_use" || block["name"] != "Read" {
		t.Errorf("first main answer block = %v, want a Read tool_use (the title must not have taken it)", block)
	}
	if got := first[2]["delta"].(map[string]any)["partial_json"]; got != `{"file_path":"/p/f.txt"}` {
		t.Errorf("tool input = %v", got)
	}
	if got := first[4]["delta"].(map[string]any)["stop_reason"]; got != "tool_use" {
		t.Errorf("stop_reason = %v, want tool_use", got)
	}

	second := sseEvents(t, post(t, api.URL(), mainBody))
	if got := second[4]["delta"].(map[string]any)["stop_reason"]; got != "end_turn" {
		t.Errorf("second stop_reason = %v, want end_turn", got)
	}
	if n := api.Remaining(); n != 0 {
		t.Errorf("Remaining = %d, want 0", n)
	}
	kinds := ""
	for _, r := range api.Requests() {
		kinds += r.Kind.String() + " "
	}
	if kinds != "side main main " {
		t.Errorf("recorded kinds = %q, want side main main", kinds)
	}
}

func TestNextMainWaitsAndShowsTheContextSent(t *testing.T) {
	api := fakeapi.New(t, fakeapi.Say("hi"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	go http.Post(api.URL()+"/v1/messages", "application/json", strings.NewReader(mainBody))
	req, err := api.NextMain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fix it", "The user selected the lines 2 to 3 from /p/f.txt:\ntwo\nthr"} {
		if got := req.LastUserText(); !strings.Contains(got, want) {
			t.Errorf("LastUserText() = %q, want it to contain %q", got, want)
		}
	}
	if got := req.SystemText(); got != "You are Claude Code" {
		t.Errorf("SystemText() = %q", got)
	}

	short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	if _, err := api.NextMain(short); err == nil {
		t.Error("NextMain returned although no second main request came")
	}
}

func TestNonStreamingAndOtherEndpoints(t *testing.T) {
	api := fakeapi.New(t, fakeapi.Edit("/p/f.txt", "a", "b"))
	var msg struct {
		Content []struct {
			Type  string          `json:"type"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
	}
	body := strings.Replace(mainBody, `"stream":true`, `"stream":false`, 1)
	if err := json.Unmarshal([]byte(post(t, api.URL(), body)), &msg); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Name != "Edit" || msg.StopReason != "tool_use" {
		t.Errorf("non-streaming answer = %+v, want one Edit tool_use", msg)
	}

	resp, err := http.Head(api.URL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD / = %d, want 200", resp.StatusCode)
	}
	resp, err = http.Post(api.URL()+"/v1/messages/count_tokens", "application/json", strings.NewReader(mainBody))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"input_tokens":`) {
		t.Errorf("count_tokens answer = %s", b)
	}
}

func TestThinkingChunksAndDelay(t *testing.T) {
	api := fakeapi.New(t, fakeapi.Turn{Thinking: "hmm", Text: "héllo wörld", Chunk: 2, Delay: time.Millisecond})
	events := sseEvents(t, post(t, api.URL(), mainBody))
	var thinking, text, sig string
	deltas := 0
	for _, e := range events {
		if e["type"] != "content_block_delta" {
			continue
		}
		d := e["delta"].(map[string]any)
		switch d["type"] {
		case "thinking_delta":
			thinking += d["thinking"].(string)
		case "signature_delta":
			sig = d["signature"].(string)
		case "text_delta":
			piece := d["text"].(string)
			if !utf8.ValidString(piece) || len(piece) > 2 {
				t.Errorf("text delta %q: want at most 2 bytes, cut between runes", piece)
			}
			text += piece
			deltas++
		}
	}
	if thinking != "hmm" || sig == "" || text != "héllo wörld" {
		t.Errorf("thinking %q, signature %q, text %q", thinking, sig, text)
	}
	if deltas != 8 { // "h" "é" "ll" "o " "w" "ö" "rl" "d"
		t.Errorf("text came in %d deltas, want 8", deltas)
	}
	if first := events[1]["content_block"].(map[string]any); first["type"] != "thinking" {
		t.Errorf("first block = %v, want thinking", first)
	}
}

func TestADelayedStreamStopsWhenTheClientGoesAway(t *testing.T) {
	api := fakeapi.New(t, fakeapi.Stream(strings.Repeat("x", 1000), 1, time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, api.URL()+"/v1/messages", strings.NewReader(mainBody))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1)
	if _, err := resp.Body.Read(buf); err != nil { // the stream has started
		t.Fatal(err)
	}
	cancel()
	resp.Body.Close()
	// The handler returns instead of sleeping an hour per delta; the server's Close in
	// Cleanup would wait for it otherwise.
}

// toolCalled returns the name and input of the tool use a streamed answer carries.
func toolCalled(t *testing.T, stream string) (string, string) {
	t.Helper()
	var name, input string
	for _, e := range sseEvents(t, stream) {
		if b, ok := e["content_block"].(map[string]any); ok && b["type"] == "tool_use" {
			name = b["name"].(string)
		}
		if d, ok := e["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
			input = d["partial_json"].(string)
		}
	}
	return name, input
}

func TestADeferredMCPToolIsFetchedWithToolSearchBeforeItIsCalled(t *testing.T) {
	const deferred = `{"model":"m","stream":true,"tools":[{"name":"Read"},{"name":"ToolSearch"},{"name":"DeferredToolPlaceholder","defer_loading":true}],
 "messages":[{"role":"user","content":"what does the editor say?"}]}`
	const loaded = `{"model":"m","stream":true,"tools":[{"name":"Read"},{"name":"ToolSearch"},{"name":"mcp__ide__getDiagnostics"}],
 "messages":[{"role":"user","content":"what does the editor say?"}]}`
	for _, tt := range []struct {
		name      string
		body      string
		wantFirst string
	}{
		{"behind ToolSearch it is searched for first", deferred, "ToolSearch"},
		{"offered with its schema it is called at once", loaded, "mcp__ide__getDiagnostics"},
		{"without ToolSearch (older CLIs) it is called at once", mainBody, "mcp__ide__getDiagnostics"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			api := fakeapi.New(t, fakeapi.Use("mcp__ide__getDiagnostics", map[string]any{}), fakeapi.Say("done"))
			name, input := toolCalled(t, post(t, api.URL(), tt.body))
			if name != tt.wantFirst {
				t.Fatalf("first answer calls %q (input %s), want %q", name, input, tt.wantFirst)
			}
			if name == "ToolSearch" {
				if input != `{"query":"select:mcp__ide__getDiagnostics"}` {
					t.Errorf("ToolSearch input = %s, want the deferred tool selected by name", input)
				}
				if name, _ := toolCalled(t, post(t, api.URL(), tt.body)); name != "mcp__ide__getDiagnostics" {
					t.Errorf("after the search the answer calls %q, want the scripted mcp__ide__getDiagnostics", name)
				}
			}
			if n := api.Remaining(); n != 1 {
				t.Errorf("%d turns left, want 1: the search step consumes no scripted turn", n)
			}
		})
	}
}
