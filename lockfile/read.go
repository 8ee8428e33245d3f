package lockfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// maxLockSize bounds what is read of a lock file; real ones are a few
// hundred bytes, and anything far larger is not one.
const maxLockSize = 64 << 10

// errNotLock: the path is not a regular file of at most maxLockSize.
var errNotLock = errors.New("not a regular file of at most 64 KiB")

// readLock reads the lock file at path without following a symbolic link
// and without blocking: the directory is shared with other programs, and
// a link to /dev/zero would read for ever, a FIFO would hang the reader.
// The FileInfo is that of the file read.
func readLock(path string) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxLockSize {
		return nil, nil, fmt.Errorf("%s: %w", path, errNotLock)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxLockSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > maxLockSize {
		return nil, nil, fmt.Errorf("%s: %w", path, errNotLock)
	}
	return data, fi, nil
}
