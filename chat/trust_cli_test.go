package chat

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A chat started after the user trusted its folder in the editor tells the CLI so with
// initialize: 2.1.332 records the trust where it looks, at the git root, as its own dialog
// does, and says so; 2.1.197 ignores the field (no answer about it), and records nothing.
func TestCLIRecordsAWorkspaceTrustSentWithInitialize(t *testing.T) {
	r := newCLIRun(t)
	repo := filepath.Join(filepath.Dir(r.env.Project), "cloned")
	dir := filepath.Join(repo, "sub")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	s, err := Start(Options{Bin: os.Getenv("CLAUDE_BIN"), Dir: dir, Env: r.env.Vars(), WorkspaceTrust: repo})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(r.ctx) })
	init, err := s.Initialize(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var version struct {
		Version string `json:"claude_code_version"`
	}
	_ = json.Unmarshal(init.Raw, &version)
	data, err := os.ReadFile(filepath.Join(r.env.ConfigDir, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	var config struct {
		Projects map[string]struct {
			Trust *bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &config); err != nil {
		t.Fatal(err)
	}
	recorded := config.Projects[repo].Trust
	switch version.Version {
	case "": // 2.1.197 and other CLIs before the field (it names no version in initialize either)
		if init.WorkspaceTrustRecorded != nil || recorded != nil {
			t.Errorf("a CLI without workspaceTrust answered recorded=%v and its config has %v for %s", init.WorkspaceTrustRecorded, recorded, repo)
		}
	default:
		if init.WorkspaceTrustRecorded == nil || !*init.WorkspaceTrustRecorded {
			t.Errorf("CLI %s answered workspace_trust_recorded %v, want true", version.Version, init.WorkspaceTrustRecorded)
		}
		if recorded == nil || !*recorded {
			t.Errorf("CLI %s: projects[%s].hasTrustDialogAccepted = %v, want true; config:\n%s", version.Version, repo, recorded, data)
		}
	}
}

// The CLI keeps a home directory's trust for the session only (a trusted folder covers every
// folder below it): 2.1.332 answers workspace_trust_recorded false and writes nothing.
func TestCLIKeepsAHomeDirectorysTrustForTheSessionOnly(t *testing.T) {
	r := newCLIRun(t)
	s, err := Start(Options{Bin: os.Getenv("CLAUDE_BIN"), Dir: r.env.Home, Env: r.env.Vars(), WorkspaceTrust: r.env.Home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(r.ctx) })
	init, err := s.Initialize(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if init.WorkspaceTrustRecorded == nil {
		t.Skip("this CLI predates workspaceTrust (2.1.197)")
	}
	data, _ := os.ReadFile(filepath.Join(r.env.ConfigDir, ".claude.json"))
	var config struct {
		Projects map[string]struct {
			Trust *bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	_ = json.Unmarshal(data, &config)
	if *init.WorkspaceTrustRecorded || config.Projects[r.env.Home].Trust != nil && *config.Projects[r.env.Home].Trust {
		t.Errorf("the CLI recorded the home directory's trust: answered %v; config:\n%s", *init.WorkspaceTrustRecorded, data)
	}
}

// set_cwd moves a running CLI to another folder (2.1.332; 2.1.197 refuses the subtype): to
// an untrusted one it answers needs_trust with the folder to show, and moves there, recording
// the trust, only when asked again with trust_accepted and that folder as trusted_directory.
// The chat starts its CLI in the workspace, so it uses initialize's workspaceTrust instead.
func TestCLISetCwdAsksForTrustThenRecordsIt(t *testing.T) {
	r := newCLIRun(t)
	s := r.start(Options{})
	init, err := s.Initialize(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(r.env.Project), "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	var version struct {
		Version string `json:"claude_code_version"`
	}
	_ = json.Unmarshal(init.Raw, &version)
	raw, err := s.Control(r.ctx, "set_cwd", map[string]any{"path": other})
	if version.Version == "" { // 2.1.197, which names no version in initialize
		if !strings.Contains(fmt.Sprint(err), "Unsupported control request subtype: set_cwd") {
			t.Errorf("set_cwd on a CLI without it = %s, %v; want it refused", raw, err)
		}
		return
	}
	var answer struct {
		Status    string `json:"status"`
		Directory string `json:"directory"`
		Cwd       string `json:"cwd"`
	}
	if err != nil || json.Unmarshal(raw, &answer) != nil || answer.Status != "needs_trust" || answer.Directory != other {
		t.Fatalf("set_cwd to an untrusted folder = %s, %v; want needs_trust for %s", raw, err, other)
	}
	raw, err = s.Control(r.ctx, "set_cwd", map[string]any{"path": other, "trust_accepted": true, "trusted_directory": answer.Directory})
	if err != nil || json.Unmarshal(raw, &answer) != nil || answer.Status != "ok" || answer.Cwd != other {
		t.Fatalf("set_cwd with the trust = %s, %v; want ok in %s", raw, err, other)
	}
	data, _ := os.ReadFile(filepath.Join(r.env.ConfigDir, ".claude.json"))
	if !strings.Contains(string(data), `"`+other+`": {`) {
		t.Errorf("set_cwd with the trust recorded nothing for %s:\n%s", other, data)
	}
}
