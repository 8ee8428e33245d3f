package nvimapi

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// processCwd reads pid's working directory from /proc.
func processCwd(pid int) string {
	dir, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil {
		return ""
	}
	return dir
}

// sysMemfdCreate is memfd_create's number, which the syscall package does
// not name; 0 for an architecture not listed here (a temporary file then).
var sysMemfdCreate = map[string]uintptr{
	"amd64": 319, "arm64": 279, "riscv64": 279, "loong64": 279,
	"386": 356, "arm": 385, "ppc64le": 360, "ppc64": 360, "s390x": 350,
}[runtime.GOARCH]

// From linux/memfd.h and linux/fcntl.h.
const (
	mfdCloexec      = 0x1
	mfdAllowSealing = 0x2
	fAddSeals       = 1024 + 9
	fSealSeal       = 0x1
	fSealShrink     = 0x2
	fSealGrow       = 0x4
	genMemfdName    = "claude-nvim-gen" // /proc/PID/maps shows /memfd:claude-nvim-gen
)

// newGenPage is a memfd: memory, not a file system (a full TMPDIR does not
// matter), its page allocated by fallocate, then sealed against shrinking
// and growing. A truncate by anyone, the same user or root through
// /proc/PID/map_files, fails with EPERM, so no store in Neovim can fault.
// Neovim opens it as /proc/<our pid>/fd/<fd> while we still hold it.
// Without memfd (a kernel before 3.17, a sandbox refusing it) it is a
// temporary file like elsewhere.
func newGenPage() (*genPage, error) {
	if sysMemfdCreate == 0 {
		return newTempGenPage()
	}
	name, _ := syscall.BytePtrFromString(genMemfdName)
	fd, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(name)), mfdCloexec|mfdAllowSealing, 0)
	if errno != 0 {
		return newTempGenPage()
	}
	f := os.NewFile(fd, genMemfdName)
	if err := syscall.Fallocate(int(fd), 0, 0, genPageSize); err != nil {
		f.Close()
		return nil, fmt.Errorf("allocate the page: %w", err)
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, fAddSeals, fSealShrink|fSealGrow|fSealSeal); errno != 0 {
		f.Close()
		return nil, fmt.Errorf("seal the page: %w", errno)
	}
	return &genPage{f: f, path: fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), fd)}, nil
}
