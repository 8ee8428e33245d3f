package ledger

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// gitRunner runs git for one private repository (gitDir) over one work tree.
type gitRunner struct {
	gitDir   string
	workTree string
	index    string // the index file's name in gitDir
	// failed, when set, hears of each git that failed (the store then looks for the lock
	// files it may have left; lock.go).
	failed *atomic.Bool
}

// errGitMissing: git is not on PATH; the ledger needs it.
var errGitMissing = errors.New("ledger: git is not installed (it is needed to record changes)")

// run runs git with args and returns its stdout; stdin, when not nil, is fed to it. Errors
// carry git's stderr.
func (g gitRunner) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.workTree
	cmd.Env = g.env()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errGitMissing
		}
		if g.failed != nil {
			g.failed.Store(true)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.Bytes(), fmt.Errorf("git %s: %s", subcommand(args), msg)
	}
	return stdout.Bytes(), nil
}

// env is this process's environment without any GIT_ variable, plus ours. The user's
// global config still applies (it holds their excludesFile), but not its fsmonitor: the
// store's index is ours, and no daemon or hook of any kind is started for it.
func (g gitRunner) env() []string {
	env := append(withoutGitEnv(),
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false",
		"GIT_DIR="+g.gitDir,
		"GIT_INDEX_FILE="+g.gitDir+"/"+cmp.Or(g.index, "index"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
	)
	if g.workTree != "" {
		env = append(env, "GIT_WORK_TREE="+g.workTree)
	}
	return env
}

// userRepo describes the git work tree a workspace is in, as the user's own git sees it.
type userRepo struct {
	top     string // the work tree's top directory
	objects string // its object store (the common dir's, for a linked worktree)
	exclude string // its info/exclude file
	format  string // object format: sha1 or sha256
	index   string // its index file (this worktree's)
}

// findUserRepo finds the git work tree dir is in the way a plain checkout has it: the
// nearest directory, dir or above, holding a .git (a directory, or a file naming one), whose
// top is that directory. Nothing found in the tree redirects it: a bare repository the
// workspace holds, core.worktree in any config and GIT_* variables are all ignored, so that
// a cloned workspace cannot point the ledger at $HOME or /usr (issue 35). ok is false when
// dir is in no work tree.
func findUserRepo(ctx context.Context, dir string) (userRepo, bool, error) {
	top, ok := workTreeTop(dir)
	if !ok {
		return userRepo{}, false, nil
	}
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--path-format=absolute",
		"--git-common-dir", "--show-object-format", "--git-path", "index")
	cmd.Dir = top
	// GIT_DIR and GIT_WORK_TREE given: no discovery, and core.worktree is overridden.
	cmd.Env = append(withoutGitEnv(), "GIT_DIR="+filepath.Join(top, ".git"), "GIT_WORK_TREE="+top,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return userRepo{}, false, errGitMissing
		}
		if strings.Contains(stderr.String(), "not a git repository") {
			return userRepo{}, false, nil
		}
		return userRepo{}, false, fmt.Errorf("ledger: git rev-parse in %s: %s", top, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 {
		return userRepo{}, false, nil
	}
	return userRepo{
		top:     top,
		objects: lines[0] + "/objects",
		exclude: lines[0] + "/info/exclude",
		format:  lines[1],
		index:   lines[2],
	}, true, nil
}

// workTreeTop is the nearest of dir and its parents that holds a .git directory or file.
func workTreeTop(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; {
		if info, err := os.Lstat(filepath.Join(d, ".git")); err == nil && (info.IsDir() || info.Mode().IsRegular()) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// withoutGitEnv is this process's environment without any GIT_ variable (a Neovim started
// from a git hook has GIT_DIR and GIT_INDEX_FILE set, which would point us at the user's
// repository).
func withoutGitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// subcommand is the first argument that is not an option, for error messages.
func subcommand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return strings.Join(args, " ")
}
