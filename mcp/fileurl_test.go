package mcp

import "testing"

func TestFileURL(t *testing.T) {
	tests := []struct {
		name, path, want string
	}{
		{"a plain path gets three slashes", "/abs/f.go", "file:///abs/f.go"},
		{"spaces become %20", "/a b/c d.go", "file:///a%20b/c%20d.go"},
		{"non-ASCII is percent-encoded as UTF-8", "/proj/ü.go", "file:///proj/%C3%BC.go"},
		{"URL syntax characters are escaped", "/x#y?z%", "file:///x%23y%3Fz%25"},
		{"the root is just a slash", "/", "file:///"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FileURL(tt.path)
			if got != tt.want {
				t.Errorf("FileURL(%q) = %q, want %q", tt.path, got, tt.want)
			}
			back, err := PathFromFileURL(got)
			if err != nil || back != tt.path {
				t.Errorf("PathFromFileURL(%q) = %q, %v; want %q", got, back, err, tt.path)
			}
		})
	}
}

func TestPathFromFileURL(t *testing.T) {
	tests := []struct {
		name, uri, want string
		wantErr         bool
	}{
		{"percent escapes are decoded", "file:///a%20b/%C3%BC.go", "/a b/ü.go", false},
		{"an unescaped space is accepted", "file:///a b.go", "/a b.go", false},
		{"localhost is this machine", "file://localhost/etc/hosts", "/etc/hosts", false},
		{"one slash is accepted", "file:/abs/f", "/abs/f", false},
		{"the scheme is case-insensitive", "FILE:///abs/f", "/abs/f", false},
		{"another host is refused", "file://server/share/f", "", true},
		{"http is refused", "http://example.com/f.go", "", true},
		{"a bare path is not a URL", "/abs/f.go", "", true},
		{"an opaque file URL is refused", "file:rel/f.go", "", true},
		{"a relative path is refused", "file://", "", true},
		{"a broken escape is refused", "file:///a%zz", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PathFromFileURL(tt.uri)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("PathFromFileURL(%q) = %q, %v; want %q, error %v", tt.uri, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
