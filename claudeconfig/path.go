package claudeconfig

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Path is the CLI's global config file for an environment (KEY=VALUE list, nil for ours):
// $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude/.config.json if it exists, else
// ~/.claude.json.
func Path(env []string) string {
	if env == nil {
		env = os.Environ()
	}
	dir, home := lookup(env, "CLAUDE_CONFIG_DIR"), lookup(env, "HOME")
	if dir != "" {
		return filepath.Join(dir, ".claude.json")
	}
	if legacy := filepath.Join(home, ".claude", ".config.json"); exists(legacy) {
		return legacy
	}
	return filepath.Join(home, ".claude.json")
}

// lookup is key's value in env; the last setting wins, as in exec.
func lookup(env []string, key string) string {
	for _, kv := range slices.Backward(env) {
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Folder is where a yes for dir is recorded, as the CLI's dialog records it: the root of the
// git repository dir is in (the nearest folder holding .git, a directory or a worktree's
// file), else dir itself. dir must be absolute.
func Folder(dir string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
