package ledger

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// gitRunner runs git for one private repository (gitDir) over one work tree.
type gitRunner struct {
	gitDir   string
	workTree string
	index    string // the index file's name in gitDir
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
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.Bytes(), fmt.Errorf("git %s: %s", subcommand(args), msg)
	}
	return stdout.Bytes(), nil
}

// env is this process's environment without any GIT_ variable (a Neovim started from a git
// hook has GIT_DIR and GIT_INDEX_FILE set, which would point us at the user's repository),
// plus ours. The user's global config still applies: it holds their excludesFile.
func (g gitRunner) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env,
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

// findUserRepo asks git about dir; ok is false when dir is in no work tree.
func findUserRepo(ctx context.Context, dir string) (userRepo, bool, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--path-format=absolute",
		"--show-toplevel", "--git-common-dir", "--show-object-format", "--git-path", "index")
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return userRepo{}, false, errGitMissing
		}
		if strings.Contains(stderr.String(), "not a git repository") {
			return userRepo{}, false, nil
		}
		return userRepo{}, false, fmt.Errorf("ledger: git rev-parse in %s: %s", dir, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 4 || lines[0] == "" {
		// A bare repository, or inside .git: no work tree to snapshot.
		return userRepo{}, false, nil
	}
	return userRepo{
		top:     lines[0],
		objects: lines[1] + "/objects",
		exclude: lines[1] + "/info/exclude",
		format:  lines[2],
		index:   lines[3],
	}, true, nil
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
