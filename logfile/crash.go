package logfile

import (
	"os"
	"runtime/debug"
)

// SendCrashesTo makes a crash of this process (an unhandled panic, a fatal
// runtime error) append its report to the log at path. The host's stderr
// goes nowhere a user looks (Neovim discards an RPC job's), so without this
// a crash left only "the Go process stopped" and nothing to say why.
func SendCrashesTo(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close() // SetCrashOutput keeps a duplicate of the descriptor
	return debug.SetCrashOutput(f, debug.CrashOptions{})
}
