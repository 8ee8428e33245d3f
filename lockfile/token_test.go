package lockfile

import (
	"encoding/hex"
	"testing"
)

func TestNewToken(t *testing.T) {
	const n = 100
	seen := make(map[string]bool, n)
	for range n {
		tok, err := NewToken()
		if err != nil {
			t.Fatalf("NewToken(): %v", err)
		}
		raw, err := hex.DecodeString(tok)
		if err != nil {
			t.Errorf("NewToken() = %q, not hex: %v", tok, err)
		}
		// 32 hex characters are 128 bits; every character here is random.
		if len(tok) < 32 || len(raw) < 16 {
			t.Errorf("NewToken() = %q, %d hex characters, want at least 32", tok, len(tok))
		}
		if seen[tok] {
			t.Errorf("NewToken() returned %q twice in %d calls", tok, n)
		}
		seen[tok] = true
	}
}
