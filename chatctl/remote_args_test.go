package chatctl

import (
	"slices"
	"testing"
)

// A remote chat's CLI may use every tool the relay's server offers, but the language-server
// tools when the chat was started without them (tools.lsp = false): the server lists them
// all, so they are also named disallowed, which keeps them from the model.
func TestARemoteChatsToolsLeaveTheLanguageServersOutWhenAsked(t *testing.T) {
	rc := RemoteChat{
		Tools:    []string{"mcp__nvim__getDiagnostics", "mcp__nvim__lsp_hover", "mcp__nvim__lsp_rename"},
		LSPTools: []string{"mcp__nvim__lsp_hover", "mcp__nvim__lsp_rename"},
	}
	if got, want := rc.args(false), []string{"--allowedTools=mcp__nvim__getDiagnostics,mcp__nvim__lsp_hover,mcp__nvim__lsp_rename"}; !slices.Equal(got, want) {
		t.Errorf("args = %q, want %q", got, want)
	}
	if got, want := rc.args(true), []string{"--allowedTools=mcp__nvim__getDiagnostics", "--disallowedTools=mcp__nvim__lsp_hover,mcp__nvim__lsp_rename"}; !slices.Equal(got, want) {
		t.Errorf("without the language-server tools, args = %q, want %q", got, want)
	}
	if got := (RemoteChat{}).args(true); len(got) != 0 {
		t.Errorf("a remote without the relay's config gets %q, want nothing", got)
	}
}
