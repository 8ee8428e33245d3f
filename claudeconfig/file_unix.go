//go:build unix

package claudeconfig

import "syscall"

// openFlags: no link followed, no wait for a FIFO's writer.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
