package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// The editor's tools in the chat: print mode never connects to the IDE WebSocket, so the
// host gives each chat CLI an MCP server of the public http type.

func TestAChatDiagnosticsToolCallIsAnsweredFromTheEditorWithoutAsking(t *testing.T) {
	t.Parallel()
	const message = "e2e: greeting is never used"
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.api.Push(
		fakeapi.Use("mcp__nvim__getDiagnostics", map[string]any{"uri": "file://" + path}),
		fakeapi.Say("One warning in greet.txt."),
	)
	s.edit(path)
	s.nv.Lua(nil, `
		local ns = vim.api.nvim_create_namespace('e2e')
		vim.diagnostic.set(ns, 0, { { lnum = 1, col = 0, message = ..., severity = vim.diagnostic.severity.WARN } })`, message)
	s.answerPermissions("Deny", "no tools")
	s.openChat()
	s.chatSend("What does the editor say about greet.txt?")
	s.waitChat("One warning in greet.txt.")
	if asked := s.asked(); len(asked) != 0 {
		t.Errorf("the user was asked %q; a read-only editor tool needs no permission", asked)
	}
	// The call is answered, whichever way the CLI offered the tool: directly (2.1.197) or
	// behind ToolSearch (2.1.332 defers MCP tools; the stand-in searches first, as the model
	// does).
	s.assertToolAnswered("mcp__nvim__getDiagnostics", message)
}

// assertToolAnswered checks that the model's first call of tool got a result that is no
// error and holds want.
func (s *session) assertToolAnswered(tool, want string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	r, err := s.api.ToolResult(ctx, tool)
	if err != nil {
		s.t.Fatalf("%v; requests: %d", err, len(s.api.Main()))
	}
	if got := strings.Join(r.Texts(), "\n"); r.IsError || !strings.Contains(got, want) {
		s.t.Errorf("the model's %s call got the result %q (error: %v), want one with %q", tool, got, r.IsError, want)
	}
}

func TestAChatShowsThinkingAndEachToolUseFoldedToOneLine(t *testing.T) {
	t.Parallel()
	const thought = "The user wants greet.txt; read it first."
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.api.Push(
		fakeapi.Turn{Thinking: thought, Chunk: 8, Tools: []fakeapi.ToolUse{{Name: "Read", Input: map[string]any{"file_path": path}}}},
		fakeapi.Say("It has three lines."),
	)
	s.openChat()
	s.chatSend("What is in greet.txt?")
	s.waitChat("It has three lines.")
	got := s.chatTranscript()
	for _, want := range []string{"_∴ Thinking…_\n  │ " + thought, "● Read(greet.txt)\n  │ file_path: " + path, "  ⎿  ", "  │ "} {
		if !strings.Contains(got, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	// What the window shows: each fold closed on its first line.
	var transcript int
	s.nv.Lua(&transcript, `return require('claude.chat').buffers().transcript`)
	window := strings.Join(s.nv.ShownLines(transcript), "\n")
	if strings.Contains(window, "│") || !strings.Contains(window, "_∴ Thinking…_") || !strings.Contains(window, "● Read(greet.txt)") {
		t.Errorf("the chat window shows\n%s\nwant the thinking and the Read as one line each, their details folded", window)
	}
}
