package workspace

import (
	"fmt"
	"path"
	"strings"
)

// Pattern is a compiled listFiles glob. Without a slash it is matched against a file's base
// name ("*.go" finds Go files at any depth, as in .gitignore); with one, against the whole
// workspace-relative path, segment by segment, where "**" stands for any number of
// directories ("src/**/*_test.go"). Within a segment the syntax is path.Match's.
type Pattern struct {
	base bool
	segs []string
}

// maxPatternLen bounds a pattern: it is matched against every file of the workspace.
const maxPatternLen = 1024

// CompilePattern checks pattern; "" matches everything.
func CompilePattern(pattern string) (*Pattern, error) {
	if len(pattern) > maxPatternLen {
		return nil, fmt.Errorf("pattern longer than %d bytes", maxPatternLen)
	}
	p := &Pattern{}
	if pattern == "" {
		return p, nil
	}
	if !strings.Contains(pattern, "/") {
		p.base, p.segs = true, []string{pattern}
	} else {
		p.segs = strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	}
	for _, s := range p.segs {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("bad pattern %q: %w", pattern, err)
		}
	}
	return p, nil
}

// Match reports whether the slash-separated relative name matches.
func (p *Pattern) Match(name string) bool {
	if len(p.segs) == 0 {
		return true
	}
	if p.base {
		ok, _ := path.Match(p.segs[0], path.Base(name))
		return ok
	}
	return matchSegments(p.segs, strings.Split(name, "/"))
}

// matchSegments is wildcard matching over segments, "**" the wildcard: greedy, going back
// only to the last "**" seen, so it costs len(pat)*len(name) at worst however many "**"
// the pattern holds.
func matchSegments(pat, name []string) bool {
	pi, ni := 0, 0
	star, starName := -1, 0
	for ni < len(name) {
		if pi < len(pat) && pat[pi] == "**" {
			star, starName = pi, ni
			pi++
			continue
		}
		if pi < len(pat) {
			if ok, _ := path.Match(pat[pi], name[ni]); ok {
				pi, ni = pi+1, ni+1
				continue
			}
		}
		if star < 0 {
			return false
		}
		starName++
		pi, ni = star+1, starName
	}
	for pi < len(pat) && pat[pi] == "**" {
		pi++
	}
	return pi == len(pat)
}
