// Package peerbench measures this plugin and its main peer,
// coder/claudecode.nvim (pure Lua), with one harness in one sitting: the
// cheap tools' latency and CPU, getDiagnostics over many buffers, idle
// memory, memory after a user's first calls and at rest after them (what a
// user has: the outside harness's figure), the first call after a pause,
// memory's return after a burst, memory and close_tab's round trip around a
// 1 MiB and a 5 MiB diff, and the editor's longest stall while a big
// many-hunk openDiff opens.
//
// Each benchmark starts a real Neovim with only the plugin under test on
// 'runtimepath' (ours runs bin/claude-nvim as its remote plugin, so the
// host's CPU and memory are a separate process's) and talks to it over a
// real WebSocket as the CLI does. The peer comes from $CLAUDE_PEER (a
// checkout) or .deps/peer/claudecode.nvim; without it its half is skipped.
// scripts/bench-peer runs everything three times and prints medians.
package peerbench
