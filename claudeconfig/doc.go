// Package claudeconfig reads and changes the one thing the plugin keeps in the Claude Code
// CLI's own global config file: whether the user trusts a workspace folder. The CLI shows its
// "Do you trust the files in this folder?" dialog only when run interactively; in print mode
// (the chat's `claude -p`) it asks nothing and runs the folder's hooks, MCP servers and
// settings at once. So the chat asks in Neovim first and records a yes where the CLI looks,
// so that the terminal and the chat agree.
//
// The CLI writes this file too, often, so a change here must never lose or garble what it
// wrote: Trust takes the CLI's own lock, reads the file again under it, splices the one key
// into the bytes it read (every other byte stays as it was: unknown fields, number spellings,
// escapes, order, indentation), and replaces the file atomically with a temp file of the same
// mode renamed over it. A file that does not parse is refused, not rewritten.
//
// What the CLI does (2.1.332, checked with strace and tmux; 2.1.197 alike):
//
//   - The file is $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude/.config.json if that
//     exists (an older name), else ~/.claude.json. It creates it with mode 0600.
//   - Trust is projects[<absolute folder>].hasTrustDialogAccepted = true. The dialog's yes
//     records it at the git repository's root when the folder is inside one (run in
//     repo/sub, it wrote projects["repo"]), else at the folder itself.
//   - A trusted folder covers every folder below it: a child of a trusted folder, or of a
//     trusted home directory, starts without the dialog.
//   - It writes the whole file (JSON.stringify, two-space indent): under a lock directory
//     <file>.lock made with mkdir, it reads the file again, writes a backup to
//     <config dir>/backups/, then <file>.tmp.<pid>.<random> (O_EXCL, chmod to the old
//     file's mode, fsync) renamed over the file.
package claudeconfig
