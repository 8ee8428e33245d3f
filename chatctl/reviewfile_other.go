//go:build !unix

package chatctl

import "os"

// openReviewed: elsewhere the checks before and after the open stand alone.
const openReviewed = os.O_RDONLY
