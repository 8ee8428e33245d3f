// Package e2e holds end-to-end tests that drive the real Claude Code CLI (the pinned npm
// release, installed by scripts/install-claude-cli) with no network and no account.
//
// The CLI talks to a scripted stand-in for the Anthropic API (fakeapi), runs in an isolated
// environment (clienv) and, for tests that need no editor, in a tmux pane (tmuxterm). Run them
// with `make e2e`, which sets CLAUDE_BIN; without it every test here is skipped.
package e2e
