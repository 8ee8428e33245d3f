package mcp

import (
	"context"
	"strconv"
	"strings"
)

// The CLI's releases differ in small ways a tool's answer must follow (see savedText), so a
// tools/call's context carries the version the client gave in initialize.

type clientVersionKey struct{}

func withClientVersion(ctx context.Context, version string) context.Context {
	return context.WithValue(ctx, clientVersionKey{}, version)
}

// ClientVersion is the clientInfo.version the calling client sent in initialize ("" when it
// sent none), for a tool handler's ctx.
func ClientVersion(ctx context.Context) string {
	v, _ := ctx.Value(clientVersionKey{}).(string)
	return v
}

// versionBefore reports whether version ("2.1.197") is a release older than than
// ("2.1.332"); false when either is not three dot-separated numbers.
func versionBefore(version, than string) bool {
	a, okA := versionParts(version)
	b, okB := versionParts(than)
	if !okA || !okB {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func versionParts(v string) ([3]int, bool) {
	var out [3]int
	parts := strings.SplitN(v, ".", 3)
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, false
		}
		out[i] = n
	}
	return out, true
}
