package host

import (
	"context"
	"os"
	"sync"
	"time"
)

// chatExitGrace is how long an exiting host lets its chats' CLIs exit on
// their own (their stdin closed) before it kills their process groups.
// Neovim kills its jobs, us included, 2 s after its SIGTERM: a grace as
// long as that lost the race (a CLI outlived Neovim in 2 of 5 runs), so it
// is a quarter of it. An idle CLI exits at once; one mid-turn loses at
// most its last writes, which a quitting editor would not show anyway.
const chatExitGrace = 500 * time.Millisecond

// chatReapWait bounds the wait, after the kill, for the CLIs to be gone
// (reaped, their output read), still well within Neovim's 2 s.
const chatReapWait = time.Second

// Exit is Shutdown for a host whose Neovim is gone (or going): the server
// and its lock file, and every chat's CLI. The token of the chats' MCP
// endpoint goes first, before any wait: if Neovim's kill comes early after
// all, no secret is left on disk.
func (h *Host) Exit() {
	h.idle.Stop()
	h.removeChatMCPConfig()
	ctx, cancel := context.WithTimeout(context.Background(), chatExitGrace)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.CloseChats(ctx) // kills each CLI's process group once ctx ends
	}()
	h.stopRemotes()
	_ = h.Shutdown()
	if h.kernels != nil {
		h.kernels.Close()
	}
	wg.Wait()
	if h.chats.ctl != nil {
		h.chats.ctl.WaitGone(chatReapWait)
	}
	// Last: the CLIs' last hooks (SessionEnd) find it while they exit; a later one exits 0.
	h.hookBus.close()
}

// removeChatMCPConfig removes the chats' MCP config file and its
// directory; the endpoint itself stops with CloseChats. Running CLIs read
// the file when they started and do not need it again.
func (h *Host) removeChatMCPConfig() {
	h.chats.mcpMu.Lock()
	var dirs []string
	for _, m := range h.chats.mcp {
		dirs = append(dirs, m.configDir)
	}
	h.chats.mcpMu.Unlock()
	for _, dir := range dirs {
		os.RemoveAll(dir)
	}
}
