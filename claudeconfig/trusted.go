package claudeconfig

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// trustKey is the field of a projects entry that says the user trusts that folder.
const trustKey = "hasTrustDialogAccepted"

// ErrUnreadable says the config file exists but is not a JSON object the plugin can safely
// change; the user must fix it (or let the CLI rewrite it) first.
var ErrUnreadable = errors.New("not a JSON object")

// Trusted reports whether the config file at path trusts dir: dir or a folder above it (up
// to /) has hasTrustDialogAccepted true, as the CLI decides. A missing file trusts nothing;
// a file that does not parse is an error, and so is one that is not a regular file or is
// past maxConfigSize. Only a JSON true trusts, and entries of another shape are skipped
// rather than failing the whole file: the CLI owns their format.
func Trusted(path, dir string) (bool, error) {
	f, _, err := openConfig(resolve(path))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	above := map[string]bool{}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		above[d] = true
		if filepath.Dir(d) == d {
			break
		}
	}
	doc, err := scan(context.Background(), f, func(folder string) bool { return above[filepath.Clean(folder)] })
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	for _, e := range doc.entries {
		if e.trust != nil && e.trust.kind == 't' {
			return true, nil
		}
	}
	return false, nil
}
