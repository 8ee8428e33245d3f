// Command claude-nvim is the Neovim remote plugin behind claude.nvim: it
// serves the Claude Code IDE protocol (MCP over WebSocket) for the Neovim
// that started it. Neovim starts it (lua/claude/host.lua); run it by hand
// only for -version or to regenerate the manifest; CLIs it starts run it as a hook
// (-hook SOCKET, see package hooks):
//
//	claude-nvim -manifest claude-nvim > rplugin/claude-nvim.vim
package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/logfile"
	"github.com/neovim/go-client/nvim/plugin"
)

func main() {
	// plugin.Main owns the flag set (-manifest, -location); -version is
	// answered before it parses.
	if len(os.Args) == 2 && (os.Args[1] == "-version" || os.Args[1] == "--version") {
		fmt.Println(host.Version)
		return
	}
	// A hook of a CLI the plugin started (hooks.Settings): hand the event to the plugin's
	// process and exit 0 whatever happens, so Claude never stops for us.
	if len(os.Args) == 3 && os.Args[1] == "-hook" {
		_ = hooks.Forward(os.Args[2], os.Getenv(hooks.OriginEnv), os.Stdin, os.Stdout)
		return
	}

	// One P: the host answers one editor, a request at a time, and with
	// more Ps each wake-up also wakes a spinning thread to look for work,
	// which doubled the CPU of a cheap tool call (issue 15). GOMAXPROCS in
	// the environment still wins.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}

	log, logFile := logfile.Open(os.Getenv("CLAUDE_NVIM_LOG"), os.Getenv("CLAUDE_NVIM_LOG_LEVEL"))
	defer logFile.Close()
	h := host.New(host.Options{Log: log})

	// Neovim stops its jobs with SIGTERM (and a terminal hang-up sends
	// SIGHUP); either way the lock file must go. Ctrl-C in Neovim's own
	// terminal must not kill us.
	signal.Ignore(syscall.SIGINT)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-signals
		h.Exit()
		os.Exit(0)
	}()

	plugin.Main(h.Register)
	// Serve returned: Neovim closed our stdin (it exited or was killed).
	h.Exit()
}
