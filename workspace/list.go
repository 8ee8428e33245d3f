package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// MaxFiles bounds a listing: past it, List fails and asks for a narrower pattern rather
// than answer with some of the files as if they were all.
const MaxFiles = 50_000

// maxWalk bounds the entries (directories included) a walk visits, whatever matches.
const maxWalk = 500_000

// ErrTooMany: more files match than a listing returns, or the folder is too large to walk.
var ErrTooMany = errors.New("too many files")

// Listing is the files of a folder.
type Listing struct {
	Files []string // relative to the folder, with slashes, sorted
	Git   bool     // git listed them: .gitignore was respected
}

// List lists the regular files of folder that p matches, at most max (MaxFiles when
// max <= 0). In a folder holding its git work tree's .git, those git tracks or would
// (git ls-files -co --exclude-standard: ignored files left out); elsewhere, or when git
// fails there, every regular file but those under .git, found without following links.
func List(ctx context.Context, folder string, p *Pattern, max int) (Listing, error) {
	if max <= 0 {
		max = MaxFiles
	}
	if p == nil {
		p = &Pattern{}
	}
	root, err := os.OpenRoot(folder)
	if err != nil {
		return Listing{}, fmt.Errorf("open workspace folder: %w", err)
	}
	defer root.Close()
	if isWorkTree(folder) {
		names, err := gitListed(ctx, folder)
		if err == nil {
			files, err := regular(root, names, p, max)
			return Listing{Files: files, Git: true}, err
		}
		if ctx.Err() != nil {
			return Listing{}, ctx.Err()
		}
		// Not git's to say after all (no git installed, a repository it refuses as
		// another user's): the walk lists without .gitignore rather than fail.
	}
	files, err := walk(ctx, root, p, max)
	return Listing{Files: files}, err
}

// isWorkTree: folder itself holds a .git (a directory, or a file naming one).
func isWorkTree(folder string) bool {
	info, err := os.Lstat(filepath.Join(folder, ".git"))
	return err == nil && (info.IsDir() || info.Mode().IsRegular())
}

// gitListed runs git ls-files in folder: the tracked files and the untracked ones not
// ignored, NUL-separated. GIT_DIR and GIT_WORK_TREE are the folder's, so git discovers
// nothing above it and core.worktree cannot move it; no system config, no fsmonitor (a
// command the repository's config could name), no optional locks, no prompt.
func gitListed(ctx context.Context, folder string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = folder
	cmd.Env = append(withoutGitEnv(),
		"GIT_DIR="+filepath.Join(folder, ".git"), "GIT_WORK_TREE="+folder,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false",
		"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %v: %s", folder, err, strings.TrimSpace(stderr.String()))
	}
	out := strings.Split(strings.TrimSuffix(stdout.String(), "\x00"), "\x00")
	if len(out) == 1 && out[0] == "" {
		return nil, nil
	}
	return out, nil
}

// regular keeps the names p matches that are regular files now (git also lists a tracked
// file deleted since, a link, a nested repository's directory), sorted, without repeats
// (an unmerged file is listed once per stage).
func regular(root *os.Root, names []string, p *Pattern, max int) ([]string, error) {
	var out []string
	for _, n := range names {
		if !p.Match(n) {
			continue
		}
		info, err := root.Lstat(filepath.FromSlash(n))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > max {
		return nil, fmt.Errorf("%w: more than %d match", ErrTooMany, max)
	}
	return out, nil
}

// walk lists the regular files under root that p matches, skipping .git directories. It
// goes through the root, so a directory swapped for a link during the walk leads nowhere
// outside; links themselves are not listed nor followed.
func walk(ctx context.Context, root *os.Root, p *Pattern, max int) ([]string, error) {
	var out []string
	seen := 0
	err := fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && name != "." {
				return fs.SkipDir // unreadable: its files are not listed
			}
			return nil
		}
		if seen++; seen > maxWalk {
			return fmt.Errorf("%w: more than %d entries to walk", ErrTooMany, maxWalk)
		}
		if seen%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && p.Match(name) {
			if len(out) == max {
				return fmt.Errorf("%w: more than %d match", ErrTooMany, max)
			}
			out = append(out, name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// withoutGitEnv is this process's environment without any GIT_ variable (a Neovim started
// from a git hook has GIT_DIR and GIT_INDEX_FILE set, which would point git elsewhere).
func withoutGitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}
