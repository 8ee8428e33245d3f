package mcp

import (
	"fmt"
	"net/url"
	"path"
	"strings"
)

// FileURL turns an absolute path into a file URL the way VS Code does:
// "file://" followed by the percent-encoded path ("/a b/ü.go" becomes
// "file:///a%20b/%C3%BC.go").
func FileURL(p string) string {
	u := url.URL{Scheme: "file", Path: p}
	return u.String()
}

// PathFromFileURL is the inverse of FileURL. It accepts "file:///abs",
// "file://localhost/abs" and "file:/abs", decodes percent escapes, and
// rejects other schemes, other hosts and relative paths.
func PathFromFileURL(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("parse file url %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("not a file url: %q", uri)
	}
	if u.Opaque != "" {
		return "", fmt.Errorf("file url %q: path is not absolute", uri)
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", fmt.Errorf("file url %q: remote host %q", uri, u.Host)
	}
	if !path.IsAbs(u.Path) {
		return "", fmt.Errorf("file url %q: path is not absolute", uri)
	}
	return u.Path, nil
}
