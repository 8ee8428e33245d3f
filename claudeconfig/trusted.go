package claudeconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// trustKey is the field of a projects entry that says the user trusts that folder.
const trustKey = "hasTrustDialogAccepted"

// ErrUnreadable says the config file exists but is not a JSON object the plugin can safely
// change; the user must fix it (or let the CLI rewrite it) first.
var ErrUnreadable = errors.New("not a JSON object")

// Trusted reports whether the config file at path trusts dir: dir or a folder above it (up
// to /) has hasTrustDialogAccepted true, as the CLI decides. A missing file trusts nothing;
// a file that does not parse is an error.
func Trusted(path, dir string) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	trusted, err := trustedIn(data)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if trusted[d] {
			return true, nil
		}
		if filepath.Dir(d) == d {
			return false, nil
		}
	}
}

// trustedIn lists the folders data's projects trust. Only a JSON true trusts, and entries of
// another shape are skipped rather than failing the whole file: the CLI owns their format.
func trustedIn(data []byte) (map[string]bool, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, ErrUnreadable
	}
	var projects map[string]json.RawMessage
	if raw, ok := top["projects"]; ok {
		_ = json.Unmarshal(raw, &projects) // not an object: nothing is trusted
	}
	trusted := map[string]bool{}
	for dir, raw := range projects {
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) == nil && bytes.Equal(bytes.TrimSpace(fields[trustKey]), []byte("true")) {
			trusted[filepath.Clean(dir)] = true
		}
	}
	return trusted, nil
}
