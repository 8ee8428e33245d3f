// Package changes wires the change ledger (package ledger) to the CLI's hook events (package
// hooks) and answers what :ClaudeChanges asks: which turns changed what, a file's text
// before a turn, and taking a hunk, a file or a turn back.
//
// A Recorder keeps one ledger.Store per workspace root (the git work tree's top, or the
// CLI's cwd outside git), under the directory the editor gives it (stdpath("state")
// /claude/ledger). UserPromptSubmit begins a turn (the before snapshot), PreToolUse follows
// the tool's file outside git and begins a turn when none runs (a CLI whose prompt hook was
// missed), Stop and SessionEnd end it (the after snapshot). The hook's answer goes back once
// the snapshot is written, so the CLI's tools only run on a recorded "before". Everything
// here runs in the Go process's goroutines, never on Neovim's main loop.
//
// After a revert, the next UserPromptSubmit in that workspace answers with a short note of
// what the user undid (the CLI adds a UserPromptSubmit hook's output to the model's
// context), so that Claude does not redo it blindly. Every file name in the note is quoted
// (strconv.Quote): a name is the workspace's, and must not start a line of the model's
// context nor end the plugin's sentence and go on in its voice.
package changes
