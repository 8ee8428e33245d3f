package plugintest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :Claude dictate with stand-in record and transcribe commands (shell scripts written here):
// the text lands where the user was, is never sent, and every failure says why and inserts
// nothing.

// dictation is a Neovim with stand-in commands in dir.
type dictation struct {
	t      *testing.T
	nv     *nvimtest.Nvim
	dir    string
	events <-chan map[string]any
}

const spoken = "  please refactor\tthe parser\r\n"

// The stand-ins: each writes its arguments to dir/<name>-args first.
var dictationScripts = map[string]string{
	// Writes some audio, then says it runs (the test stops it from then on: the other way
	// round, a stop under load came before the audio), then waits to be stopped.
	"recorder": `printf 'RIFF-not-really-audio' > "$1"
echo $$ > "$DIR/recorder-pid"
exec sleep 600`,
	"failing-recorder": `echo "arecord: main:850: audio open error: No such device" >&2
exit 1`,
	// A carriage return and a tab: neither may reach the prompt as such.
	"transcriber": `test -s "$1" || { echo "no audio in $1" >&2; exit 3; }
printf '` + strings.ReplaceAll(strings.ReplaceAll(spoken, "\t", `\t`), "\r\n", `\r\n`) + `'`,
	"silent-transcriber": `exit 0`,
}

func newDictation(t *testing.T) *dictation {
	t.Helper()
	dir := t.TempDir()
	for name, body := range dictationScripts {
		script := "#!/bin/sh\nDIR='" + dir + "'\nprintf '%s\\n' \"$@\" > \"$DIR/" + name + "-args\"\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	nv := newNvim(t)
	return &dictation{t: t, nv: nv, dir: dir, events: nv.UserEvents("ClaudeDictation")}
}

// setup configures the plugin with the stand-in CLI, and the named record and transcribe
// stand-ins ("" for none).
func (d *dictation) setup(cli, record, transcribe string) {
	d.t.Helper()
	d.nv.Lua(nil, `
		local cli, record, transcribe = ...
		require('claude').setup({ terminal_cmd = { cli }, dictation = {
			record = record ~= "" and { record, "{file}" } or nil,
			transcribe = transcribe ~= "" and { transcribe, "{file}" } or nil,
		} })`, cli, d.script(record), d.script(transcribe))
}

func (d *dictation) script(name string) string {
	if name == "" {
		return ""
	}
	return filepath.Join(d.dir, name)
}

// openChatInput starts a chat with the stand-in CLI and goes to its input, which holds text.
func (d *dictation) openChatInput(text string) int {
	d.t.Helper()
	nvimtest.TrustWorkspaces(d.t, d.nv)
	d.nv.Cmd("ClaudeChat")
	var buf int
	d.nv.Lua(&buf, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))
		vim.api.nvim_buf_set_lines(b.input, 0, -1, false, { ... })
		return b.input`, text)
	return buf
}

func (d *dictation) lines(buf int) string {
	var lines []string
	d.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(..., 0, -1, false)`, buf)
	return strings.Join(lines, "\n")
}

// next waits for the next ClaudeDictation event and checks its state.
func (d *dictation) next(state string) map[string]any {
	d.t.Helper()
	ev := nvimtest.Next(d.t, d.events, "User ClaudeDictation "+state, waitTimeout)
	if ev["state"] != state {
		d.t.Fatalf("ClaudeDictation %v, want state %s; messages:\n%s", ev, state, d.nv.Messages())
	}
	return ev
}

// audioFile is the {file} the recorder got, once it started.
func (d *dictation) audioFile() string {
	d.t.Helper()
	var args []byte
	nvimtest.Wait(d.t, "the recorder to start", waitTimeout, func() bool {
		b, err := os.ReadFile(filepath.Join(d.dir, "recorder-pid"))
		if err == nil && len(b) > 0 {
			args, _ = os.ReadFile(filepath.Join(d.dir, "recorder-args"))
		}
		return len(args) > 0
	})
	return strings.TrimSpace(string(args))
}

func gone(path string) bool {
	_, err := os.Stat(path)
	return os.IsNotExist(err)
}

func TestDictationPutsTheTextInTheChatInputAndSendsNothing(t *testing.T) {
	d := newDictation(t)
	cli, _ := nvimtest.StandInCLI(t, t.TempDir())
	d.setup(cli, "recorder", "transcriber")
	input := d.openChatInput("Before:")
	d.nv.Cmd("ClaudeDictate")
	if ev := d.next("recording"); ev["target"] != "chat" {
		t.Errorf("recording for %v, want the chat", ev["target"])
	}
	file := d.audioFile()
	info, err := os.Stat(filepath.Dir(file))
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("the audio's directory %s: %v, mode %v; want a private directory (0700)", filepath.Dir(file), err, info.Mode().Perm())
	}
	d.nv.Cmd("ClaudeDictate") // stops, then transcribes
	d.next("transcribing")
	ev := d.next("done")
	if got, want := d.lines(input), "Before: please refactor the parser"; got != want {
		t.Errorf("the chat's input holds %q, want %q (transcribed, cleaned, not sent)", got, want)
	}
	if ev["text"] != "please refactor the parser" {
		t.Errorf("done with text %q", ev["text"])
	}
	if !gone(filepath.Dir(file)) {
		t.Errorf("the audio's directory %s is still there", filepath.Dir(file))
	}
	if args, _ := os.ReadFile(filepath.Join(d.dir, "transcriber-args")); strings.TrimSpace(string(args)) != file {
		t.Errorf("the transcriber got %q, want the recorded file %s", args, file)
	}
}

func TestDictationTypesIntoClaudesTerminalWithoutEnter(t *testing.T) {
	d := newDictation(t)
	// A terminal CLI that writes what it is typed, byte for byte, as it comes.
	typed := filepath.Join(d.dir, "typed")
	cli := filepath.Join(d.dir, "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\nstty -icanon -echo min 1\nexec cat > '"+typed+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	d.setup(cli, "recorder", "transcriber")
	d.nv.Cmd("ClaudeOpen")
	d.nv.Cmd("wincmd p") // back to the file window: the terminal session is still Claude's
	d.nv.Cmd("ClaudeDictate")
	if ev := d.next("recording"); ev["target"] != "terminal" {
		t.Errorf("recording for %v, want the terminal", ev["target"])
	}
	d.audioFile()
	d.nv.Cmd("ClaudeDictate")
	d.next("transcribing")
	d.next("done")
	want := "please refactor the parser"
	nvimtest.Wait(t, "the text to reach the terminal's CLI", waitTimeout, func() bool {
		b, _ := os.ReadFile(typed)
		return len(b) >= len(want)
	})
	if b, _ := os.ReadFile(typed); string(b) != want {
		t.Errorf("the CLI was typed %q, want %q: no Enter, no carriage return, no tab", b, want)
	}
}

func TestDictationFailuresSayWhyAndInsertNothing(t *testing.T) {
	for _, tt := range []struct {
		name, record, transcribe string
		stop                     bool
		want                     string
	}{
		{"a recorder that fails", "failing-recorder", "transcriber", false,
			"dictation: the record command failed (exit 1): arecord: main:850: audio open error: No such device; nothing was inserted"},
		{"a transcriber that prints nothing", "recorder", "silent-transcriber", true,
			"dictation: the transcribe command printed nothing (no speech heard?); nothing was inserted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := newDictation(t)
			cli, _ := nvimtest.StandInCLI(t, t.TempDir())
			d.setup(cli, tt.record, tt.transcribe)
			input := d.openChatInput("Before:")
			d.nv.Cmd("ClaudeDictate")
			d.next("recording")
			if tt.stop {
				d.audioFile()
				d.nv.Cmd("ClaudeDictate")
				d.next("transcribing")
			}
			ev := d.next("failed")
			if !strings.Contains(d.nv.Messages(), tt.want) {
				t.Errorf("messages:\n%s\nwant %q (event %v)", d.nv.Messages(), tt.want, ev)
			}
			if got := d.lines(input); got != "Before:" {
				t.Errorf("the chat's input holds %q, want it as it was", got)
			}
			if !tt.stop && !gone(filepath.Join(d.dir, "transcriber-args")) {
				t.Error("the transcriber ran after the recorder failed")
			}
			args, _ := os.ReadFile(filepath.Join(d.dir, tt.record+"-args"))
			if file := strings.TrimSpace(string(args)); file == "" || !gone(filepath.Dir(file)) {
				t.Errorf("the audio's directory of %q is still there (or the recorder got no file)", file)
			}
		})
	}
}

func TestDictationCancelledInsertsNothingAndRemovesTheAudio(t *testing.T) {
	d := newDictation(t)
	cli, _ := nvimtest.StandInCLI(t, t.TempDir())
	d.setup(cli, "recorder", "transcriber")
	input := d.openChatInput("Before:")
	d.nv.Cmd("ClaudeDictate")
	d.next("recording")
	file := d.audioFile()
	pidText, _ := os.ReadFile(filepath.Join(d.dir, "recorder-pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
	d.nv.Cmd("ClaudeDictate cancel")
	d.next("cancelled")
	if !gone(filepath.Dir(file)) {
		t.Errorf("the audio's directory %s is still there after cancel", filepath.Dir(file))
	}
	nvimtest.Wait(t, "the recorder to be gone", waitTimeout, func() bool {
		return syscall.Kill(pid, 0) != nil
	})
	if got := d.lines(input); got != "Before:" {
		t.Errorf("the chat's input holds %q after cancel, want it as it was", got)
	}
	if !gone(filepath.Join(d.dir, "transcriber-args")) {
		t.Error("the transcriber ran after cancel")
	}
	if !strings.Contains(d.nv.Messages(), "dictation: cancelled; nothing was inserted") {
		t.Errorf("messages:\n%s\nwant the cancel said", d.nv.Messages())
	}
}

func TestDictationWithoutCommandsSaysHowToConfigureIt(t *testing.T) {
	d := newDictation(t)
	cli, _ := nvimtest.StandInCLI(t, t.TempDir())
	d.setup(cli, "", "")
	d.openChatInput("")
	d.nv.Cmd("ClaudeDictate")
	msgs := d.nv.Messages()
	for _, want := range []string{"dictation needs a record and a transcribe command", "whisper-cli", "{file}", ":help claude-dictation"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages:\n%s\nwant %q", msgs, want)
		}
	}
}
