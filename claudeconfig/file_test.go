//go:build unix

package claudeconfig

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFor bounds the wait for a call that must not hang: generous, for a busy machine.
const waitFor = 30 * time.Second

// within runs f and returns its error, failing the test if it has not returned after waitFor.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(waitFor):
		t.Fatalf("%s still runs after %v", what, waitFor)
		return nil
	}
}

// A config file that is not a regular file is refused at once, by the check and by a yes,
// whether it is there itself or behind a link, and the CLI's lock is given back: a FIFO there
// hung the write for ever, holding the lock; a link to /dev/zero would read for ever.
func TestAConfigThatIsNotARegularFileIsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	linkToFIFO := filepath.Join(dir, "to-fifo.json")
	linkToZero := filepath.Join(dir, "to-zero.json")
	linkToNothing := filepath.Join(dir, "to-nothing.json")
	for link, target := range map[string]string{linkToFIFO: fifo, linkToZero: "/dev/zero", linkToNothing: filepath.Join(dir, "gone")} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range []string{fifo, linkToFIFO, linkToZero, linkToNothing, dir} {
		err := within(t, "Trust of "+path, func() error { return Trust(context.Background(), path, "/w/p") })
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("Trust with the config at %s = %v; want ErrNotRegular", path, err)
		}
		if real := resolve(path); exists(real + lockSuffix) {
			t.Errorf("Trust with the config at %s left the CLI's lock %s", path, real+lockSuffix)
		}
		err = within(t, "Trusted of "+path, func() error { _, err := Trusted(path, "/w/p"); return err })
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("Trusted with the config at %s = %v; want ErrNotRegular", path, err)
		}
	}
	if info, err := os.Lstat(linkToNothing); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to nothing was replaced: %v, %v", info, err)
	}
}

// A config file past maxConfigSize is refused, by the check and by a yes, with a message
// that says what to do; the file stays as it was.
func TestAConfigPastTheSizeLimitIsRefusedWithAClearMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, `{"projects":{}}`, 0o600)
	if err := os.Truncate(path, maxConfigSize+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	err := within(t, "Trust", func() error { return Trust(context.Background(), path, "/w/p") })
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "256 MiB") || !strings.Contains(err.Error(), "run claude in a terminal") {
		t.Errorf("Trust of a file past the limit = %v; want ErrTooLarge saying the limit and what to do", err)
	}
	if _, err := Trusted(path, "/w/p"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Trusted of a file past the limit = %v; want ErrTooLarge", err)
	}
	if info, _ := os.Stat(path); info.Size() != maxConfigSize+1 {
		t.Errorf("the file changed: %d bytes", info.Size())
	}
}

// A yes gives up when its deadline passes while it reads a large file, leaving the file as it
// was and the CLI's lock free.
func TestTrustStopsAtItsDeadline(t *testing.T) {
	dir := t.TempDir()
	path := bigConfig(t, dir, 16<<20)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // past its deadline from the start: the lock is free, the read stops
	err = within(t, "Trust", func() error { return Trust(ctx, path, "/w/p") })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Trust past its deadline = %v; want context.Canceled", err)
	}
	if after, _ := os.Stat(path); after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the file changed after a Trust past its deadline")
	}
	if exists(path + lockSuffix) {
		t.Errorf("the CLI's lock is left")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp.*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// In a large file, a yes changes the one value and not another byte.
func TestTrustOfALargeFileChangesOnlyTheOneValue(t *testing.T) {
	path := bigConfig(t, t.TempDir(), 8<<20)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const folder = "/home/u/work/project-3"
	entry := strings.Index(string(before), `"`+folder+`": {`)
	at := entry + strings.Index(string(before[entry:]), `"hasTrustDialogAccepted": false`) + len(`"hasTrustDialogAccepted": `)
	want := string(before[:at]) + "true" + string(before[at+len("false"):])
	if err := within(t, "Trust", func() error { return Trust(context.Background(), path, folder) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("Trust changed more than the one value (%d bytes before, %d after)", len(before), len(got))
	}
	if ok, err := Trusted(path, folder+"/sub"); !ok || err != nil {
		t.Errorf("Trusted after Trust = %v, %v", ok, err)
	}
}
