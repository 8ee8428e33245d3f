//go:build unix

package chatctl

import (
	"os"
	"syscall"
)

// openReviewed never blocks (a FIFO swapped in after the check) and never follows a link.
const openReviewed = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
