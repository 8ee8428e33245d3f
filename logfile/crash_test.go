package logfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// crashChildEnv makes the test binary, run again as a child, crash with its
// crashes sent to the log the variable names.
const crashChildEnv = "LOGFILE_CRASH_CHILD_LOG"

func TestACrashIsReportedInTheLog(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		log, closer := Open(path, "info")
		log.Info("before the crash")
		if err := SendCrashesTo(path); err != nil {
			t.Fatal(err)
		}
		closer.Close()
		go panic("the host broke down")
		select {}
	}
	path := filepath.Join(t.TempDir(), "claude-nvim.log")
	cmd := exec.Command(os.Args[0], "-test.run=^TestACrashIsReportedInTheLog$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the child did not crash: %v\n%s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{"before the crash", "panic: the host broke down", "goroutine "} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q after the crash:\n%s", want, log)
		}
	}
	if st, err := os.Stat(path); err != nil {
		t.Error(err)
	} else if st.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode is %v, want 0600", st.Mode().Perm())
	}
}
