package chatctl

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxReviewed is the largest file an edit review reads: the terminal's diff view takes files
// up to this size whole (mcp.MaxMessageSize leaves 8 MiB of it for the frame around them).
const maxReviewed = 64 << 20

// errNotReviewable marks a file an edit review will not read: the request is denied with
// the reason, as nobody could judge the change.
var errNotReviewable = errors.New("cannot review")

// reviewedFile is the file an edit request names, as a review reads it.
type reviewedFile struct {
	// path is the file itself: the request's path with every symlink resolved. The diff
	// shows this one, so the user sees which file the edit would really change.
	path string
	text string
}

// readReviewed reads the file an edit request names, for its review. Only a regular file is
// read, and at most maxReviewed bytes of it: a device (/dev/stdin is the host's own RPC pipe,
// /dev/zero never ends), a FIFO (blocks until a writer comes) or a huge file gets an error
// wrapping errNotReviewable instead. A file that does not exist reads as empty.
func readReviewed(name string) (reviewedFile, error) {
	path, err := filepath.EvalSymlinks(name)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(name); lerr == nil {
			// A link into nothing, or into /proc's pipe:[…] names (/dev/stdin).
			return reviewedFile{}, fmt.Errorf("%w %s: it is a link to nothing that is a file", errNotReviewable, name)
		}
		return reviewedFile{path: name}, nil // a new file (Write)
	}
	if err != nil {
		return reviewedFile{}, fmt.Errorf("%w %s: %w", errNotReviewable, name, err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return reviewedFile{}, fmt.Errorf("%w %s: %w", errNotReviewable, path, err)
	}
	if err := regular(path, fi); err != nil {
		return reviewedFile{}, err
	}
	// Opened without blocking and without following a link: the file may have been swapped
	// for a FIFO or a link since the Lstat; the opened file is checked again below.
	f, err := os.OpenFile(path, openReviewed, 0)
	if err != nil {
		return reviewedFile{}, fmt.Errorf("%w %s: %w", errNotReviewable, path, err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return reviewedFile{}, fmt.Errorf("%w %s: %w", errNotReviewable, path, err)
	}
	if err := regular(path, fi); err != nil {
		return reviewedFile{}, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxReviewed+1))
	if err != nil {
		return reviewedFile{}, fmt.Errorf("%w %s: %w", errNotReviewable, path, err)
	}
	if len(b) > maxReviewed {
		return reviewedFile{}, tooBig(path, int64(len(b)))
	}
	return reviewedFile{path: path, text: string(b)}, nil
}

// regular says why fi, path's, is not a file a review reads, or nil.
func regular(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		if fi.Size() > maxReviewed {
			return tooBig(path, fi.Size())
		}
		return nil
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%w %s: it is a FIFO, not a regular file", errNotReviewable, path)
	case m&fs.ModeDevice != 0:
		return fmt.Errorf("%w %s: it is a device, not a regular file", errNotReviewable, path)
	case m.IsDir():
		return fmt.Errorf("%w %s: it is a directory", errNotReviewable, path)
	}
	return fmt.Errorf("%w %s: it is not a regular file (%s)", errNotReviewable, path, m.Type())
}

func tooBig(path string, size int64) error {
	return fmt.Errorf("%w %s: it has %.1f MiB, over the %d MiB the diff view takes", errNotReviewable, path, float64(size)/(1<<20), maxReviewed>>20)
}
