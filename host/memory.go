package host

import (
	"io"
	"runtime/debug"
	"time"

	"github.com/claude-nvim/claude.nvim/memtrim"
)

// trimQuiet: how long the IDE server must have had no message and no call ending before the
// host drops the executable pages it touched (memtrim). Short enough that a user's idle editor
// holds only its working set seconds after the CLI's start-up calls; a trim costs one madvise
// and, later, a minor fault per page needed again, so trimming after every pause is cheap.
const trimQuiet = 2 * time.Second

// trimMemory runs once the server has been quiet for trimQuiet (memtrim.Idle).
func (h *Host) trimMemory() {
	advised, err := memtrim.DropExecutablePages()
	if err != nil {
		h.log.Debug("memory trim", "err", err)
		return
	}
	h.log.Debug("memory trim: executable pages dropped", "advised_KiB", advised>>10)
}

// CountsAsActivity returns r (the RPC stream from Neovim) reading through which counts as
// activity for the trim: a cursor moved, an autocmd or a handler call wakes the host as a
// client's message does, and the pages it touched go once it is quiet again.
func (h *Host) CountsAsActivity(r io.Reader) io.Reader { return h.idle.KickingReader(r) }

// releaseMemory runs once a large proposal shows: the heap the host read and sent it with
// goes back to the system, and so do the pages of our code that took it there, without
// waiting for the 2 s of quiet (the CLI and the user are quiet while they look at it).
// Host RSS while a many-hunk proposal shows (peerbench, one run): 1 MiB 14.9 -> 8.0 MiB,
// 5 MiB 29.8 -> 11.4 MiB.
func (h *Host) releaseMemory() {
	debug.FreeOSMemory()
	h.trimMemory()
}
