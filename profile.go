package main

import (
	"log/slog"
	"os"
	"runtime/pprof"
	"sync"
)

// startCPUProfile writes a CPU profile of the host's whole run to path
// (CLAUDE_NVIM_CPUPROFILE, for the benchmarks: peerbench passes it on to
// the host Neovim starts); the returned stop ends it and is safe to call
// more than once. An empty path profiles nothing.
func startCPUProfile(path string, log *slog.Logger) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		log.Warn("host: no CPU profile", "err", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Warn("host: no CPU profile", "err", err)
		f.Close()
		return func() {}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
}
