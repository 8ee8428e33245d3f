package chat

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A tool result of megabytes comes as one JSON line. Decoded as it is, every level of the
// message (line, message, content, block) scans and copies the whole line again, about 170 ms
// for 10 MiB. So a long user line has its long string literals cut out first (one quick scan
// for quotes), the rest is decoded as usual, and each literal is decoded once, where it is
// used.

const (
	// bigLineMin is the line length from which long strings are cut out.
	bigLineMin = 1 << 20
	// bigStringMin is the literal length (quotes included) that is cut out.
	bigStringMin = 64 << 10
	// bigMark starts the placeholder left for a literal: decoded, "\x00claude.nvim:big:<n>".
	bigMark = "\x00claude.nvim:big:"
)

// shrink returns line with every string literal of bigStringMin bytes or more replaced by a
// short placeholder literal, and those literals in order; nil when there is none.
func shrink(line []byte) ([]byte, [][]byte) {
	var out []byte
	var big [][]byte
	copied := 0 // line[:copied] is in out
	for i := 0; i < len(line); {
		q := bytes.IndexByte(line[i:], '"')
		if q < 0 {
			break
		}
		start := i + q
		end := stringEnd(line, start)
		if end < 0 {
			return nil, nil // not JSON: leave it to the decoder's error
		}
		if end+1-start >= bigStringMin {
			out = append(out, line[copied:start]...)
			out = append(out, `"\u0000claude.nvim:big:`+strconv.Itoa(len(big))+`"`...)
			big = append(big, line[start:end+1])
			copied = end + 1
		}
		i = end + 1
	}
	if big == nil {
		return nil, nil
	}
	return append(out, line[copied:]...), big
}

// stringEnd returns the index of the quote that closes the string literal opening at start,
// or -1.
func stringEnd(line []byte, start int) int {
	for j := start + 1; j < len(line); {
		q := bytes.IndexByte(line[j:], '"')
		if q < 0 {
			return -1
		}
		k := j + q
		backslashes := 0
		for b := k - 1; b > start && line[b] == '\\'; b-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return k
		}
		j = k + 1
	}
	return -1
}

// restore puts the decoded literals back where their placeholders ended up in s.
func restore(s string, big [][]byte) string {
	if !strings.Contains(s, bigMark) {
		return s
	}
	for n := len(big) - 1; n >= 0; n-- { // the highest first: ":1" is a prefix of ":10"
		mark := bigMark + strconv.Itoa(n)
		if !strings.Contains(s, mark) {
			continue
		}
		text, ok := unquote(big[n])
		if !ok {
			continue
		}
		s = strings.ReplaceAll(s, mark, text)
	}
	return s
}

// parseBig parses a long line: a user line (tool results) with its long strings cut out and
// put back in the events; any other line as it is.
func (p *parser) parseBig(line []byte) error {
	small, big := shrink(line)
	if big == nil {
		return p.parseLine(line)
	}
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(small, &head) != nil || head.Type != "user" {
		return p.parseLine(line)
	}
	emit := p.emit
	defer func() { p.emit = emit }()
	p.emit = func(e Event) {
		switch e := e.(type) {
		case ToolResult:
			e.Content = restore(e.Content, big)
			emit(e)
		case UserText:
			e.Text = restore(e.Text, big)
			emit(e)
		default:
			emit(e)
		}
	}
	return p.parseLine(small)
}

// unquote decodes a JSON string literal as encoding/json does, in one pass over it; whatever
// it is unsure of (invalid UTF-8, a bad escape) goes to encoding/json.
func unquote(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	s := lit[1 : len(lit)-1]
	buf := make([]byte, 0, len(s))
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			buf = append(buf, s...)
			break
		}
		buf = append(buf, s[:i]...)
		if i+1 >= len(s) {
			return slowUnquote(lit)
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/':
			buf = append(buf, c)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		default: // \u and anything odd: rare in a tool result
			return slowUnquote(lit)
		}
		s = s[i+2:]
	}
	if !utf8.Valid(buf) {
		return slowUnquote(lit) // encoding/json puts U+FFFD for each bad byte
	}
	return string(buf), true
}

func slowUnquote(lit []byte) (string, bool) {
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return "", false
	}
	return s, true
}
