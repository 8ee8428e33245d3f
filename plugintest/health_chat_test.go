package plugintest

import "testing"

func TestCheckhealthChecksWhatTheChatNeeds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version string // what the CLI's --version says
		shell   bool   // terminal_cmd in shell syntax
		level   string
		want    []string
	}{
		{"a CLI of the tested version runs the chat", "2.1.197", false, "OK", []string{"Claude Code 2.1.197 runs the chat"}},
		{"a CLI too old for the chat's stream-json mode is an error", "1.0.3", false, "ERROR", []string{"Claude Code 1.0.3 is older than 2.0.0"}},
		{"a terminal_cmd the chat cannot start without a shell is an error", "2.1.197", true, "ERROR", []string{"terminal_cmd is shell syntax"}},
		{"no chat open is fine", "2.1.197", false, "OK", []string{"no chat open"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nv := newNvim(t)
			cli := nv.WriteFile("bin/claude", "#!/bin/sh\necho '"+tc.version+" (Claude Code)'\n")
			nv.Lua(nil, `
				local cli, shell = ...
				vim.uv.fs_chmod(cli, 493)
				vim.env.PATH = vim.fs.dirname(cli) .. ':' .. vim.env.PATH
				require('claude').setup({ terminal_cmd = shell and 'FOO=1 claude' or { cli } })`, cli, tc.shell)
			reports, text := checkhealth(t, nv)
			expect(t, reports, text, tc.level, tc.want...)
		})
	}
}
