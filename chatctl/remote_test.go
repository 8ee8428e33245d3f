package chatctl

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/relay"
)

// remoteMap maps /work/app there to a temporary directory here.
func remoteMap(t *testing.T) (*relay.Map, string) {
	t.Helper()
	local := t.TempDir()
	if err := os.Mkdir(filepath.Join(local, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := relay.NewMap(map[string]string{"/work/app": local})
	if err != nil {
		t.Fatal(err)
	}
	return m, local
}

func TestARemoteChatsToolInputsAreMappedAndAPathOutsideTheMapIsLeftOut(t *testing.T) {
	m, local := remoteMap(t)
	in := json.RawMessage(`{"file_path":"/work/app/src/a.go","old_string":"x","uri":"file:///work/app/src/a.go"}`)
	out, outside := mapInput(in, m.ToLocal)
	var got map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if outside != "" || got["file_path"] != filepath.Join(local, "src", "a.go") || got["uri"] != "file://"+filepath.Join(local, "src", "a.go") || got["old_string"] != "x" {
		t.Errorf("mapped %s (outside %q), want the editor's paths and the rest as it was", out, outside)
	}
	for _, bad := range []string{`{"file_path":"/etc/passwd"}`, `{"file_path":"relative.go"}`, `{"notebook_path":"/work/other/n.ipynb"}`} {
		out, outside := mapInput(json.RawMessage(bad), m.ToLocal)
		if outside == "" || strings.Contains(string(out), "_path") {
			t.Errorf("%s: mapped to %s (outside %q), want the path left out and named", bad, out, outside)
		}
	}
	// Grep's relative path is the CLI's cwd's, the same on both sides.
	if out, outside := mapInput(json.RawMessage(`{"path":"src","pattern":"x"}`), m.ToLocal); outside != "" || !strings.Contains(string(out), `"path":"src"`) {
		t.Errorf("a relative search path: %s (outside %q), want it as it is", out, outside)
	}
}

func TestARemoteChatsMessageNamesTheRemotesPathsOrIsNotSent(t *testing.T) {
	m, local := remoteMap(t)
	p := &remoteProc{paths: m, name: "dev"}
	text, err := p.remoteMentions("look at @" + filepath.Join(local, "src", "a.go") + "#L3-5 and @src/b.go, mail@/x")
	if err != nil || text != "look at @/work/app/src/a.go#L3-5 and @src/b.go, mail@/x" {
		t.Errorf("mapped %q (%v)", text, err)
	}
	if _, err := p.remoteMentions("see @/etc/passwd"); !errors.Is(err, errOutsideMap) {
		t.Errorf("a mention outside the map: %v, want errOutsideMap", err)
	}
}

func TestARemoteChatsShownResultsAndHookInputsNameTheEditorsPaths(t *testing.T) {
	m, local := remoteMap(t)
	p := &remoteProc{paths: m, name: "dev"}
	if got := p.localText("The file /work/app/src/a.go has been updated; /work/apple stays"); got != "The file "+filepath.Join(local, "src", "a.go")+" has been updated; /work/apple stays" {
		t.Errorf("shown %q", got)
	}
	hook := remoteHookInput(m, json.RawMessage(`{"hook_event_name":"PreToolUse","cwd":"/work/app","transcript_path":"/home/u/.claude/x.jsonl","tool_input":{"file_path":"/work/app/src/a.go"}}`))
	var got struct {
		Cwd        string            `json:"cwd"`
		Transcript *string           `json:"transcript_path"`
		ToolInput  map[string]string `json:"tool_input"`
	}
	if err := json.Unmarshal(hook, &got); err != nil {
		t.Fatal(err)
	}
	if got.Cwd != local || got.Transcript != nil || got.ToolInput["file_path"] != filepath.Join(local, "src", "a.go") {
		t.Errorf("hook input %s, want the editor's cwd and file and no transcript", hook)
	}
}
