package host

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// The relay put on the remote side (issue 41): a remote given by `exec`
// (a command prefix that runs a program there with a stdio pipe: ssh -T
// HOST, docker exec -i CONTAINER) rather than a whole `command` gets this
// very binary, copied over that pipe when the remote has no identical one,
// into a directory of the remote user's own
// (${XDG_DATA_HOME:-$HOME/.local/share}/claude-nvim/VERSION, mode 0700),
// and checked there against this binary's SHA-256 before it is made
// executable; a remote of another OS or CPU gets a message saying what to
// install instead. Nothing is run there but sh and the binary.

// remoteScript runs script with sh on the remote side: ssh hands its
// command to the remote user's shell as one string, so for ssh the three
// words are quoted into one; other transports pass them as they are.
func remoteScript(prefix []string, script string) []string {
	out := append([]string(nil), prefix...)
	if filepath.Base(prefix[0]) == "ssh" {
		return append(out, "sh -c "+shQuote(script))
	}
	return append(out, "sh", "-c", script)
}

func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// relayDir is the remote install directory, expanded by the remote sh.
const relayDir = `"${XDG_DATA_HOME:-$HOME/.local/share}/claude-nvim/` + Version + `"`

// sumOf prints a file's SHA-256 with what the remote has (GNU, BSD).
const sumOf = `sum() { (sha256sum "$1" 2>/dev/null || shasum -a 256 "$1" 2>/dev/null) | cut -d' ' -f1; }`

var selfSum struct {
	once sync.Once
	path string
	sum  string
	err  error
}

// ownBinary is this process's binary and its SHA-256.
func ownBinary() (string, string, error) {
	selfSum.once.Do(func() {
		p, err := os.Executable()
		if err != nil {
			selfSum.err = err
			return
		}
		f, err := os.Open(p)
		if err != nil {
			selfSum.err = err
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			selfSum.err = err
			return
		}
		selfSum.path, selfSum.sum = p, hex.EncodeToString(h.Sum(nil))
	})
	return selfSum.path, selfSum.sum, selfSum.err
}

// remotePlatform maps uname -s and -m to Go's names.
func remotePlatform(sys, machine string) string {
	goos := strings.ToLower(sys)
	arch := map[string]string{"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}[machine]
	if arch == "" {
		arch = machine
	}
	return goos + "/" + arch
}

// ensureRelay returns the relay's command line for a remote given by
// exec: the binary there, installed first when missing or different.
func ensureRelay(ctx context.Context, execPrefix []string) ([]string, error) {
	local, sum, err := ownBinary()
	if err != nil {
		return nil, fmt.Errorf("this binary: %w", err)
	}
	probe := sumOf + "\nd=" + relayDir + "; f=\"$d/claude-nvim\"\n" +
		`echo "os=$(uname -s)"; echo "arch=$(uname -m)"; echo "path=$f"` + "\n" +
		`if [ -f "$f" ] && [ ! -L "$f" ]; then echo "sum=$(sum "$f")"; fi`
	out, err := runThere(ctx, execPrefix, probe, nil)
	if err != nil {
		return nil, fmt.Errorf("look for the relay there: %w", err)
	}
	got := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			got[k] = v
		}
	}
	path := got["path"]
	if path == "" || !filepath.IsAbs(path) {
		return nil, fmt.Errorf("look for the relay there: unexpected answer %q", out)
	}
	relay := remoteScript(execPrefix, "exec "+shQuote(path)+" relay")
	if got["sum"] == sum {
		return relay, nil
	}
	platform := remotePlatform(got["os"], got["arch"])
	if here := runtime.GOOS + "/" + runtime.GOARCH; platform != here {
		return nil, fmt.Errorf("the remote is %s and this claude-nvim is %s: install claude-nvim %s for %s there "+
			"(scripts/install-binary on that machine, or GOOS/GOARCH=… make) and name it in the remote's command", platform, here, Version, platform)
	}
	install := sumOf + "\nset -e; umask 077; d=" + relayDir + "\n" +
		`[ ! -L "$d" ] || { echo "$d is a symbolic link" >&2; exit 3; }` + "\n" +
		`mkdir -p "$d"; chmod 700 "$d"; t="$d/.claude-nvim.$$"; cat > "$t"` + "\n" +
		`s=$(sum "$t"); if [ "$s" != "` + sum + `" ]; then rm -f "$t"; echo "checksum mismatch: got ${s:-none}" >&2; exit 3; fi` + "\n" +
		`chmod 700 "$t"; mv -f "$t" "$d/claude-nvim"; echo installed`
	f, err := os.Open(local)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if out, err := runThere(ctx, execPrefix, install, f); err != nil || !bytes.Contains(out, []byte("installed")) {
		return nil, fmt.Errorf("copy claude-nvim %s to %s: %w (its SHA-256 must be %s)", Version, path, orNoAnswer(err), sum)
	}
	return relay, nil
}

func orNoAnswer(err error) error {
	if err == nil {
		return errors.New("no answer")
	}
	return err
}

// runThere runs script there with stdin, returning its stdout; its
// stderr is in the error.
func runThere(ctx context.Context, execPrefix []string, script string, stdin io.Reader) ([]byte, error) {
	argv := remoteScript(execPrefix, script)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s", err, msg)
	}
	return out, nil
}
