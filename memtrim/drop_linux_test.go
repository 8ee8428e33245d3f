package memtrim

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// written lives in the executable's writable data (it has an initial value, so it is not
// .bss): a trim must keep what the program wrote there.
var written = [3 * 4096]byte{1}

func TestDropExecutablePagesLeavesLessOfTheExecutableResident(t *testing.T) {
	before := statusKiB(t, "RssFile:")
	advised, err := DropExecutablePages()
	if err != nil {
		t.Fatal(err)
	}
	after := statusKiB(t, "RssFile:")
	if advised == 0 {
		t.Fatal("no mapping of the executable was advised")
	}
	// The test binary touched at least its runtime's code and tables; what faults back in
	// while this test runs is a few pages.
	if after >= before {
		t.Errorf("resident file pages %d KiB before, %d KiB after: nothing was dropped", before, after)
	}
	t.Logf("RssFile %d -> %d KiB (%d KiB advised)", before, after, advised>>10)
}

func TestDropExecutablePagesKeepsWhatTheProgramWrote(t *testing.T) {
	for i := range written {
		written[i] = byte(i%251) + 2
	}
	if _, err := DropExecutablePages(); err != nil {
		t.Fatal(err)
	}
	for i, b := range written {
		if b != byte(i%251)+2 {
			t.Fatalf("written[%d] = %d after the trim, want %d: a writable mapping was dropped", i, b, byte(i%251)+2)
		}
	}
}

func TestReadOnlyMappingOf(t *testing.T) {
	const exe = "/opt/my tools/claude-nvim"
	for _, tt := range []struct {
		line   string
		lo, hi uintptr
		ok     bool
	}{
		{"00400000-0076a000 r-xp 00000000 08:01 123 /opt/my tools/claude-nvim", 0x400000, 0x76a000, true},
		{"0076a000-00b14000 r--p 0036a000 08:01 123 /opt/my tools/claude-nvim", 0x76a000, 0xb14000, true},
		{"00b14000-00b73000 rw-p 00714000 08:01 123 /opt/my tools/claude-nvim", 0, 0, false},
		{"00400000-0076a000 r-xs 00000000 08:01 123 /opt/my tools/claude-nvim", 0, 0, false},
		{"00400000-0076a000 r-xp 00000000 08:01 123 /usr/bin/other", 0, 0, false},
		{"7ffd0000-7ffd2000 r-xp 00000000 00:00 0 [vdso]", 0, 0, false},
		{"c000000000-c000400000 rw-p 00000000 00:00 0", 0, 0, false},
		{"zz-0076a000 r-xp 00000000 08:01 123 /opt/my tools/claude-nvim", 0, 0, false},
	} {
		lo, hi, ok := readOnlyMappingOf(tt.line, exe)
		if lo != tt.lo || hi != tt.hi || ok != tt.ok {
			t.Errorf("readOnlyMappingOf(%q) = %#x, %#x, %v; want %#x, %#x, %v", tt.line, lo, hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
}

// statusKiB reads one "Name: N kB" line of /proc/self/status.
func statusKiB(t *testing.T, name string) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", name)
	return 0
}

// A read-only private mapping of the executable whose pages the process changed before it
// became read-only, as a dynamic linker leaves RELRO data, must keep those changes.
func TestDropExecutablePagesKeepsAReadOnlyMappingTheProgramChanged(t *testing.T) {
	exe, err := os.Open("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Close()
	page := os.Getpagesize()
	mem, err := syscall.Mmap(int(exe.Fd()), 0, page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	copy(mem, "relocated")
	if err := syscall.Mprotect(mem, syscall.PROT_READ); err != nil {
		t.Fatal(err)
	}
	if _, err := DropExecutablePages(); err != nil {
		t.Fatal(err)
	}
	if got := string(mem[:9]); got != "relocated" {
		t.Fatalf("the changed read-only mapping reads %q after the trim, want %q: its pages went back to the file's", got, "relocated")
	}
}
