// Package memtrim gives back, once the host has gone quiet, the pages of its own executable it
// touched while busy.
//
// Why: a Go program's resident memory is mostly its executable's pages, not its heap. The
// runtime reads the function tables (pclntab, stack maps) of every function it meets on a
// goroutine's stack, and the kernel maps 64 KiB around each page it faults in ("fault
// around"), so a few dozen scattered reads leave nearly the whole 2.7 MiB table resident: an
// idle host after its first client held 6.5 MiB of executable pages beside 2 MiB of heap.
// Those pages are clean copies of the file: dropping them from the process (madvise
// MADV_DONTNEED on the read-only, private mappings of the executable) costs nothing but a
// minor fault the next time one is needed, as the page cache still holds them, and it is
// what the kernel does anyway under memory pressure. Writable mappings are never touched:
// DONTNEED would throw their contents away.
//
// Idle runs a trim once per quiet spell: Kick on activity, and the trim runs when nothing has
// kicked for the quiet duration. Nothing ticks while the host is idle.
package memtrim
