package mcp

import (
	"bytes"
	"strings"
)

// A tiny txtar reader/writer (the format of golang.org/x/tools/txtar):
// a free-form comment, then files, each introduced by a "-- name --" line.

type archive struct {
	comment []byte
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

func parseArchive(data []byte) *archive {
	a := &archive{}
	var cur *archiveFile
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := fileMarker(line); ok {
			a.files = append(a.files, archiveFile{name: name})
			cur = &a.files[len(a.files)-1]
			continue
		}
		if cur == nil {
			a.comment = append(a.comment, line...)
		} else {
			cur.data = append(cur.data, line...)
		}
	}
	return a
}

func fileMarker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

func formatArchive(a *archive) []byte {
	var b bytes.Buffer
	b.Write(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
		if len(f.data) > 0 && f.data[len(f.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
