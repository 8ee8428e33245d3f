package plugintest

import (
	"slices"
	"testing"
)

func TestCommandLineCompletion(t *testing.T) {
	nv := newNvim(t)
	nv.WriteFile("src/main.go", "package main\n")
	complete := func(line string) []string {
		t.Helper()
		var got []string
		nv.Lua(&got, `return vim.fn.getcompletion(..., 'cmdline')`, line)
		return got
	}
	if got := complete("ClaudeOpen --re"); !slices.Equal(got, []string{"--resume"}) {
		t.Errorf(":Claude open --re<Tab> = %q, want [--resume]", got)
	}
	if got := complete("ClaudeToggle --c"); !slices.Equal(got, []string{"--continue"}) {
		t.Errorf(":Claude toggle --c<Tab> = %q, want [--continue]", got)
	}
	if got := complete("ClaudeAdd sr"); !slices.Equal(got, []string{"src/"}) {
		t.Errorf(":Claude add sr<Tab> = %q, want [src/]", got)
	}
	if got := complete("ClaudeAdd src/m"); !slices.Equal(got, []string{"src/main.go"}) {
		t.Errorf(":Claude add src/m<Tab> = %q, want [src/main.go]", got)
	}
}
