package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// What the user gets for an Edit in each permission mode the plugin can start Claude in
// (permission_mode, or the user's own Claude settings): the review in Neovim before the
// write, or the edit written (or refused) without it, and a message that says so.

// withPermissionMode sets permission_mode (nil for "") before :Claude open, keeping the rest
// of newSession's setup.
func (s *session) withPermissionMode(mode string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local mode = ...
		local cfg = vim.deepcopy(require('claude').config())
		cfg.permission_mode = mode ~= '' and mode or nil
		require('claude').setup(cfg)`, mode)
}

// statusSays checks :Claude status's permission line.
func (s *session) statusSays(want string) {
	s.t.Helper()
	out, err := s.nv.Exec("ClaudeStatus", true)
	if err != nil {
		s.t.Fatalf(":Claude status: %v", err)
	}
	if !strings.Contains(out, "permission mode: "+want) {
		s.t.Errorf(":Claude status printed\n%s\nwant a line with %q", out, "permission mode: "+want)
	}
}

func TestWithDefaultSettingsAnEditIsReviewedInNeovimBeforeItIsWritten(t *testing.T) {
	t.Parallel()
	// No permission_mode, no Claude settings: the CLI's own default (2.1.332: auto) would
	// write the edit unseen; the plugin starts it in default mode, and the review opens.
	s, path := startEdit(t, "Louder now.", nil)
	s.statusSays("default (from claude.nvim's default (review before write)): Claude asks before each edit")
	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	s.assertWrittenAsProposed(path, "after accepting")
	if msgs := s.nv.Messages(); strings.Contains(msgs, "without") {
		t.Errorf("a reviewed setup got the warning:\n%s", msgs)
	}
}

func TestEachPermissionModeGivesTheEditReviewOrSaysWhyNot(t *testing.T) {
	for _, tt := range []struct {
		name     string
		mode     string         // permission_mode
		settings map[string]any // the user's Claude settings
		review   bool           // the diff opens (accepted here)
		written  bool           // the file ends as proposed
		status   string         // :Claude status's permission line
		warning  string         // in :messages, when the review is skipped
		line     string         // statusline() with the CLI connected
	}{
		{name: "default asks, so the review opens", mode: "default", review: true, written: true,
			status: "default (from permission_mode)", line: "Claude ●"},
		{name: "manual is default by its 2.1.332 name", mode: "manual", review: true, written: true,
			status: "default (from permission_mode)", line: "Claude ●"},
		{name: "acceptEdits writes without the review and says so", mode: "acceptEdits", written: true,
			status: "acceptEdits (from permission_mode)", warning: "Claude runs in acceptEdits mode (from permission_mode): edits are written without asking", line: "Claude ● acceptEdits"},
		{name: "auto writes without the review and says so", mode: "auto", written: true,
			status: "auto (from permission_mode)", warning: "Claude runs in auto mode (from permission_mode)", line: "Claude ● auto"},
		{name: "bypassPermissions writes without the review and says so", mode: "bypassPermissions", written: true,
			status: "bypassPermissions (from permission_mode)", warning: "Claude runs in bypassPermissions mode", line: "Claude ● bypassPermissions"},
		{name: "plan asks before an edit the model makes anyway, so the review opens", mode: "plan", review: true, written: true,
			status: "plan (from permission_mode): Claude plans", line: "Claude ●"},
		{name: "dontAsk refuses the edit without asking and says so", mode: "dontAsk",
			status: "dontAsk (from permission_mode)", warning: "Claude runs in dontAsk mode", line: "Claude ● dontAsk"},
		{name: "the user's own defaultMode is kept and named", settings: map[string]any{"permissions": map[string]any{"defaultMode": "acceptEdits"}}, written: true,
			status: "acceptEdits (from defaultMode in ", warning: "settings.json): edits are written without asking", line: "Claude ● acceptEdits"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newSession(t)
			path := s.writeFile("greet.txt", original)
			s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Turn over."))
			if tt.settings != nil || tt.mode == "bypassPermissions" {
				// With the first-run answers of a user who chose such a mode before.
				s.env.WriteSettings(t, tt.settings)
			}
			if tt.mode == "bypassPermissions" && os.Geteuid() == 0 {
				// The CLI refuses this mode to root unless told it runs in a sandbox.
				s.nv.Lua(nil, `vim.env.IS_SANDBOX = '1'`)
			}
			s.withPermissionMode(tt.mode)
			s.edit(path)
			s.open()
			s.statusSays(tt.status)
			var line string
			s.nv.Lua(&line, `return require('claude').statusline()`)
			if line != tt.line {
				t.Errorf("statusline() = %q, want %q", line, tt.line)
			}
			msgs := s.nv.Messages()
			if tt.warning != "" && !strings.Contains(msgs, tt.warning) {
				t.Errorf(":messages\n%s\nwant the warning %q", msgs, tt.warning)
			}
			if tt.warning == "" && strings.Contains(msgs, "Claude runs in") {
				t.Errorf(":messages\n%s\nwant no warning: the edits are reviewed", msgs)
			}

			s.prompt("Please make the second line of greet.txt louder")
			if tt.review {
				s.nextDiffOpened(path)
				s.goToTheProposal()
				s.nv.Keys(`\aa`)
				s.nextDiffClosed("accepted")
			}
			s.waitText("Turn over.", turnTimeout)
			select {
			case ev := <-s.diffOpened:
				if !tt.review {
					t.Errorf("a diff opened (%v); in this mode the edit is not reviewed", ev)
				}
			default:
			}
			want := original
			if tt.written {
				want = proposed
			}
			if got := s.fileContent(path); got != want {
				t.Errorf("greet.txt holds %q, want %q", got, want)
			}
		})
	}
}
