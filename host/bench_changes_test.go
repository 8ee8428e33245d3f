package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BenchmarkChangesTurnOf2000Files: the editor's longest stall (a second client, the UI's,
// asks Neovim for a trivial value every millisecond: stallProbe) while the ledger records a
// turn that changed 2,000 files of a git work tree (the snapshots at UserPromptSubmit and
// Stop, then the signs pushed to the editor, one of the files open), and while
// :Claude changes opens on it (the listing and its rendering). record and list are the times
// from the prompt's hook to the signs, and from the command to the list drawn. idle-freeze is
// the same probe over a second with nothing of ours running: what the machine's load alone
// costs, to read the others against.
func BenchmarkChangesTurnOf2000Files(b *testing.B) {
	const files = 2000
	c := newChangesEnv(b)
	for i := range files {
		c.nv.WriteFile(fmt.Sprintf("src/f%04d.go", i), strings.Repeat(fmt.Sprintf("package src // line of file %d\n", i), 40))
	}
	gitIn(b, c.dir, "add", "-A")
	gitIn(b, c.dir, "commit", "-qm", "2000 files")
	ui := dialSecondClient(b, c.nv)
	if err := ui.RegisterHandler("redraw", func(...any) {}); err != nil {
		b.Fatal(err)
	}
	if err := ui.AttachUI(200, 60, map[string]any{"ext_linegrid": true, "rgb": true}); err != nil {
		b.Fatal(err)
	}
	c.nv.Cmd("edit src/f0001.go")
	var record, recordFreeze, list, listFreeze, idle []time.Duration
	for n := range b.N {
		stop := stallProbe(ui.Eval)
		<-time.After(time.Second) // a measuring window, not a wait for anything
		idle = append(idle, stop())

		signs := c.nv.UserEvents("ClaudeChangeSigns")
		stop = stallProbe(ui.Eval)
		start := time.Now()
		c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = fmt.Sprintf("turn %d", n) })
		for i := range files {
			p := filepath.Join(c.dir, fmt.Sprintf("src/f%04d.go", i))
			if err := os.WriteFile(p, []byte(fmt.Sprintf("package src // turn %d\n", n)+strings.Repeat("// kept\n", 39)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		c.hook(hooks.Stop, nil)
		nvimtest.Next(b, signs, "the signs of the turn", time.Minute)
		record = append(record, time.Since(start))
		var one int
		if err := ui.Eval("1", &one); err != nil {
			b.Fatal(err)
		}
		recordFreeze = append(recordFreeze, stop())

		stop = stallProbe(ui.Eval)
		start = time.Now()
		c.request("list", `vim.cmd('ClaudeChanges')`)
		list = append(list, time.Since(start))
		if err := ui.Eval("1", &one); err != nil {
			b.Fatal(err)
		}
		listFreeze = append(listFreeze, stop())
		c.nv.Cmd("close")
	}
	nvimtest.ReportQuantiles(b, record, "record")
	nvimtest.ReportQuantiles(b, recordFreeze, "record-freeze")
	nvimtest.ReportQuantiles(b, list, "list")
	nvimtest.ReportQuantiles(b, listFreeze, "list-freeze")
	nvimtest.ReportQuantiles(b, idle, "idle-freeze")
}
