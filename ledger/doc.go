// Package ledger records what a workspace looked like before and after each of Claude's turns,
// so that every change Claude made can be reviewed and taken back, whatever the CLI's
// permission mode and whichever tool wrote it (issue 24).
//
// A Store keeps snapshots in a private git repository under the editor's state directory, one
// per workspace. In a git work tree a snapshot is the whole work tree as `git add -A` sees it
// (untracked new files included, ignored ones not); elsewhere it is the files named to it.
//
// What is not recorded, and why (issue 35; the workspace is hostile: a tool or a clone wrote
// it). Nested repositories (a submodule, a repository inside the tree, a folder whose .git is
// a file): git would run `git status` inside each with that repository's config, its
// fsmonitor command and filters, so no git of ours is ever asked to stat or add one
// (snapshot.go). Files over Limits.FileSize: never read (a sparse 1 GiB file cost 11 s a
// prompt), listed as Large. FIFOs, sockets, devices and paths behind a link. The root is the
// nearest directory holding a .git above the workspace folder, found here, never by git's
// discovery (core.worktree, a bare repository in the tree, GIT_* variables are ignored).
// Reverts read and write only regular files, never through a link, within the root
// (disk.go). One git at a time per store, across processes (lock.go); a lock file a dead git
// left is removed.
// The user's repository is never written: the private repository has its own index, config
// and object store; it reads the user's objects through objects/info/alternates (so a
// snapshot of a large repository stores only what differs from it) and copies its
// info/exclude. No hook, filter or other program named by the workspace runs: git runs no
// hook for add or write-tree, and the private info/attributes turns off every filter and line
// ending conversion, which also keeps each snapshot byte-for-byte what was on disk.
//
// A file name is any bytes the file system allows (a newline, a byte that is not UTF-8): git
// lists names NUL-separated (-z, --pathspec-file-nul), and where it can only quote them (a
// patch's ---/+++ lines) its C-style quoting is decoded exactly.
//
// A Tree is a snapshot's git tree id. Changes lists what differs between two snapshots, and
// Read gives a file's bytes in one.
package ledger
