package claudeconfig

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func TestTrustedCoversFoldersBelow(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, `{"projects":{"/home/u":{"hasTrustDialogAccepted":true},"/w/a":{"hasTrustDialogAccepted":true},"/w/b":{"hasTrustDialogAccepted":false},"/w/c":{"hasTrustDialogAccepted":"true"},"/w/d":7}}`, 0o600)
	for dir, want := range map[string]bool{
		"/w/a": true, "/w/a/sub/deeper": true, "/home/u/work": true, "/w/a/": true,
		"/w/b": false, "/w/c": false, "/w/d": false, "/w": false, "/w/ab": false, "/": false,
	} {
		if got, err := Trusted(path, dir); err != nil || got != want {
			t.Errorf("Trusted(%s) = %v, %v; want %v", dir, got, err, want)
		}
	}
}

func TestTrustedWithoutAFileTrustsNothingAndABadFileIsAnError(t *testing.T) {
	dir := t.TempDir()
	if got, err := Trusted(filepath.Join(dir, "none.json"), "/w"); got || err != nil {
		t.Errorf("Trusted(missing file) = %v, %v; want false, nil", got, err)
	}
	bad := filepath.Join(dir, "bad.json")
	write(t, bad, `{"projects": {`, 0o600)
	if got, err := Trusted(bad, "/w"); got || !errors.Is(err, ErrUnreadable) {
		t.Errorf("Trusted(truncated file) = %v, %v; want false, ErrUnreadable", got, err)
	}
}

func TestTrustKeepsTheRestOfTheFileItsModeAndItsLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "claude.json")
	const before = "{\n  \"zz\": {\"n\": 1.50, \"s\": \"\\u00e9\"},\n  \"projects\": {}\n}\n"
	write(t, real, before, 0o640)
	path := filepath.Join(dir, ".claude.json")
	if err := os.Symlink(real, path); err != nil {
		t.Fatal(err)
	}
	if err := Trust(context.Background(), path, "/w/p"); err != nil {
		t.Fatalf("Trust: %v", err)
	}
	got, _ := os.ReadFile(real)
	const want = "{\n  \"zz\": {\"n\": 1.50, \"s\": \"\\u00e9\"},\n  \"projects\": {\"/w/p\": {\"hasTrustDialogAccepted\":true}}\n}\n"
	if string(got) != want {
		t.Errorf("after Trust the file is\n%s\nwant\n%s", got, want)
	}
	if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the config file is no longer a link: %v, %v", info, err)
	}
	if info, _ := os.Stat(real); info.Mode().Perm() != 0o640 {
		t.Errorf("mode after Trust = %v, want 0640", info.Mode().Perm())
	}
	if ok, err := Trusted(path, "/w/p/sub"); !ok || err != nil {
		t.Errorf("Trusted after Trust = %v, %v", ok, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "dotfiles", "*.tmp.*")); len(left) > 0 || exists(real+lockSuffix) {
		t.Errorf("left behind: %v (lock there: %v)", left, exists(real+lockSuffix))
	}
}

func TestTrustCreatesAMissingFileReadableByTheUserAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", ".claude.json")
	if err := Trust(context.Background(), path, "/w/p"); err != nil {
		t.Fatalf("Trust: %v", err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("new config: %v, %v; want mode 0600", info, err)
	}
	if ok, err := Trusted(path, "/w/p"); !ok || err != nil {
		t.Errorf("Trusted after Trust = %v, %v", ok, err)
	}
}

func TestTrustRefusesAFileThatDoesNotParseAndLeavesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	const broken = `{"projects": {"/w/q": `
	write(t, path, broken, 0o600)
	err := Trust(context.Background(), path, "/w/p")
	if !errors.Is(err, ErrUnreadable) {
		t.Fatalf("Trust(broken file) = %v, want ErrUnreadable", err)
	}
	if got, _ := os.ReadFile(path); string(got) != broken {
		t.Errorf("the broken file was changed to %q", got)
	}
}

func TestTrustWaitsForTheCLIsLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, `{}`, 0o600)
	if err := os.Mkdir(path+lockSuffix, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Trust(ctx, path, "/w/p"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Trust while the CLI holds the lock = %v, want it to wait until ctx ends", err)
	}
	if got, _ := os.ReadFile(path); string(got) != `{}` {
		t.Errorf("written while locked: %q", got)
	}
	done := make(chan error, 1)
	go func() { done <- Trust(context.Background(), path, "/w/p") }()
	if err := os.Remove(path + lockSuffix); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Trust after the lock went: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Trust still waits after the lock went")
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Mkdir(path+lockSuffix, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path+lockSuffix, old, old); err != nil {
		t.Fatal(err)
	}
	if err := Trust(context.Background(), path, "/w/q"); err != nil {
		t.Fatalf("Trust with a stale lock left behind: %v", err)
	}
}

func TestPathAndFolderFollowTheCLI(t *testing.T) {
	home := t.TempDir()
	if got, want := Path([]string{"HOME=" + home, "CLAUDE_CONFIG_DIR=/c"}), "/c/.claude.json"; got != want {
		t.Errorf("Path with CLAUDE_CONFIG_DIR = %s, want %s", got, want)
	}
	if got, want := Path([]string{"HOME=" + home}), filepath.Join(home, ".claude.json"); got != want {
		t.Errorf("Path without CLAUDE_CONFIG_DIR = %s, want %s", got, want)
	}
	write(t, filepath.Join(home, ".claude", ".config.json"), `{}`, 0o600)
	if got, want := Path([]string{"HOME=" + home}), filepath.Join(home, ".claude", ".config.json"); got != want {
		t.Errorf("Path with the older file there = %s, want %s", got, want)
	}
	repo := filepath.Join(home, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{repo: repo, filepath.Join(repo, "a", "b"): repo, home: home} {
		if got := Folder(dir); got != want {
			t.Errorf("Folder(%s) = %s, want %s", dir, got, want)
		}
	}
}
