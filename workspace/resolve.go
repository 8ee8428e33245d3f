package workspace

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrOutside: the path is outside every workspace folder, or a link on its way leads out.
var ErrOutside = errors.New("outside the workspace")

// ErrBadPath: the path is empty or holds a NUL byte.
var ErrBadPath = errors.New("bad path")

// ErrNoFolder: the editor has no workspace folder to resolve a path in.
var ErrNoFolder = errors.New("the editor has no workspace folder")

// Target is a path resolved in the workspace: the folder it is in and its name there.
type Target struct {
	Folder string // the workspace folder, absolute and clean
	Rel    string // the path inside Folder, in the OS's form; "." for the folder itself
	Abs    string // Folder joined with Rel
}

// Resolve resolves p in folders: a relative p is relative to the first (the primary
// folder); an absolute one must lie inside one of them. Only the names are looked at here:
// the links on the way are checked when the file is opened (Read, Check). Of nested
// folders the outermost is taken, so a link from one into its parent stays inside.
func Resolve(folders []string, p string) (Target, error) {
	if len(folders) == 0 {
		return Target{}, ErrNoFolder
	}
	if p == "" {
		return Target{}, fmt.Errorf("%w: empty", ErrBadPath)
	}
	if strings.IndexByte(p, 0) >= 0 {
		return Target{}, fmt.Errorf("%w: a path cannot hold a NUL byte", ErrBadPath)
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(folders[0], p)
	}
	abs = filepath.Clean(abs)
	best := Target{}
	for _, f := range folders {
		f = filepath.Clean(f)
		rel, ok := inside(f, abs)
		if ok && (best.Folder == "" || len(f) < len(best.Folder)) {
			best = Target{Folder: f, Rel: rel, Abs: abs}
		}
	}
	if best.Folder == "" {
		return Target{}, fmt.Errorf("%s: %w folders (%s)", p, ErrOutside, strings.Join(folders, ", "))
	}
	return best, nil
}

// inside reports whether abs is folder or below it, and its name there.
func inside(folder, abs string) (string, bool) {
	rel, err := filepath.Rel(folder, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// Display is how a path is shown to a client: relative (with slashes) when it is inside
// the primary folder, absolute otherwise, so that what listFiles and getOpenFiles give can
// be passed back to readFile as it is.
func Display(primary, abs string) string {
	if rel, ok := inside(filepath.Clean(primary), filepath.Clean(abs)); ok && rel != "." {
		return filepath.ToSlash(rel)
	}
	return abs
}

// Within reports whether abs lies in one of folders (by name; links are not looked at).
func Within(folders []string, abs string) bool {
	for _, f := range folders {
		if _, ok := inside(filepath.Clean(f), filepath.Clean(abs)); ok {
			return true
		}
	}
	return false
}
