// Package claudeconfig reads and changes the one thing the plugin keeps in the Claude Code
// CLI's own global config file: whether the user trusts a workspace folder. The CLI shows its
// "Do you trust the files in this folder?" dialog only when run interactively; in print mode
// (the chat's `claude -p`) it asks nothing and runs the folder's hooks, MCP servers and
// settings at once. So the chat asks in Neovim first and records a yes where the CLI looks,
// so that the terminal and the chat agree. A chat's CLI since 2.1.332 records the yes itself
// when told of it at its start (chat.Options.WorkspaceTrust, ../chat/doc.go); Trust is for
// the CLIs before it, and for a trust key Trusted would not find.
//
// The CLI writes this file too, often, so a change here must never lose or garble what it
// wrote: Trust takes the CLI's own lock, reads the file again under it, splices the one key
// into the bytes it read (every other byte stays as it was: unknown fields, number spellings,
// escapes, order, indentation), and replaces the file atomically with a temp file of the same
// mode renamed over it. A file that does not parse is refused, not rewritten.
//
// The file is the CLI's and can be large (users report 65 to 238 MiB) or not a file at all:
// it is read only if, once opened (without following a link that appeared since its links
// were resolved, without blocking on a FIFO), it is a regular file of at most 256 MiB; else
// the error says why and what to do. It is read as a stream (scan.go), which checks it is
// JSON and notes where the trust's value is, and written by copying its bytes around the one
// change, so memory stays flat whatever its size: a yes in a 100 MiB file went from 5.9 s,
// 664 MiB and 148,600 allocations to 0.6 s, 0.6 MiB and 16,500 (BenchmarkTrustA100MiBConfig,
// on a busy 2-core machine); the chat start's check from 5.3 s and 421 MiB to 0.7 s and
// 0.6 MiB. The write gives up when its context ends (the chat's 10 s), lock included, and
// renews the lock's time while it holds it, as proper-lockfile does.
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
