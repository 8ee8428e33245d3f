package lockfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
)

const (
	// IDEName is what the CLI shows the user ("Opened changes in Neovim").
	IDEName = "Neovim"
	// Transport must be exactly "ws": anything else makes the CLI try a
	// legacy SSE transport we do not serve.
	Transport = "ws"
)

// ErrRemoved is returned by SetWorkspaceFolders after Remove, so a late
// :cd during shutdown cannot bring the lock file back. Callers shutting
// down may ignore it.
var ErrRemoved = errors.New("lock file already removed")

// Info is the content of a lock file. The field order is the key order in
// the file.
type Info struct {
	// PID is Neovim's pid: the CLI deletes locks whose pid is dead.
	PID int `json:"pid"`
	// WorkspaceFolders are absolute paths; the CLI connects only when its
	// cwd is inside one of them (unless CLAUDE_CODE_SSE_PORT names the port).
	WorkspaceFolders []string `json:"workspaceFolders"`
	IDEName          string   `json:"ideName"`
	Transport        string   `json:"transport"`
	RunningInWindows bool     `json:"runningInWindows"`
	// AuthToken is sent by the CLI as X-Claude-Code-Ide-Authorization.
	AuthToken string `json:"authToken"`
}

// clone returns a copy that shares no memory with i, with WorkspaceFolders
// never nil so that it marshals as [] (the CLI iterates over it).
func (i Info) clone() Info {
	i.WorkspaceFolders = append(make([]string, 0, len(i.WorkspaceFolders)), i.WorkspaceFolders...)
	return i
}

// Lock is a lock file this process wrote. Its methods are safe for
// concurrent use.
type Lock struct {
	path string

	mu      sync.Mutex // serialises rewrites so the newest folders win on disk
	info    Info
	removed bool
}

// Create writes <dir>/<port>.lock for the server listening on port and
// returns its handle. dir is created with mode 0700 if missing (see
// EnsureDir). IDEName and Transport default to "Neovim" and "ws"; a
// Transport other than "ws" is refused, as is an empty AuthToken (the CLI
// would then connect without one). A lock left at the same path by an
// earlier server on this port is replaced: we hold the port now.
func Create(dir string, port int, info Info) (*Lock, error) {
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("create lock file: port %d out of range", port)
	}
	info = info.clone()
	if info.IDEName == "" {
		info.IDEName = IDEName
	}
	if info.Transport == "" {
		info.Transport = Transport
	}
	if err := validate(info); err != nil {
		return nil, fmt.Errorf("create lock file for port %d: %w", port, err)
	}
	if err := EnsureDir(dir); err != nil {
		return nil, err
	}
	l := &Lock{path: filepath.Join(dir, strconv.Itoa(port)+".lock"), info: info}
	if err := writeAtomic(l.path, info); err != nil {
		return nil, err
	}
	return l, nil
}

func validate(info Info) error {
	switch {
	case info.PID <= 0:
		return fmt.Errorf("pid %d is not a process id", info.PID)
	case info.Transport != Transport:
		return fmt.Errorf("transport %q: the CLI only speaks %q", info.Transport, Transport)
	case info.AuthToken == "":
		return errors.New("empty auth token")
	}
	return validateFolders(info.WorkspaceFolders)
}

// validateFolders refuses relative paths: the CLI compares them with its own
// cwd, so a relative folder would never match and the lock would be useless.
func validateFolders(folders []string) error {
	for _, f := range folders {
		if !filepath.IsAbs(f) {
			return fmt.Errorf("workspace folder %q is not an absolute path", f)
		}
	}
	return nil
}

// Path is the lock file's path.
func (l *Lock) Path() string { return l.path }

// Info returns a copy of what the lock file holds.
func (l *Lock) Info() Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.info.clone()
}

// SetWorkspaceFolders rewrites the lock file atomically with new folders,
// and does nothing when they are unchanged. The mutex is held across the
// write so that concurrent callers cannot leave an older list on disk than
// in memory.
func (l *Lock) SetWorkspaceFolders(folders []string) error {
	if err := validateFolders(folders); err != nil {
		return fmt.Errorf("update lock file %s: %w", l.path, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.removed {
		return fmt.Errorf("update lock file %s: %w", l.path, ErrRemoved)
	}
	if slices.Equal(l.info.WorkspaceFolders, folders) {
		return nil
	}
	next := l.info
	next.WorkspaceFolders = folders
	next = next.clone()
	if err := writeAtomic(l.path, next); err != nil {
		return err
	}
	l.info = next
	return nil
}

// Remove deletes the lock file. It is idempotent and succeeds when the file
// is already gone. A file at our path that no longer carries our token
// belongs to another server that took the port after ours closed, and is
// left alone.
func (l *Lock) Remove() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	// Set before deleting so no rewrite can follow, even if deleting fails;
	// a later Remove simply tries again.
	l.removed = true
	if cur, err := Read(l.path); err == nil && cur.AuthToken != l.info.AuthToken {
		return nil
	}
	if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove lock file: %w", err)
	}
	return nil
}

// Read parses the lock file at path. It checks nothing beyond valid JSON:
// it also reads other IDEs' locks, for :checkhealth and tests. A symbolic
// link, a FIFO or a device is refused, not read (readLock).
func Read(path string) (Info, error) {
	data, _, err := readLock(path)
	if err != nil {
		return Info{}, fmt.Errorf("read lock file: %w", err)
	}
	var info Info
	if err := json.Unmarshal(data, &info); err != nil {
		return Info{}, fmt.Errorf("read lock file %s: %w", path, err)
	}
	return info, nil
}

// writeAtomic replaces path with info's JSON so that a reader (the CLI
// polls every second) sees either the old or the new file, never a partial
// one. The temporary name starts with a dot and does not end in ".lock", so
// neither the CLI nor RemoveStale ever takes it for a lock.
func writeAtomic(path string, info Info) (err error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Paths with & < > stay readable; the CLI parses JSON, not HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(info.clone()); err != nil {
		return fmt.Errorf("write lock file %s: %w", path, err)
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))

	dir, base := filepath.Split(path)
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write lock file %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("write lock file %s: %w", path, err)
		}
	}()
	// CreateTemp asks for 0600, but the umask may have taken bits away
	// (0400 under umask 0277); rename keeps the mode, so set it exactly.
	if err := f.Chmod(fileMode); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	// Without fsync a crash right after the rename can leave an empty file
	// under the final name on some file systems.
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// The directory is not fsync-ed: after a crash the pid inside is dead
	// and the lock is stale anyway, so losing the rename costs nothing.
	return os.Rename(tmp, path)
}
