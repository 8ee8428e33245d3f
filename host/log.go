package host

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// maxLogSize is where the log file starts over, so a long-lived setup
// never fills the disk with debug lines.
const maxLogSize = 8 << 20

// OpenLog returns a logger writing to path at level ("error", "warn",
// "info", "debug"); an empty path discards everything. Never stdout: that
// is the RPC pipe to Neovim.
func OpenLog(path, level string) (*slog.Logger, io.Closer) {
	if path == "" {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if st, err := os.Stat(path); err == nil && st.Size() > maxLogSize {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return slog.New(slog.NewTextHandler(os.Stderr, nil)), io.NopCloser(nil)
	}
	var lv slog.Level
	switch strings.ToLower(level) {
	case "error":
		lv = slog.LevelError
	case "warn":
		lv = slog.LevelWarn
	case "debug":
		lv = slog.LevelDebug
	default:
		lv = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: lv})).With("pid", os.Getpid()), f
}
