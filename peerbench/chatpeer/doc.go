// Package chatpeer measures this plugin's chat (:ClaudeChat, the CLI's
// stream-json mode run by our Go host) and its peer, codecompanion.nvim's
// ACP chat driving Claude through @agentclientprotocol/claude-agent-acp,
// with one harness in one sitting: the time from sending to the first
// visible token, the editor's longest stall and the API→buffer delay while
// 1 MiB of text streams, the editor's CPU per streamed KiB, and memory
// after the turns.
//
// Both plugins talk to the same real Claude Code CLI ($CLAUDE_BIN; the ACP
// agent runs it through CLAUDE_CODE_EXECUTABLE instead of the one its SDK
// bundles), which talks to the same API stand-in (e2e/fakeapi) answering
// the same scripted turns, in an isolated CLI environment (e2e/clienv): no
// network. Each benchmark starts a fresh Neovim with only the plugin under
// test on 'runtimepath' and a UI attached on a second channel, so
// rendering counts; the 1 ms probe asks on the first channel.
//
// A third chat runs beside them where the peer is installed:
// claude.nvim-acp, our chat on the same claude-agent-acp (a chat.agents
// entry, acpchat), so the two ACP chats differ only in the editor side
// (its ready: the agent's session is set up). ChatHistory leaves it out:
// the Claude chat's resume is what it measures.
//
// Text is seen where the user sees it: nvim_buf_attach's on_lines on the
// buffer the answer is written into looks for markers (MARK<n>K) in the
// changed lines, stamps them with vim.uv.hrtime and tells the benchmark.
//
// The harness's own work counts in both editors alike: the on_lines scan
// of the changed lines and the probe's answers are part of Neovim's CPU.
// Messages are typed with nvim_input and sent with <CR> (vim.on_key stamps
// it); each chat is first waited on until it takes a message (ours: the CLI
// answered initialize; the peer: its agent has a session), as a user takes
// longer than that to type.
//
// Also measured: a 10 MiB tool result (BenchmarkChatToolResult10MiB: the
// CLI passes on a 2 KiB preview of it), the same figures fresh and in a
// resumed conversation of 2,000 messages (BenchmarkChatHistory, the
// conversation written by chat/chattest for both; BenchmarkCLIHistoryDelay,
// the bare CLI's own share of the delay), our cold first token split at the
// host's milestones (BenchmarkChatColdBreakdown) and with chat.prestart
// (BenchmarkChatPrestartFirstToken). Memory after 2,000 turns is
// BenchmarkChatMemory with BENCH_CHAT_TURNS=2000 (not in the script's run:
// a quarter of an hour a plugin).
//
// The peer comes from .deps/peer (scripts/install-peer-chat) or
// $CLAUDE_CHAT_PEER (a directory holding codecompanion.nvim, plenary.nvim
// and claude-agent-acp); without it its half is skipped with a how-to.
// scripts/bench-peer-chat runs everything three times and prints medians.
package chatpeer
