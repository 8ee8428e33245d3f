package relay

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrOutsideMap is a path that no mapping covers: it is refused, never
// passed on, whichever side named it.
var ErrOutsideMap = errors.New("outside the remote's path map")

// Map translates paths between the remote side (where the CLI runs) and
// this machine (where Neovim edits them): each pair is a remote prefix and
// the local directory that holds the same files (sshfs, a bind mount).
type Map struct {
	pairs []pair // longest remote prefix first, for ToLocal; see byLocal
	local []pair // longest local prefix first, for ToRemote
}

type pair struct{ remote, local string }

// NewMap checks a configured map: remote prefix -> local directory, both
// absolute (the local one after ~ is expanded by the caller).
func NewMap(remoteToLocal map[string]string) (*Map, error) {
	if len(remoteToLocal) == 0 {
		return nil, errors.New("path map: empty (map = { [\"/remote/dir\"] = \"/local/dir\" })")
	}
	m := &Map{}
	for r, l := range remoteToLocal {
		if !filepath.IsAbs(r) || !filepath.IsAbs(l) {
			return nil, fmt.Errorf("path map: %q = %q: both sides must be absolute paths", r, l)
		}
		m.pairs = append(m.pairs, pair{remote: filepath.Clean(r), local: filepath.Clean(l)})
	}
	m.local = append([]pair(nil), m.pairs...)
	sort.Slice(m.pairs, func(i, j int) bool { return len(m.pairs[i].remote) > len(m.pairs[j].remote) })
	sort.Slice(m.local, func(i, j int) bool { return len(m.local[i].local) > len(m.local[j].local) })
	return m, nil
}

// RemoteRoots are the remote prefixes: the lock's workspace folders.
func (m *Map) RemoteRoots() []string {
	out := make([]string, 0, len(m.pairs))
	for _, p := range m.local { // in a stable order: the local sort's
		out = append(out, p.remote)
	}
	sort.Strings(out)
	return out
}

// LocalRoots are the local directories, sorted.
func (m *Map) LocalRoots() []string {
	out := make([]string, 0, len(m.pairs))
	for _, p := range m.pairs {
		out = append(out, p.local)
	}
	sort.Strings(out)
	return out
}

// ToLocal maps a path the remote CLI named. A relative path, one outside
// every prefix, or one that leads through a symbolic link out of its
// local directory is refused: a hostile remote gets errors, never access.
func (m *Map) ToLocal(remote string) (string, error) {
	if !filepath.IsAbs(remote) {
		return "", fmt.Errorf("%q: %w (not an absolute path)", remote, ErrOutsideMap)
	}
	clean := filepath.Clean(remote)
	for _, p := range m.pairs {
		if rest, ok := under(clean, p.remote); ok {
			local := filepath.Join(p.local, rest)
			if err := inside(local, p.local); err != nil {
				return "", fmt.Errorf("%q: %w", remote, err)
			}
			return local, nil
		}
	}
	return "", fmt.Errorf("%q: %w (mapped: %s)", remote, ErrOutsideMap, strings.Join(m.RemoteRoots(), ", "))
}

// ToRemote maps a path of this machine for the remote CLI.
func (m *Map) ToRemote(local string) (string, error) {
	if !filepath.IsAbs(local) {
		return "", fmt.Errorf("%q: %w (not an absolute path)", local, ErrOutsideMap)
	}
	clean := filepath.Clean(local)
	for _, p := range m.local {
		if rest, ok := under(clean, p.local); ok {
			return filepath.Join(p.remote, rest), nil
		}
	}
	return "", fmt.Errorf("%q: %w", local, ErrOutsideMap)
}

// under reports whether path is prefix or below it, and the rest.
func under(path, prefix string) (string, bool) {
	if path == prefix {
		return "", true
	}
	if prefix == string(filepath.Separator) {
		return path[1:], true
	}
	if strings.HasPrefix(path, prefix+string(filepath.Separator)) {
		return path[len(prefix)+1:], true
	}
	return "", false
}

// inside refuses a local path whose deepest existing ancestor resolves,
// through symbolic links, outside root (itself resolved): the map names a
// directory, and a link in it must not lead the remote out of it.
func inside(path, root string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("the mapped directory %s: %w", root, err)
	}
	p := path
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			if _, ok := under(real, realRoot); !ok {
				return fmt.Errorf("%w: %s leads out of %s through a symbolic link", ErrOutsideMap, path, root)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// ExpandHome expands a leading ~/ of a configured local directory.
func ExpandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}
