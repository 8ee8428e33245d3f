package memtrim

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// DropExecutablePages unmaps the resident pages of the executable's read-only private
// mappings (its code and read-only data) from this process; they fault back in from the page
// cache when next used. It returns how many bytes of address space it advised.
//
// A read-only mapping that holds pages the process changed before it became read-only (the
// RELRO data a dynamic linker relocates, in a binary linked with cgo externally) is left
// alone: DONTNEED would turn those pages back into the file's unrelocated bytes.
func DropExecutablePages() (int64, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0, fmt.Errorf("drop executable pages: %w", err)
	}
	smaps, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, fmt.Errorf("drop executable pages: %w", err)
	}
	defer smaps.Close()
	// The ranges are advised once all of smaps is read: advised as they came, the code that
	// read on (the scanner, the parsing) faulted its pages, and the 64 KiB around each, back
	// in at once (the host kept 1.7 of 2.9 MiB of its executable resident right after).
	type span struct{ lo, hi uintptr }
	var spans [8]span // the executable has two or three read-only mappings
	n := 0
	var lo, hi uintptr
	candidate, changed := false, false
	advise := func() error {
		if !candidate || changed {
			return nil
		}
		if n == len(spans) {
			return fmt.Errorf("drop executable pages: more than %d read-only mappings of %s", len(spans), exe)
		}
		spans[n] = span{lo, hi}
		n++
		return nil
	}
	lines := bufio.NewScanner(smaps)
	for lines.Scan() {
		line := lines.Text()
		if field, value, ok := smapsField(line); ok {
			// Anonymous: the mapping's pages that are the process's own copies.
			if field == "Anonymous" && strings.TrimSpace(strings.TrimSuffix(value, "kB")) != "0" {
				changed = true
			}
			continue
		}
		// A mapping's header line: the one before it is complete.
		if err := advise(); err != nil {
			return 0, err
		}
		lo, hi, candidate = readOnlyMappingOf(line, exe)
		changed = false
	}
	if err := lines.Err(); err != nil {
		return 0, fmt.Errorf("drop executable pages: %w", err)
	}
	if err := advise(); err != nil {
		return 0, err
	}
	var advised int64
	for _, r := range spans[:n] {
		// No unsafe.Pointer: the range is only named to the kernel, never read.
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, r.lo, r.hi-r.lo, syscall.MADV_DONTNEED); errno != 0 {
			return advised, fmt.Errorf("drop executable pages: madvise %#x-%#x: %w", r.lo, r.hi, errno)
		}
		advised += int64(r.hi - r.lo)
	}
	return advised, nil
}

// smapsField splits one of /proc/self/smaps' per-mapping lines ("Rss:   12 kB",
// "VmFlags: rd ex"); a mapping's header line ("lo-hi perms …") is none.
func smapsField(line string) (field, value string, ok bool) {
	field, value, ok = strings.Cut(line, ":")
	if !ok || strings.ContainsAny(field, " -") {
		return "", "", false
	}
	return field, value, true
}

// readOnlyMappingOf parses one /proc/self/maps line ("lo-hi perms offset dev inode path") and
// reports the range when it maps path privately without write permission.
func readOnlyMappingOf(line, path string) (lo, hi uintptr, ok bool) {
	f := strings.Fields(line)
	if len(f) < 6 || strings.Join(f[5:], " ") != path {
		return 0, 0, false
	}
	if perms := f[1]; len(perms) != 4 || perms[0] != 'r' || perms[1] != '-' || perms[3] != 'p' {
		return 0, 0, false
	}
	from, to, found := strings.Cut(f[0], "-")
	if !found {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(from, 16, 64)
	h, err2 := strconv.ParseUint(to, 16, 64)
	if err1 != nil || err2 != nil || h <= l {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}
