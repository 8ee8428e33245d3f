package mcp

import "context"

// Workspace serves the direct JSON-RPC methods of the protocol's WebSocket variant
// (readFile, writeFile, listFiles, getWorkspaceInfo, getOpenFiles, getCurrentFile; the
// reference notes' "variant protocol", issue 38), answered beside tools/call on the same
// authenticated connection when Config.Workspace is set. The CLI never calls them; other
// clients of that variant do.
//
// A path is relative to the primary workspace folder, or absolute inside a workspace
// folder; paths answered follow the same rule (relative inside the primary folder), so a
// client can pass them back as they are. An error wrapping ErrInvalidParams is answered
// -32602 with its text (a path outside the workspace or through a link out of it, a file
// that is not regular or is too large, a bad pattern); any other is -32603 "failed to …".
type Workspace interface {
	// ReadFile is path's text as the user sees it: its buffer's where the buffer has
	// unsaved changes, else the file's on disk.
	ReadFile(ctx context.Context, path string) (string, error)

	// WriteFile shows content as a proposal for path, in the diff review openDiff uses,
	// and waits for the user's decision. It never writes the file: on accept the client
	// writes it, as the CLI does after openDiff.
	WriteFile(ctx context.Context, path, content string) (WriteResult, error)

	// ListFiles lists the workspace's files, those the glob pattern matches when it is
	// not "" (see the workspace package's Pattern).
	ListFiles(ctx context.Context, pattern string) ([]string, error)

	// WorkspaceInfo describes the workspace.
	WorkspaceInfo(ctx context.Context) (WorkspaceInfo, error)

	// OpenFiles lists the files open in the editor that are in the workspace, the active
	// one first.
	OpenFiles(ctx context.Context) ([]string, error)

	// CurrentFile is the active file when it is in the workspace, else "".
	CurrentFile(ctx context.Context) (string, error)
}

// WriteResult is the user's decision on a writeFile.
type WriteResult struct {
	Path     string // absolute
	Accepted bool
	Content  string // when accepted: the text to write, with the user's edits to it
}

// WorkspaceInfo answers getWorkspaceInfo.
type WorkspaceInfo struct {
	Name      string   `json:"name"` // the primary folder's base name
	Path      string   `json:"path"` // the primary folder
	FileCount int      `json:"fileCount"`
	Type      string   `json:"type"` // "git" (.gitignore respected) or "folder"
	Folders   []string `json:"folders"`
	// FileCountCapped: the workspace holds more files than a listing returns, and
	// FileCount is that limit.
	FileCountCapped bool `json:"fileCountCapped,omitempty"`
}
