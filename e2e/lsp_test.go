package e2e

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The language-server tools (issue 40) with the real CLI and a real gopls: the scripted model
// calls mcp__nvim__lsp_* (the CLI's name for the tools of our "nvim" server), in the
// terminal, where the server reaches the CLI through one more --mcp-config, and in the chat.

// goplsWarmup bounds gopls's first load of the module.
const goplsWarmup = 120000

// newLSPSession is a session whose project holds nvimtest.GoModule and whose Neovim runs
// gopls for it; files are the module's paths by name.
func newLSPSession(t *testing.T) (*session, map[string]string) {
	t.Helper()
	s := newSessionWith(t, []nvimtest.Option{nvimtest.WithEnv(nvimtest.GoplsEnv(t)...)})
	files := s.nv.StartGopls(t, s.env.Project)
	s.nv.WaitGopls(t, files["main.go"], goplsWarmup)
	return s, files
}

// theThreeCallSites is lsp_references's answer for Greet, past its first line.
func theThreeCallSites(files map[string]string) string {
	return files["main.go"] + ":6:14: \tfmt.Println(Greet(\"world\"))\n" +
		files["main.go"] + ":7:14: \tfmt.Println(Greet(\"gopher\"))\n" +
		files["main.go"] + ":12:6: \t_ = Greet(\"again\")"
}

func TestTheTerminalsModelFindsTheThreeCallSitesThroughTheLanguageServer(t *testing.T) {
	t.Parallel()
	s, files := newLSPSession(t)
	s.api.Push(
		fakeapi.Use("mcp__nvim__lsp_references", map[string]any{"path": files["greet.go"], "line": 4, "symbol": "Greet"}),
		fakeapi.Say("Greet is called three times."),
	)
	s.edit(files["main.go"])
	s.open()
	s.prompt("Where is Greet called?")
	s.waitText("Greet is called three times.", turnTimeout)
	// Allowed without asking: no "Do you want to proceed?" came (the turn would still wait).
	s.assertToolAnswered("mcp__nvim__lsp_references", "from gopls (3):\n"+theThreeCallSites(files))
}

func TestTheChatsModelFindsTheThreeCallSitesAndADefinitionInAnotherFile(t *testing.T) {
	t.Parallel()
	s, files := newLSPSession(t)
	t.Cleanup(s.logTranscript)
	s.api.Push(
		fakeapi.Use("mcp__nvim__lsp_references", map[string]any{"path": files["greet.go"], "line": 4, "symbol": "Greet"}),
		fakeapi.Use("mcp__nvim__lsp_definition", map[string]any{"path": "main.go", "line": 12, "symbol": "Greet"}),
		fakeapi.Say("Defined in greet.go, called three times."),
	)
	s.openChat()
	s.chatSend("Where is Greet defined and called?")
	s.waitChat("Defined in greet.go, called three times.")
	if asked := s.asked(); len(asked) != 0 {
		t.Errorf("the user was asked %q; the language-server tools need no permission", asked)
	}
	s.assertToolAnswered("mcp__nvim__lsp_references", "from gopls (3):\n"+theThreeCallSites(files))
	s.assertToolAnswered("mcp__nvim__lsp_definition",
		"Definition of `Greet` at "+files["main.go"]+":12:6, from gopls (1):\n"+files["greet.go"]+":4:6: func Greet(name string) string {")
}

// A model that searches with its own words finds the tools: 2.1.332 defers MCP tools behind
// ToolSearch, which scores the query against their names, descriptions and search hints.
func TestAModelSearchingForReferencesFindsTheTool(t *testing.T) {
	t.Parallel()
	s, _ := newLSPSession(t)
	if cliVersion < "2.1.332" {
		t.Skipf("Claude Code %s offers MCP tools without ToolSearch", cliVersion)
	}
	s.api.Push(
		fakeapi.Use(fakeapi.ToolSearchName, map[string]any{"query": "find references"}),
		fakeapi.Use(fakeapi.ToolSearchName, map[string]any{"query": "go to definition"}),
		fakeapi.Say("Found them."),
	)
	s.openChat()
	s.chatSend("Which tools find references?")
	s.waitChat("Found them.")
	for i, want := range []string{"mcp__nvim__lsp_references", "mcp__nvim__lsp_definition"} {
		var found []string // the tools the search loaded, in its order
		for _, b := range s.chatRequest(i + 2).ToolResults() {
			for _, c := range b.Content {
				if c.ToolName != "" {
					found = append(found, c.ToolName)
				} else {
					found = append(found, c.Texts()...)
				}
			}
		}
		if len(found) == 0 || found[0] != want {
			t.Errorf("search %d found %q, want %s first", i+1, found, want)
		}
	}
}

// The user's own --mcp-config stays: the terminal's CLI gets ours beside it, and the model
// can call the tools of both.
func TestTheTerminalKeepsTheUsersMCPConfigBesideTheLanguageServerTools(t *testing.T) {
	t.Parallel()
	s, files := newLSPSession(t)
	config := s.usersMCPServer("pong from the user's own server")
	s.nv.Lua(nil, `
		local cfg = vim.deepcopy(require('claude').config())
		table.insert(cfg.terminal_cmd, '--mcp-config')
		table.insert(cfg.terminal_cmd, ...)
		require('claude').setup(cfg)`, config)
	s.api.Push(
		fakeapi.Use("mcp__mine__ping", map[string]any{}),
		fakeapi.Use("mcp__nvim__lsp_references", map[string]any{"path": files["greet.go"], "line": 4, "symbol": "Greet"}),
		fakeapi.Say("Both servers answered."),
	)
	s.edit(files["main.go"])
	s.open()
	s.prompt("Ping, then find Greet's callers")
	s.answerYes(clienv.ProceedQuestion) // the user's tool is not ours to allow
	s.waitText("Both servers answered.", turnTimeout)
	s.assertToolAnswered("mcp__mine__ping", "pong from the user's own server")
	s.assertToolAnswered("mcp__nvim__lsp_references", theThreeCallSites(files))
}

// usersMCPServer serves, as a user's own MCP server would, one tool "ping" answering pong,
// and returns a --mcp-config file naming it "mine".
func (s *session) usersMCPServer(pong string) string {
	s.t.Helper()
	ep, err := mcp.NewHTTPEndpoint(mcp.HTTPConfig{Token: "users-token", Tools: []mcp.Tool{{
		Name: "ping", Description: "Answers pong",
		Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) { return mcp.TextResult(pong), nil },
	}}})
	if err != nil {
		s.t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	go ep.Serve(ln)
	s.t.Cleanup(func() { ep.Close(context.Background()) })
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"mine": map[string]any{
		"type": "http", "url": "http://" + ln.Addr().String() + "/mcp",
		"headers": map[string]string{"Authorization": "Bearer users-token"},
	}}})
	path := filepath.Join(s.env.Home, "users-mcp.json")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// renameGreet scripts the model's rename of Greet to Hello, then closing.
func renameGreet(s *session, files map[string]string, closing string) {
	s.api.Push(
		fakeapi.Use("mcp__nvim__lsp_rename", map[string]any{"path": files["greet.go"], "line": 4, "symbol": "Greet", "new_name": "Hello"}),
		fakeapi.Say(closing),
	)
}

// reviewTheRename does what the user does with the rename's two files, whichever comes
// first: in main.go the call in helper (line 12) is taken back; both are accepted. Then
// greet.go is renamed (its doc comment too) and main.go in main only.
func (s *session) reviewTheRename(files map[string]string) {
	s.t.Helper()
	s.assertToolAnswered("mcp__nvim__lsp_rename", "The rename to Hello (5 edits in 2 files: ")
	for range 2 {
		nvimtest.Wait(s.t, "a file of the rename waiting for review", turnTimeout, func() bool {
			var n int
			s.nv.Lua(&n, `return require('claude.diff').count()`)
			return n > 0
		})
		if got := s.fileContent(files["greet.go"]) + s.fileContent(files["main.go"]); got != nvimtest.GoModule["greet.go"]+nvimtest.GoModule["main.go"] {
			s.t.Errorf("a file was written before the review ended:\n%s", got)
		}
		s.nv.Cmd("ClaudeDiffFocus")
		var name string
		s.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
		if strings.TrimSuffix(name, " (Claude proposal)") == files["main.go"] {
			s.nv.Cmd("12")
			s.nv.Cmd("ClaudeDiffTakeBack")
		}
		s.nv.Cmd("ClaudeDiffAccept")
		s.nextDiffClosed("accepted")
	}
	greet := strings.ReplaceAll(nvimtest.GoModule["greet.go"], "Greet", "Hello")
	main := strings.Replace(nvimtest.GoModule["main.go"], `Greet("world")`, `Hello("world")`, 1)
	main = strings.Replace(main, `Greet("gopher")`, `Hello("gopher")`, 1)
	nvimtest.Wait(s.t, "the accepted rename written", turnTimeout, func() bool {
		return s.fileContent(files["greet.go"]) == greet && s.fileContent(files["main.go"]) == main
	})
}

func TestATerminalRenameOpensAsAProposalAndATakenBackHunkIsNotWritten(t *testing.T) {
	t.Parallel()
	s, files := newLSPSession(t)
	renameGreet(s, files, "The rename waits for your review.")
	s.edit(files["main.go"])
	s.open()
	s.prompt("Rename Greet to Hello")
	s.waitText("The rename waits for your review.", turnTimeout)
	s.reviewTheRename(files)
}

func TestAChatRenameOpensAsAProposalAndATakenBackHunkIsNotWritten(t *testing.T) {
	t.Parallel()
	s, files := newLSPSession(t)
	t.Cleanup(s.logTranscript)
	renameGreet(s, files, "The rename waits for your review.")
	s.openChat()
	s.chatSend("Rename Greet to Hello")
	s.waitChat("The rename waits for your review.")
	s.reviewTheRename(files)
}
