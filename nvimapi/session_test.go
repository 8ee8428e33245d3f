package nvimapi

import (
	"slices"
	"testing"
)

func TestWithoutFoldersKeepsAtLeastOne(t *testing.T) {
	for _, tc := range []struct {
		folders, other, want []string
	}{
		{[]string{"/a", "/b"}, []string{"/b"}, []string{"/a"}},
		{[]string{"/a", "/b"}, nil, []string{"/a", "/b"}},
		{[]string{"/b"}, []string{"/b"}, []string{"/b"}}, // all taken: the first stays
		{nil, []string{"/b"}, nil},
	} {
		if got := WithoutFolders(tc.folders, tc.other); !slices.Equal(got, tc.want) {
			t.Errorf("WithoutFolders(%q, %q) = %q, want %q", tc.folders, tc.other, got, tc.want)
		}
	}
}
