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
	"io"
	stdlog "log"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/logfile"
	"github.com/claude-nvim/claude.nvim/relay"
	"github.com/neovim/go-client/nvim"
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

	// The relay, run on the machine or in the container where the CLI runs
	// (package relay): its stdin and stdout are the pipe to the editor's host.
	if len(os.Args) == 2 && os.Args[1] == "relay" {
		os.Exit(runRelay())
	}

	// One P: the host answers one editor, a request at a time, and with
	// more Ps each wake-up also wakes a spinning thread to look for work,
	// which doubled the CPU of a cheap tool call (issue 15). GOMAXPROCS in
	// the environment still wins.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}

	logPath := os.Getenv("CLAUDE_NVIM_LOG")
	log, logFile := logfile.Open(logPath, os.Getenv("CLAUDE_NVIM_LOG_LEVEL"))
	defer logFile.Close()
	if logPath != "" {
		if err := logfile.SendCrashesTo(logPath); err != nil {
			log.Warn("host: crashes will not reach the log", "err", err)
		}
	}
	h := host.New(host.Options{Log: log})
	stopProfile := startCPUProfile(os.Getenv("CLAUDE_NVIM_CPUPROFILE"), log)

	// Neovim stops its jobs with SIGTERM (and a terminal hang-up sends
	// SIGHUP); either way the lock file must go. Ctrl-C in Neovim's own
	// terminal must not kill us. Nor may a Neovim that quits while we write
	// to it: Go ends a process whose write to a closed stdout fails with
	// SIGPIPE unless that is ignored. Ignored, the write fails (EPIPE), the
	// connection ends and the host exits as when it reads the end of stdin.
	signal.Ignore(syscall.SIGINT, syscall.SIGPIPE)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-signals
		h.Exit()
		stopProfile()
		os.Exit(0)
	}()

	if manifestAsked(os.Args[1:]) {
		plugin.Main(h.Register)
		return
	}
	stdin, stdout := pollableStdio()
	if err := serve(h.Register, h.CountsAsActivity(stdin), stdout); err != nil {
		log.Info("host: the connection to Neovim ended", "err", err)
	}
	// Neovim closed our stdin, or a write to it failed: it exited or was killed.
	h.Exit()
	stopProfile()
}

// manifestAsked reports whether the command line asks for the manifest
// (-manifest HOST [-location FILE]), which plugin.Main writes.
func manifestAsked(args []string) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "manifest" {
			return true
		}
	}
	return false
}

// serve is plugin.Main's serving half without its log.Fatal: Serve fails
// when Neovim quits while we write to it (the pipe is closed), and
// log.Fatal then ended the process at once, before Exit: the lock files
// stayed and a chat's CLI, mid-turn, went on with the turn unseen (in about
// 1 of 10 quits while a chat rendered, under load on Neovim 0.10).
func serve(register func(*plugin.Plugin) error, stdin io.Reader, stdout io.WriteCloser) error {
	os.Stdout = os.Stderr // a stray print must not corrupt the RPC stream
	stdlog.SetFlags(0)
	v, err := nvim.New(stdin, stdout, stdout, stdlog.Printf)
	if err != nil {
		return err
	}
	if err := register(plugin.New(v)); err != nil {
		return err
	}
	return v.Serve()
}

// runRelay is `claude-nvim relay`. It logs to stderr, which the transport
// (ssh, docker exec) hands back to the host's log; its lock goes when the
// pipe ends or a SIGTERM or SIGHUP comes.
func runRelay() int {
	signal.Ignore(syscall.SIGINT, syscall.SIGPIPE)
	stop := make(chan struct{})
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-signals
		close(stop)
	}()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	in, out := pollableStdio()
	err := relay.Run(in, out, relay.Options{Version: host.Version, Log: log, Stop: stop})
	if err != nil {
		fmt.Fprintln(os.Stderr, "claude-nvim relay:", err)
		return 1
	}
	return 0
}
