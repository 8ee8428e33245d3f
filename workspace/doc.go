// Package workspace is the editor's workspace folders as the WebSocket variant protocol's
// direct methods reach them (readFile, writeFile, listFiles, getWorkspaceInfo; issue 38): a
// path a client names is resolved against the folders, and a file is read, checked or listed
// only inside them.
//
// The workspace is hostile (a tool or a clone wrote it), so:
//   - A path outside every folder is refused before anything is opened ([ErrOutside]).
//   - Every access goes through an os.Root of the folder: a link, anywhere on the way, that
//     leads out of the folder is refused, and so is a link with an absolute target (os.Root
//     counts those as leaving). A link that stays inside is followed.
//   - Only regular files are read ([ErrNotRegular]): opened with O_NONBLOCK, so a FIFO put
//     there since the check never blocks us, and checked again on the open file (fstat).
//     A file over the size limit is refused unread ([ErrTooLarge]).
//   - Listing asks git when the folder itself holds the work tree's .git (so .gitignore is
//     respected), with the system config, every GIT_* variable of ours and core.fsmonitor
//     turned off, and GIT_DIR and GIT_WORK_TREE given so that git discovers nothing above
//     the folder. Elsewhere (no .git, or a folder inside a work tree) it walks the folder,
//     skipping .git and never following a link. Both are bounded.
//
// The package uses the standard library only.
package workspace
