package e2e

import (
	"context"
	"testing"
)

// TestCaptureAChatPermissionScreen writes two screens to $CHAT_CAPTURE_PERMISSION, for the
// README and :help: a Bash permission request waiting in the transcript while the user's
// cursor stays in the input, then the answers opened with <CR> in the transcript. It only runs
// when that is set: CHAT_CAPTURE_PERMISSION=/tmp/perm.txt go test -run CaptureAChatPermission.
func TestCaptureAChatPermissionScreen(t *testing.T) {
	out, cli, _, env := captureSetup(t, "CHAT_CAPTURE_PERMISSION", bashTurns("npm test", "The tests pass.")...)
	term := neovimInTmux(t, env, env.Project, cli, 100, 20, "")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, "~"); err != nil {
		t.Fatal(err)
	}
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iRun the tests")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "asks for permission"); err != nil {
		t.Fatal(err)
	}
	term.Type("and then")
	if _, err := term.WaitForText(ctx, "and then"); err != nil {
		t.Fatal(err)
	}
	waiting := settledScreen(t, term)

	term.Send("Escape")
	term.Send("C-w")
	term.Type("k")
	term.Send("Enter")
	if _, err := term.WaitForText(ctx, "Deny"); err != nil {
		t.Fatal(err)
	}
	answers := settledScreen(t, term)
	writeCapture(t, out, waiting+"\n"+answers)
}
