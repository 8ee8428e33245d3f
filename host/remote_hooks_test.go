package host

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/relay"
)

// A remote's hook event names files in its terms: those of its map reach the hook bus under
// the editor's paths, any other (absolute outside, relative, through a link out) is left out.
func TestARemoteHooksPathsAreMappedAndThoseOutsideTheMapLeftOut(t *testing.T) {
	local := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(local, "out")); err != nil {
		t.Fatal(err)
	}
	m, err := relay.NewMap(map[string]string{"/w": local})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"file_path":"/w/a.txt","old_string":"x"}`, `{"file_path":"` + filepath.Join(local, "a.txt") + `","old_string":"x"}`},
		{`{"file_path":"/etc/passwd","content":"x"}`, `{"content":"x"}`},
		{`{"notebook_path":"../w/n.ipynb"}`, `{}`},
		{`{"path":"/w/out/secret"}`, `{}`},
		{`{"command":"ls"}`, `{"command":"ls"}`},
	} {
		got := localToolInput(m, json.RawMessage(c.in))
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal([]byte(c.want), &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("localToolInput(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := localOrEmpty(m, "/elsewhere"); got != "" {
		t.Errorf("a cwd outside the map became %q, want none", got)
	}
	if got := localOrEmpty(m, "/w/sub"); got != filepath.Join(local, "sub") {
		t.Errorf("a cwd in the map became %q", got)
	}
}
