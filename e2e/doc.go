// Package e2e holds end-to-end tests that drive the real Claude Code CLI (the pinned npm
// release, installed by scripts/install-claude-cli) with no network and no account.
//
// The CLI talks to a scripted stand-in for the Anthropic API (fakeapi) and runs in an
// isolated environment (clienv). The scenarios (scenarios_test.go) start a fresh headless
// Neovim per test with that environment and the plugin, built from this checkout; its
// :Claude open runs the CLI in the plugin's terminal split, and the tests act as the user
// does: keys into Neovim, text typed into the terminal, read back from the terminal buffer.
// A test that needs no editor runs the CLI in a tmux pane (tmuxterm).
//
// Run them with `make e2e`, which sets CLAUDE_BIN and reports each scenario on both Neovim
// versions (e2e/cmd/summary); without CLAUDE_BIN every test here is skipped.
package e2e
