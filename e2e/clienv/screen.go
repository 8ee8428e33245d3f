package clienv

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// What the CLI shows, as read from its screen (tmux capture-pane, or the lines of Neovim's
// terminal buffer). Only the parts that carry meaning are read: the input box and the words
// of the busy footer and the permission dialog, which 2.1.197 and 2.1.332 share. The banner
// and the rest of the footer change between releases (2.1.332 added a mode banner and
// "⏵⏵ auto mode on (shift+tab to cycle)"; "? for shortcuts", which 2.1.197 showed whenever
// it idled, shows there only in some modes), so nothing here depends on them.
const (
	// BusyMarker is in the footer while the model's turn runs.
	BusyMarker = "esc to interrupt"
	// PermissionMarker starts the question of the permission dialog: "Do you want to make
	// this edit to f.txt?", "Do you want to create f.txt?". The dialog lists
	// " ❯ 1. Yes", "   2. Yes, allow all edits during this session (shift+tab)", "   3. No";
	// typing the digit answers at once.
	PermissionMarker = "Do you want to"
	// ProceedQuestion is the permission dialog's question for other tools, MCP tools such as
	// the IDE's getDiagnostics included.
	ProceedQuestion = PermissionMarker + " proceed?"
	// AutoModeOffer is a question 2.1.332 asks at start a user whose settings name a
	// defaultMode other than auto ("Make auto mode your default permission mode?", with
	// "❯ Yes, set auto mode …" and "No, keep accept edits"). No setting we found keeps it
	// away; a test answers it as a user keeping their mode does: Down, Enter.
	AutoModeOffer = "Make auto mode your default permission mode?"
	// inputPrompt starts the input box line. It is followed by a no-break space there, while
	// submitted prompts in the transcript above use a plain space.
	inputPrompt = "❯\u00a0"
)

// Idle reports whether the screen shows the CLI waiting for a prompt: its input box is there
// and empty, no turn runs and no dialog asks. Whether it takes keys is another matter: a
// caller that needs that types and waits for the text to show in the box (InputLine).
func Idle(screen string) bool {
	in, ok := InputLine(screen)
	return ok && in == "" && !strings.Contains(screen, BusyMarker) && !strings.Contains(screen, PermissionMarker)
}

// Rejected reports whether the screen shows the CLI's note of an edit or write of the file
// called name that the user rejected: "User rejected update to f.txt" (2.1.197), "Rejected
// update to f.txt" (2.1.332); for a new file "… write to f.txt".
func Rejected(screen, name string) bool {
	s := strings.ToLower(screen)
	return strings.Contains(s, "rejected update to "+strings.ToLower(name)) || strings.Contains(s, "rejected write to "+strings.ToLower(name))
}

// EditQuestion is the permission dialog's question for an Edit of the file called name
// (its base name), which the CLI asks in its terminal while the IDE shows the diff.
func EditQuestion(name string) string { return PermissionMarker + " make this edit to " + name + "?" }

// InputLine returns the text in the CLI's input box (the first line of it), e.g.
// "@greet.txt#L2-3" after an at_mentioned notification, and whether the box was found.
// 2.1.332 shows the editor's context as a chip at the start of the box ("[⧉ In greet.txt]",
// "[⧉ 2 lines selected]"), where 2.1.197 showed it in the footer: the chip is not text the
// user typed, so it is left out.
func InputLine(screen string) (string, bool) {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], inputPrompt) {
			in := strings.TrimSpace(strings.TrimPrefix(lines[i], inputPrompt))
			return strings.TrimSpace(contextChip.ReplaceAllString(in, "")), true
		}
	}
	return "", false
}

// contextChip is 2.1.332's editor-context chip at the start of the input box.
var contextChip = regexp.MustCompile(`^\[⧉ [^\]]*\]`)

// Bin returns the CLI binary from $CLAUDE_BIN (make e2e sets it). The test is skipped when
// the variable is unset, so a plain `go test ./...` costs nothing here, and fails when it
// names no executable file.
func Bin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("CLAUDE_BIN")
	if bin == "" {
		t.Skip("CLAUDE_BIN is not set: run `make e2e` (it installs the pinned Claude Code CLI with scripts/install-claude-cli and sets CLAUDE_BIN)")
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatalf("CLAUDE_BIN=%s: %v (run `make claude-cli`)", bin, err)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		t.Fatalf("CLAUDE_BIN=%s is not an executable file", bin)
	}
	return bin
}
