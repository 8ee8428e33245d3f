package plugintest

import (
	"os/exec"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :checkhealth claude's "Running code" section: off by default; on, whether the configured
// python can start a kernel.
func TestCheckhealthSaysWhetherCodeCanRun(t *testing.T) {
	withIPykernel := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import ipykernel").Run() == nil {
			withIPykernel, _ = exec.LookPath(p)
			break
		}
	}
	for _, tt := range []struct {
		name  string
		tools string // Lua table, or "" for no tools key
		level string
		want  []string
	}{
		{"off by default", "", "OK", []string{"off: the model is not offered executeCode"}},
		{"on without the python", `{ execute_code = true, python = "no-such-python3" }`, "ERROR", []string{"no-such-python3 is not executable"}},
		{"on with ipykernel", `{ execute_code = true, python = "` + withIPykernel + `" }`, "OK", []string{withIPykernel, "with ipykernel"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "on with ipykernel" && withIPykernel == "" {
				t.Skip("no python3 with ipykernel (apt-get install python3-ipykernel)")
			}
			nv := nvimtest.New(t)
			cfg := "{}"
			if tt.tools != "" {
				cfg = "{ tools = " + tt.tools + " }"
			}
			nv.Lua(nil, `require('claude').setup(assert(loadstring('return ' .. ...))())`, cfg)
			reports, text := checkhealth(t, nv)
			expect(t, reports, text, tt.level, tt.want...)
		})
	}
}
