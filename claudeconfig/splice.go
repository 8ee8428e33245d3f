package claudeconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"
)

// edit is the change a yes makes to the file: its bytes [at, cut) become text.
type edit struct {
	at, cut int64
	text    []byte
}

// trustEdit is the edit that sets projects[folder].hasTrustDialogAccepted to true in the
// document d describes, every other byte as it was: the value replaced if the key is there,
// else the missing member inserted first in the innermost object that exists (projects, or
// the whole document). Nil when the key is true already.
func trustEdit(d *doc, folder string) (*edit, error) {
	p := d.projects
	if p == nil {
		return insert(d.top, "projects", map[string]any{folder: map[string]any{trustKey: true}})
	}
	if p.kind != '{' {
		return nil, fmt.Errorf("projects is not an object: %w", ErrUnreadable)
	}
	e := d.entries[folder]
	if e == nil {
		return insert(*p, folder, map[string]any{trustKey: true})
	}
	if e.kind != '{' {
		return nil, fmt.Errorf("projects[%q] is not an object: %w", folder, ErrUnreadable)
	}
	switch {
	case e.trust == nil:
		return insert(e.span, trustKey, true)
	case e.trust.kind == 't': // the literal true: nothing to change
		return nil, nil
	}
	return &edit{at: e.trust.start, cut: e.trust.end, text: []byte("true")}, nil
}

// insert is the edit that puts "name": value first into the object obj.
func insert(obj span, name string, value any) (*edit, error) {
	key, err := encode(name)
	if err != nil {
		return nil, err
	}
	val, err := encode(value)
	if err != nil {
		return nil, err
	}
	member := slices.Concat(key, []byte(": "), val)
	if obj.members > 0 {
		member = append(member, ',')
	}
	return &edit{at: obj.start + 1, cut: obj.start + 1, text: member}, nil
}

// encode is v as compact JSON, with & and < left as they are: a path stays readable, and
// both spellings mean the same.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}

// writeEdited writes src's size bytes to w with e applied, streaming: the file is never
// held whole. It stops when ctx ends.
func writeEdited(ctx context.Context, w io.Writer, src io.ReaderAt, size int64, e *edit) error {
	if _, err := io.Copy(w, ctxReader{ctx, io.NewSectionReader(src, 0, e.at)}); err != nil {
		return err
	}
	if _, err := w.Write(e.text); err != nil {
		return err
	}
	_, err := io.Copy(w, ctxReader{ctx, io.NewSectionReader(src, e.cut, size-e.cut)})
	return err
}

// checkFolder refuses a folder JSON cannot name, nor the CLI, which reads paths as UTF-8.
func checkFolder(folder string) error {
	if !utf8.ValidString(folder) {
		return fmt.Errorf("folder %q is not UTF-8", folder)
	}
	return nil
}

// setTrust is data with the trust for folder set (data itself when it is set already); the
// same scan and edit as Trust's, in memory.
func setTrust(data []byte, folder string) ([]byte, error) {
	if err := checkFolder(folder); err != nil {
		return nil, err
	}
	d, err := scan(context.Background(), bytes.NewReader(data), func(f string) bool { return f == folder })
	if err != nil {
		return nil, err
	}
	e, err := trustEdit(d, folder)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return data, nil
	}
	return slices.Concat(data[:e.at], e.text, data[e.cut:]), nil
}
