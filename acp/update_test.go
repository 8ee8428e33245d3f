package acp_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

// realLines are messages claude-agent-acp 0.101.0 sent to a client (one of each kind it
// sent in a session against the API stand-in: a streamed answer, thinking, a task, a Write
// allowed and one refused, an Edit, a mode change, a replay), paths and ids made short.
func realLines(t *testing.T) (updates []string, permission string) {
	t.Helper()
	f, err := os.Open("testdata/claude-agent-acp-0.101.0.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"method":"session/request_permission"`) {
			permission = sc.Text()
		} else {
			updates = append(updates, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return updates, permission
}

func TestTheRealAgentsUpdatesDecode(t *testing.T) {
	lines, _ := realLines(t)
	rec := newRecorder()
	c := scripted(t, rec, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		for _, l := range lines {
			p.Send(l)
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	ups := rec.all()
	if len(ups) != len(lines) {
		t.Fatalf("%d updates for %d lines: %s", len(ups), len(lines), describe(ups))
	}
	kinds := map[string]int{}
	for i, u := range ups {
		kinds[u.Update.Kind()]++
		if u.SessionID != "s1" {
			t.Errorf("update %d: session %q, want s1", i, u.SessionID)
		}
		switch v := u.Update.(type) {
		case *acp.UnknownUpdate:
			t.Errorf("update %d did not decode: %v in %s", i, v.Err, lines[i])
		case *acp.MessageChunk:
			if v.Content.Type != "text" || v.Content.Text == "" || v.MessageID == "" {
				t.Errorf("chunk %d = %+v; want text with a message id", i, v)
			}
		case *acp.ToolCall:
			if v.ToolCallID == "" || v.Title == "" || v.ToolKind == "" || v.Status != "pending" {
				t.Errorf("tool call %d = %+v", i, v)
			}
		case *acp.ToolCallUpdate:
			if v.ToolCallID == "" {
				t.Errorf("tool call update %d has no id: %s", i, lines[i])
			}
			for _, tc := range v.Content {
				if tc.Type == "diff" && (tc.Path != "/project/new.txt" && tc.Path != "/project/notes.txt" || tc.NewText == "") {
					t.Errorf("diff in update %d = %+v", i, tc)
				}
			}
		case *acp.Plan:
			if len(v.Entries) != 1 || v.Entries[0] != (acp.PlanEntry{Content: "Write the tests", Priority: "medium", Status: "pending"}) {
				t.Errorf("plan = %+v", v.Entries)
			}
		case *acp.AvailableCommandsUpdate:
			if len(v.AvailableCommands) != 3 || v.AvailableCommands[0].Input == nil || v.AvailableCommands[0].Input.Hint == "" {
				t.Errorf("commands = %+v; want compact with its hint, context, model", v.AvailableCommands)
			}
		case *acp.CurrentModeUpdate:
			if v.CurrentModeID != "default" {
				t.Errorf("mode = %q", v.CurrentModeID)
			}
		case *acp.ConfigOptionUpdate:
			if len(v.ConfigOptions) < 2 || v.ConfigOptions[0].ID != "mode" || v.ConfigOptions[0].Current() != "default" || len(v.ConfigOptions[0].Options) != 4 {
				t.Errorf("config options = %+v", v.ConfigOptions)
			}
		case *acp.SessionInfoUpdate:
			if v.Title == nil || *v.Title == "" || v.UpdatedAt == nil {
				t.Errorf("session info = %+v", v)
			}
		case *acp.UsageUpdate:
			if v.Used == 0 || v.Size == 0 {
				t.Errorf("usage = %+v", v)
			}
		}
	}
	for _, k := range []string{acp.KindUserMessageChunk, acp.KindAgentMessageChunk, acp.KindAgentThoughtChunk,
		acp.KindToolCall, acp.KindToolCallUpdate, acp.KindPlan, acp.KindAvailableCommands,
		acp.KindCurrentMode, acp.KindConfigOption, acp.KindSessionInfo, acp.KindUsage} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the real updates decoded: %v", k, kinds)
		}
	}
}

func TestUnknownAndUndecodableUpdatesStayRaw(t *testing.T) {
	notice := `{"sessionUpdate":"notice","severity":"info","title":"a newer kind"}`
	bad := `{"sessionUpdate":"tool_call","toolCallId":7,"title":["not","a","string"]}`
	rec := newRecorder()
	c := scripted(t, rec, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		p.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + notice + `}}`)
		p.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + bad + `}}`)
		p.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"}}`)
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "after"}})
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	ups := rec.all()
	if len(ups) != 4 {
		t.Fatalf("updates = %s; want 4", describe(ups))
	}
	if u, ok := ups[0].Update.(*acp.UnknownUpdate); !ok || u.Kind() != "notice" || u.Err != nil || string(u.Raw) != notice {
		t.Errorf("a notice = %#v; want an UnknownUpdate with the raw object", ups[0].Update)
	}
	if u, ok := ups[1].Update.(*acp.UnknownUpdate); !ok || u.Kind() != acp.KindToolCall || u.Err == nil || string(u.Raw) != bad {
		t.Errorf("a tool_call of wrong types = %#v; want an UnknownUpdate with its error and the raw object", ups[1].Update)
	}
	if u, ok := ups[2].Update.(*acp.UnknownUpdate); !ok || u.Err == nil {
		t.Errorf("a session/update without update = %#v; want an UnknownUpdate with an error", ups[2].Update)
	}
	if c, ok := ups[3].Update.(*acp.MessageChunk); !ok || c.Content.Text != "after" {
		t.Errorf("the update after them = %#v", ups[3].Update)
	}
}

func TestAnUnknownContentBlockIsKeptRaw(t *testing.T) {
	var b acp.ContentBlock
	raw := `{"type":"hologram","frames":3}`
	if err := json.Unmarshal([]byte(raw), &b); err != nil {
		t.Fatal(err)
	}
	if b.Type != "hologram" || string(b.Raw) != raw {
		t.Errorf("unknown block = %+v; want its type and raw", b)
	}
	if err := json.Unmarshal([]byte(`{"type":"text","text":"x"}`), &b); err != nil || b.Raw != nil {
		t.Errorf("a text block kept raw (%v): %s", err, b.Raw)
	}
	out, err := json.Marshal(acp.Text(""))
	if err != nil || string(out) != `{"type":"text","text":""}` {
		t.Errorf("empty text block = %s (%v); want the text member present", out, err)
	}
}
