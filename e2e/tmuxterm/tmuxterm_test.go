package tmuxterm_test

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
)

func TestTermRunsAProgramWithExactlyTheGivenEnvironment(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	term := tmuxterm.Start(t, tmuxterm.Options{Dir: dir, Env: []string{"GREETING=hi there", "PATH=/usr/bin:/bin"}, Width: 200, Height: 10},
		// The program waits for a last Enter before it exits: tmux 3.3 may drop what a program
		// prints right before exiting.
		"sh", "-c", `echo "$GREETING from $(pwd) TERM=$TERM HOME=${HOME:-unset}"; read line; echo "got <$line>"; read line; exit 3`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	screen, err := term.WaitForText(ctx, "hi there from")
	if err != nil {
		t.Fatal(err)
	}
	if want := "hi there from " + dir + " TERM=tmux-256color HOME=unset"; !strings.Contains(screen, want) {
		t.Errorf("screen = %q, want it to contain %q", screen, want)
	}
	if err := term.Type("a b;c"); err != nil {
		t.Fatal(err)
	}
	if err := term.Send("Enter"); err != nil {
		t.Fatal(err)
	}
	if _, err := term.WaitFor(ctx, regexp.MustCompile(`got <a b;c>`)); err != nil {
		t.Fatal(err)
	}
	if err := term.Send("Enter"); err != nil {
		t.Fatal(err)
	}
	// The pane stays after the program ends, so its exit status is visible.
	for {
		if dead, status := term.Exited(); dead {
			if status != 3 {
				t.Errorf("exit status = %d, want 3", status)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("program did not exit")
		case <-time.After(50 * time.Millisecond):
		}
	}
	if _, err := term.WaitForText(ctx, "never printed"); err == nil || !strings.Contains(err.Error(), "exited (status 3)") {
		t.Errorf("WaitForText after exit: err = %v, want it to say the program exited", err)
	}
}
