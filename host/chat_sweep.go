package host

import (
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/claude-nvim/claude.nvim/procstat"
)

// A chat endpoint's config directory outlives a host that was killed (SIGKILL, a crash, an
// exit Neovim did not wait for), and it holds the endpoint's token; so does the hook
// receiver's directory (hooks.go), with its socket and settings. The next host to start
// removes such leftovers: only directories that are surely ours (the name, this user's, mode
// 0700, not a symlink, nothing in them read through a link) and whose host is surely gone:
//
//   - its owner file names a process that is gone;
//   - for a hook directory with an owner file, its socket refuses connections or is gone:
//     no receiver listens (its host closed it and was killed before it removed the
//     directory), and the pid in the owner file was reused by another process, as happens
//     in a container where each start gets the same pids;
//   - no owner file, and nothing changed in it for ownerlessAge, nor a socket that answers: a
//     host writes its owner file right after making the directory (after listening, for a
//     hook directory), so only one that died in between leaves it so.
//
// A directory whose owner file names a live process with the start it recorded (Linux) is
// its host's own: kept, and its socket never asked, as a connection that says nothing takes
// a place among that receiver's events for a moment.

// chatMCPDirPattern names the config directories (os.MkdirTemp's pattern).
const chatMCPDirPattern = "claude-nvim-chat-mcp-"

// hookDirPattern names the hook receivers' directories (hooks.Listen's pattern).
const hookDirPattern = "claude-nvim-hooks-"

// hookSocketName is the receiver's socket in its directory (hooks.Listen).
const hookSocketName = "hooks.sock"

// ownerFile, in a host's directory, holds the pid of the host that made it and, where the
// system says (Linux), when that process started: a live pid with the same start is the
// host itself, known without asking its socket.
const ownerFile = "host.pid"

// ownerlessAge: a directory without an owner file is a dead host's only once it is this old;
// a live host writes the file within milliseconds of making the directory.
const ownerlessAge = 10 * time.Minute

// probeTimeout bounds the connection that asks whether a receiver listens; one that
// listens, even stopped, accepts at once.
const probeTimeout = time.Second

// writeOwner records this process as dir's owner, for a later sweep.
func writeOwner(dir string) error {
	owner := strconv.Itoa(os.Getpid())
	if start := processStart(os.Getpid()); start != "" {
		owner += " " + start
	}
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600)
}

// sweepChatLeftovers removes, in the background, the config directories of dead hosts, once
// per host: at its first server or chat, whichever comes first, so a user who chats no more
// still has them go. Off the sync handler that calls it: a big /tmp takes a while to read.
func (h *Host) sweepChatLeftovers() {
	h.chats.swept.Do(func() {
		go func() {
			sweepDeadHostDirs(os.TempDir(), chatMCPDirPattern, h.log)
			for _, parent := range hookParents() {
				sweepDeadHostDirs(parent, hookDirPattern, h.log)
			}
		}()
	})
}

// sweepDeadHostDirs removes, from tmp, the directories named with prefix of hosts that are
// gone, and returns them.
func sweepDeadHostDirs(tmp, prefix string, log *slog.Logger) []string {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		log.Debug("sweep", "dir", tmp, "err", err)
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		st, err := os.Lstat(dir)
		if err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 || !ownedByUs(st) {
			continue
		}
		if !hostGone(dir, st, prefix == hookDirPattern) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			log.Warn("remove a dead host's directory", "dir", dir, "err", err)
			continue
		}
		removed = append(removed, dir)
	}
	if len(removed) > 0 {
		log.Info("removed dead hosts' directories", "dirs", removed)
	}
	return removed
}

// hostGone says whether dir (st, ours) is surely a dead host's, by the rules above; hook
// says it is a hook receiver's directory, with a socket to ask.
func hostGone(dir string, st fs.FileInfo, hook bool) bool {
	pid, start, owned := readOwner(filepath.Join(dir, ownerFile))
	if owned && (pid == os.Getpid() || pid <= 0) {
		return false
	}
	if owned && !processAlive(pid) {
		return true
	}
	if owned && start != "" && processStart(pid) == start {
		// The host itself lives: its socket is not asked, as a connection that says
		// nothing takes a place among its receiver's events.
		return false
	}
	if !owned && time.Since(st.ModTime()) <= ownerlessAge {
		// Too young to be a dead host's whatever its socket says: not asked, as a
		// connection that says nothing takes a place among a live receiver's events.
		return false
	}
	socket := noSocket
	if hook {
		socket = probeSocket(filepath.Join(dir, hookSocketName))
	}
	switch {
	case socket == listening || socket == unknown:
		return false
	case owned:
		// A live pid that is not a host's: its receiver is gone (the socket refuses, or
		// went with its listener's close).
		return hook
	default:
		return time.Since(st.ModTime()) > ownerlessAge
	}
}

// processStart is when process pid started, in clock ticks since boot (field 22 of
// /proc/PID/stat): with the pid, it names one process, not whichever gets the pid next.
// "" where it cannot be read (not Linux: the sweep then asks the socket).
func processStart(pid int) string {
	st, err := procstat.Read(pid)
	if err != nil {
		return ""
	}
	return st.Field(22)
}

// readOwner reads an owner file, never through a link: the pid and, if recorded, its
// process's start; ok is false when there is none to read (no file, a link, not a number).
func readOwner(file string) (pid int, start string, ok bool) {
	data, err := readNoFollow(file, 64)
	if err != nil {
		return 0, "", false
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 || len(fields) > 2 {
		return 0, "", false
	}
	pid, err = strconv.Atoi(fields[0])
	if err != nil {
		return 0, "", false
	}
	if len(fields) == 2 {
		start = fields[1]
	}
	return pid, start, true
}

// What a receiver's socket says.
const (
	noSocket  = iota // no socket file (or something else in its place)
	listening        // a receiver accepts: its host lives, if stopped
	refusing         // the file is there and nobody listens
	unknown          // another error: leave the directory be
)

// probeSocket asks whether a receiver listens on the socket file, if it is one (not a link).
// A receiver that accepts reads an empty event and drops it.
func probeSocket(file string) int {
	st, err := os.Lstat(file)
	if err != nil || st.Mode().Type() != fs.ModeSocket {
		return noSocket
	}
	conn, err := net.DialTimeout("unix", file, probeTimeout)
	if err == nil {
		conn.Close()
		return listening
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return refusing
	}
	return unknown
}
