package acp_test

import (
	"context"
	"testing"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

func TestFileRequestsReachTheClientAndItsAnswersTheAgent(t *testing.T) {
	var wrote *acp.WriteTextFileRequest
	var read *acp.ReadTextFileRequest
	f := files{recorder: newRecorder(),
		read: func(_ context.Context, req *acp.ReadTextFileRequest) (string, error) {
			read = req
			return "unsaved line\n", nil
		},
		write: func(_ context.Context, req *acp.WriteTextFileRequest) error {
			wrote = req
			return nil
		},
	}
	c := scripted(t, f, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		id := p.Request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": "/w/a.go", "line": 3, "limit": 2})
		if got := p.ExpectResponse(id); string(got.Result) != `{"content":"unsaved line\n"}` {
			t.Errorf("fs/read_text_file was answered %s; want the client's text", got.Line)
		}
		id = p.Request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": "/w/b.go", "content": "package b\n"})
		if got := p.ExpectResponse(id); string(got.Result) != `{}` {
			t.Errorf("fs/write_text_file was answered %s; want {}", got.Line)
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	if read == nil || read.Path != "/w/a.go" || read.Line == nil || *read.Line != 3 || read.Limit == nil || *read.Limit != 2 || read.SessionID != "s1" {
		t.Errorf("the reader got %+v", read)
	}
	if wrote == nil || wrote.Path != "/w/b.go" || wrote.Content != "package b\n" {
		t.Errorf("the writer got %+v", wrote)
	}
}

func TestTerminalRequestsReachTheClient(t *testing.T) {
	created := make(chan *acp.CreateTerminalRequest, 1)
	tm := terms{recorder: newRecorder(), created: created}
	c := scripted(t, tm, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		steps := []struct {
			method string
			params map[string]any
			want   string
		}{
			{"terminal/create", map[string]any{"sessionId": "s1", "command": "go", "args": []string{"test", "./..."}, "cwd": "/w", "outputByteLimit": 1000}, `{"terminalId":"t1"}`},
			{"terminal/output", map[string]any{"sessionId": "s1", "terminalId": "t1"}, `{"output":"ok\n","truncated":false,"exitStatus":{"exitCode":0}}`},
			{"terminal/wait_for_exit", map[string]any{"sessionId": "s1", "terminalId": "t1"}, `{"exitCode":0}`},
			{"terminal/kill", map[string]any{"sessionId": "s1", "terminalId": "t1"}, `{}`},
			{"terminal/release", map[string]any{"sessionId": "s1", "terminalId": "t1"}, `{}`},
		}
		for _, s := range steps {
			id := p.Request(s.method, s.params)
			if got := p.ExpectResponse(id); string(got.Result) != s.want {
				t.Errorf("%s was answered %s; want %s", s.method, got.Line, s.want)
			}
		}
		id := p.Request("terminal/output", map[string]any{"sessionId": "s1", "terminalId": "t9"})
		if got := p.ExpectResponse(id); got.Error == nil || got.Error.Code != acp.CodeNotFound {
			t.Errorf("output of an unknown terminal was answered %s; want the client's -32002", got.Line)
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	req := <-created
	if req.Command != "go" || len(req.Args) != 2 || req.Cwd != "/w" || req.OutputByteLimit == nil || *req.OutputByteLimit != 1000 {
		t.Errorf("terminal/create reached the client as %+v", req)
	}
}
