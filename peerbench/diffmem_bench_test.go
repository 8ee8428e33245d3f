package peerbench

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkDiffMemory: a many-hunk proposal of 1 MiB and of 5 MiB, each in a fresh editor
// (the peer, 2390c6e, hangs on a second diff after close_tab): the editor's memory with the
// plugin's processes (Neovim's RSS plus every process under it) right after close_tab
// answered, as the outside harness of issue 42 read it, and again 3 s later; and
// close_tab's round trip, a second after the view showed.
func BenchmarkDiffMemory(b *testing.B) {
	for _, p := range plugins(b) {
		for _, kib := range []int{1024, 5120} {
			b.Run(fmt.Sprintf("%s/%dKiB", p.name, kib), func(b *testing.B) {
				for range b.N {
					e := start(b, p)
					c := e.serve(p)
					total := func() float64 { return e.addedMiB(0) }
					// Which process holds it: Neovim's RSS, and our host's (none for the peer).
					split := func(at string) {
						b.ReportMetric(mib(RSS(e.pid)), at+"-nvim-MiB")
						b.ReportMetric(mib(RSS(e.host)), at+"-host-MiB")
					}
					path, proposal := manyHunks(b, e.cwd, kib<<10)
					e.lua(nil, `vim.cmd.edit(vim.fn.fnameescape(...))`, path)
					b.ReportMetric(total(), "before-MiB")
					pending, _, _ := openShown(b, e, p, c, path, proposal, "mem", nil)
					// What a user does: look at it. Both plugins finish their work on
					// the view meanwhile (folds, filetype), which close_tab would wait for.
					time.Sleep(time.Second)
					b.ReportMetric(total(), "shown-MiB")
					split("shown")
					closing := closeShown(b, c, pending, "mem")
					b.ReportMetric(total(), "after-close-MiB")
					split("after-close")
					b.ReportMetric(float64(closing.Microseconds())/1000, "close-ms")
					time.Sleep(3 * time.Second)
					b.ReportMetric(total(), "after-3s-MiB")
				}
			})
		}
	}
}
