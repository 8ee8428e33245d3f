package host

import (
	"io"
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
