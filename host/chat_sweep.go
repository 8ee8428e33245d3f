package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A chat endpoint's config directory outlives a host that was killed (SIGKILL, a crash, an
// exit Neovim did not wait for), and it holds the endpoint's token; so does the hook
// receiver's directory (hooks.go), with its socket and settings. The next host to start
// removes such leftovers: only directories that are surely ours (the name, this user's, mode
// 0700, not a symlink) and whose owning host, named in the directory, is gone.

// chatMCPDirPattern names the config directories (os.MkdirTemp's pattern).
const chatMCPDirPattern = "claude-nvim-chat-mcp-"

// hookDirPattern names the hook receivers' directories (hooks.Listen's pattern).
const hookDirPattern = "claude-nvim-hooks-"

// ownerFile, in a host's directory, holds the pid of the host that made it.
const ownerFile = "host.pid"

// writeOwner records this process as dir's owner, for a later sweep.
func writeOwner(dir string) error {
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600)
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
// gone, and returns them. A directory without an owner file is left alone: its host may
// still be writing it, or it was not made by us.
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
		data, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
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
