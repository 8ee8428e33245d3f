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
func DropExecutablePages() (int64, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0, fmt.Errorf("drop executable pages: %w", err)
	}
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, fmt.Errorf("drop executable pages: %w", err)
	}
	defer maps.Close()
	var advised int64
	lines := bufio.NewScanner(maps)
	for lines.Scan() {
		lo, hi, ok := readOnlyMappingOf(lines.Text(), exe)
		if !ok {
			continue
		}
		// No unsafe.Pointer: the range is only named to the kernel, never read.
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_DONTNEED); errno != 0 {
			return advised, fmt.Errorf("drop executable pages: madvise %#x-%#x: %w", lo, hi, errno)
		}
		advised += int64(hi - lo)
	}
	if err := lines.Err(); err != nil {
		return advised, fmt.Errorf("drop executable pages: %w", err)
	}
	return advised, nil
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
