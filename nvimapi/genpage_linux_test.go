package nvimapi

import (
	"errors"
	"syscall"
	"testing"
)

// The page behind the generation counters has its block before anyone maps
// it (a store into a hole on a full file system is a SIGBUS in Neovim), and
// on Linux it is sealed so that nobody can shrink it.
func TestTheGenerationPageIsAllocatedAndCannotBeShrunk(t *testing.T) {
	for _, tt := range []struct {
		name   string
		make   func() (*genPage, error)
		sealed bool
	}{
		{"the memfd", newGenPage, true},
		{"the temporary file (systems without memfd)", newTempGenPage, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.make()
			if err != nil {
				t.Fatalf("make %s: %v", tt.name, err)
			}
			defer p.release()
			var st syscall.Stat_t
			if err := syscall.Fstat(int(p.f.Fd()), &st); err != nil {
				t.Fatal(err)
			}
			if st.Size != genPageSize || st.Blocks*512 < genPageSize {
				t.Errorf("%s: size %d with %d bytes allocated, want %d allocated", tt.name, st.Size, st.Blocks*512, genPageSize)
			}
			if !tt.sealed {
				return
			}
			if err := p.f.Truncate(0); !isEPERM(err) {
				t.Errorf("truncate %s: %v, want EPERM (sealed)", tt.name, err)
			}
			if err := p.f.Truncate(2 * genPageSize); !isEPERM(err) {
				t.Errorf("grow %s: %v, want EPERM (sealed)", tt.name, err)
			}
		})
	}
}

func isEPERM(err error) bool { return errors.Is(err, syscall.EPERM) }
