package plugintest

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :checkhealth shows what setup()'s cli options pass to each CLI, and warns of a flag the
// installed CLI (here a stand-in answering 2.1.197) does not take by the flags table.
func TestCheckhealthShowsTheCLIFlagsInEffect(t *testing.T) {
	nv := newNvim(t)
	cli, _ := nvimtest.StandInCLI(t, t.TempDir())
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... }, cli = {
		append_system_prompt = "Be brief.", disallowed_tools = { "WebFetch" }, max_turns = 2,
		args = { "--autocompact", "auto" },
	} })`, cli)
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "OK", `the terminal's CLI gets --append-system-prompt "Be brief." --disallowedTools "WebFetch" --autocompact "auto"`)
	expect(t, reports, text, "OK", `the chat's CLI gets --append-system-prompt "Be brief." --disallowedTools "WebFetch" --max-turns "2" --autocompact "auto"`)
	expect(t, reports, text, "WARNING", "--autocompact may not be taken by this CLI (taken from 2.1.332 on of the versions checked; this CLI is 2.1.197)")
	if !strings.Contains(text, "--max-turns: the chat's only (the CLI takes them with --print only)") {
		t.Errorf("the report does not say --max-turns is the chat's only:\n%s", text)
	}
	if t.Failed() {
		t.Logf("the report:\n%s", text)
	}
}

// :checkhealth says whether dictation is on and finds its programs.
func TestCheckhealthChecksTheDictationCommands(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({ dictation = {
		record = { "no-such-recorder", "{file}" }, transcribe = { "sh", "-c", "echo hi", "{file}" },
	} })`)
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "ERROR", "dictation.record runs `no-such-recorder`, which is not an executable on $PATH")
	expect(t, reports, text, "OK", "dictation.transcribe: sh -c echo hi {file}")
	if !strings.Contains(text, "the text is put in the chat's input or Claude's prompt and never sent") {
		t.Errorf("the report does not say what dictation does:\n%s", text)
	}
}

// :checkhealth says which areas' default keys are off, as setup() set them (:help
// claude-config-keys): all on, all off, or the areas named.
func TestCheckhealthSaysWhichDefaultKeysAreOff(t *testing.T) {
	for _, tt := range []struct {
		keys string // setup()'s keys, in Lua
		want string
	}{
		{"true", "keys: every default key is on"},
		{"false", "keys = false: no default key is set; each has a <Plug> map to bind"},
		{"{ history = false, chat = false, review = true }", "keys: the defaults of chat, history are off; each has a <Plug> map to bind"},
	} {
		t.Run(tt.keys, func(t *testing.T) {
			nv := newNvim(t)
			nv.Lua(nil, `require('claude').setup({ keys = `+tt.keys+` })`)
			_, text := checkhealth(t, nv)
			if !strings.Contains(text, tt.want) {
				t.Errorf("with keys = %s the report lacks %q:\n%s", tt.keys, tt.want, text)
			}
		})
	}
}
