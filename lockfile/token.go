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
// Make one per server start, never reuse or derive it. There is no weaker
// fallback: if the CSPRNG fails, so does NewToken.
func NewToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("new auth token: %w", err)
	}
	return hex.EncodeToString(b), nil
}
