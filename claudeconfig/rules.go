package claudeconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The permission rules of the CLI's settings files: the chat lists the live rules through the
// CLI (list_permission_rules) and removes one here, as no control request changes rules. The
// CLI reads a settings file again when it changes (2.1.332: the next list_permission_rules,
// and the next tool call, go without the rule). Only the rule's entry is taken out of the
// file: every other byte stays as it was.

// ErrNoRule is RemoveRule for a rule the file does not hold (removed meanwhile, or never
// there).
var ErrNoRule = errors.New("no such rule in the file")

// ErrLink is a workspace settings file (or its .claude folder) that is a symbolic link: it
// may lead out of the workspace, so it is neither read nor written.
var ErrLink = errors.New("is a symbolic link")

// SettingsPath is the settings file of a rule source (list_permission_rules' source) for a
// CLI run in dir with env (KEY=VALUE, nil for ours): userSettings is
// $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json; projectSettings
// dir/.claude/settings.json; localSettings dir/.claude/settings.local.json. Other sources
// (the command line, the session, managed policy, …) have no file we may change.
func SettingsPath(env []string, dir, source string) (string, error) {
	if env == nil {
		env = os.Environ()
	}
	switch source {
	case "userSettings":
		if d := lookup(env, "CLAUDE_CONFIG_DIR"); d != "" {
			return filepath.Join(d, "settings.json"), nil
		}
		return filepath.Join(lookup(env, "HOME"), ".claude", "settings.json"), nil
	case "projectSettings":
		return filepath.Join(dir, ".claude", "settings.json"), nil
	case "localSettings":
		return filepath.Join(dir, ".claude", "settings.local.json"), nil
	}
	return "", fmt.Errorf("rules from %s live in no settings file claude.nvim changes", source)
}

// RemoveRule takes the first entry equal to rule out of permissions.<behavior> ("allow",
// "deny", "ask") of the settings file at path. In a workspace (inside, a folder), neither the
// file nor its folder may be a link; the user's own file may be (dotfiles), and the file it
// leads to is changed. The file is replaced atomically, with its mode.
func RemoveRule(path, inside, behavior, rule string) error {
	if inside != "" {
		for _, p := range []string{filepath.Dir(path), path} {
			if info, err := os.Lstat(p); err == nil && info.Mode()&fs.ModeSymlink != 0 {
				return fmt.Errorf("remove rule %s: %s %w; edit it yourself", rule, p, ErrLink)
			}
		}
	} else if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("remove rule %s: %w", rule, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("remove rule %s: %w", rule, err)
	}
	changed, err := withoutRule(data, behavior, rule)
	if err != nil {
		return fmt.Errorf("remove rule %s from %s: %w", rule, path, err)
	}
	if err := replace(path, info.Mode().Perm(), func(w io.Writer) error {
		_, err := w.Write(changed)
		return err
	}); err != nil {
		return fmt.Errorf("remove rule %s: %w", rule, err)
	}
	return nil
}

// withoutRule returns data without the first entry rule of permissions.<behavior>.
func withoutRule(data []byte, behavior, rule string) ([]byte, error) {
	start := bytes.IndexByte(data, '{')
	end := bytes.LastIndexByte(data, '}')
	if start < 0 || end < start || !json.Valid(data) {
		return nil, ErrUnreadable
	}
	top, err := members(data, start, end+1)
	if err != nil {
		return nil, err
	}
	perms := lastNamed(top, "permissions")
	if perms == nil || data[perms.start] != '{' {
		return nil, ErrNoRule
	}
	inner, err := members(data, perms.start, perms.end)
	if err != nil {
		return nil, err
	}
	list := lastNamed(inner, behavior)
	if list == nil || data[list.start] != '[' {
		return nil, ErrNoRule
	}
	els, err := elements(data, list.start, list.end)
	if err != nil {
		return nil, err
	}
	for i, el := range els {
		var s string
		if json.Unmarshal(data[el.start:el.end], &s) != nil || s != rule {
			continue
		}
		// The entry with the comma after it, or the one before it when it is the last.
		from, to := el.start, el.end
		if i+1 < len(els) {
			to = els[i+1].start
		} else if i > 0 {
			from = els[i-1].end
		}
		out := append(append([]byte{}, data[:from]...), data[to:]...)
		if !json.Valid(out) {
			return nil, ErrUnreadable
		}
		return out, nil
	}
	return nil, ErrNoRule
}

// member is one value of a JSON object (with its name) or array, by byte offsets.
type member struct {
	name       string
	start, end int // the value's bytes: data[start:end]
}

// members lists the members of the JSON object at data[start:end], in order, duplicates
// included.
func members(data []byte, start, end int) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:end]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ErrUnreadable
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, ErrUnreadable
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, ErrUnreadable
		}
		valueEnd := start + int(dec.InputOffset())
		out = append(out, member{name: name, start: valueEnd - len(raw), end: valueEnd})
	}
	return out, nil
}

// lastNamed is the member named name that a JSON parser keeps (the last of duplicates), or
// nil.
func lastNamed(ms []member, name string) *member {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].name == name {
			return &ms[i]
		}
	}
	return nil
}

// elements lists the values of the JSON array at data[start:end], by byte offsets.
func elements(data []byte, start, end int) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:end]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, ErrUnreadable
	}
	var out []member
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, ErrUnreadable
		}
		valueEnd := start + int(dec.InputOffset())
		out = append(out, member{start: valueEnd - len(raw), end: valueEnd})
	}
	return out, nil
}
