//go:build !unix

package claudeconfig

// openFlags: the type check after the open is all there is here.
const openFlags = 0
