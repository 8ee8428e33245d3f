package lockfile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// tokenBytes is 256 bits. A random UUID would carry only 122, below the
// 128 we require, so the token is plain hex from the OS CSPRNG; the CLI
// sends it back verbatim as a header, so any printable string works.
const tokenBytes = 32

// NewToken returns a fresh auth token: 64 hex characters from crypto/rand.
// Make one per server start and never derive one. The one exception is
// resuming: a server restarted for the same Neovim (after :ClaudeStop or a
// crash of its process) keeps the token the running CLI already holds, so
// that the CLI can reconnect. There is no weaker fallback: if the CSPRNG
// fails, so does NewToken.
func NewToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("new auth token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// IsToken reports whether s has the form NewToken gives: a token handed
// back to resume a server must be one of ours, not any string.
func IsToken(s string) bool {
	if len(s) != 2*tokenBytes {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
