package claudeconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// member is one name/value pair of a JSON object, by byte offsets into the document.
type member struct {
	name       string
	start, end int // the value's bytes: data[start:end]
}

// members lists the members of the JSON object at data[start:end] (the object's bytes, from
// its "{" to its "}"), in order, duplicates included.
func members(data []byte, start, end int) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:end]))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ErrUnreadable
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, ErrUnreadable
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, ErrUnreadable
		}
		valueEnd := start + int(dec.InputOffset())
		out = append(out, member{name: name, start: valueEnd - len(raw), end: valueEnd})
	}
	return out, nil
}

// last is the member named name that a JSON parser keeps (the last of duplicates), or nil.
func last(ms []member, name string) *member {
	for i, m := range slices.Backward(ms) {
		if m.name == name {
			return &ms[i]
		}
	}
	return nil
}

// isObject says whether data[m.start:m.end] is a JSON object.
func isObject(data []byte, m *member) bool {
	return m.end > m.start && data[m.start] == '{'
}

// setTrust returns data with projects[folder].hasTrustDialogAccepted set to true and every
// other byte as it was: the value replaced if the key is there, else the missing member
// inserted first in the innermost object that exists (projects, or the whole document).
func setTrust(data []byte, folder string) ([]byte, error) {
	if !utf8.ValidString(folder) {
		// JSON cannot name it, nor can the CLI, which reads the path as UTF-8.
		return nil, fmt.Errorf("folder %q is not UTF-8", folder)
	}
	if !json.Valid(data) {
		return nil, ErrUnreadable
	}
	open := bytes.IndexByte(data, '{')
	if open < 0 || len(bytes.TrimSpace(data[:open])) != 0 {
		return nil, ErrUnreadable
	}
	top, err := members(data, open, len(data))
	if err != nil {
		return nil, err
	}
	projects := last(top, "projects")
	if projects == nil {
		return insert(data, open, len(top) == 0, "projects", map[string]any{folder: map[string]any{trustKey: true}})
	}
	if !isObject(data, projects) {
		return nil, fmt.Errorf("projects is not an object: %w", ErrUnreadable)
	}
	entries, err := members(data, projects.start, projects.end)
	if err != nil {
		return nil, err
	}
	entry := last(entries, folder)
	if entry == nil {
		return insert(data, projects.start, len(entries) == 0, folder, map[string]any{trustKey: true})
	}
	if !isObject(data, entry) {
		return nil, fmt.Errorf("projects[%q] is not an object: %w", folder, ErrUnreadable)
	}
	fields, err := members(data, entry.start, entry.end)
	if err != nil {
		return nil, err
	}
	if f := last(fields, trustKey); f != nil {
		return slices.Concat(data[:f.start], []byte("true"), data[f.end:]), nil
	}
	return insert(data, entry.start, len(fields) == 0, trustKey, true)
}

// insert puts "name": value first into the object whose "{" is at data[open].
func insert(data []byte, open int, empty bool, name string, value any) ([]byte, error) {
	key, err := encode(name)
	if err != nil {
		return nil, err
	}
	val, err := encode(value)
	if err != nil {
		return nil, err
	}
	member := slices.Concat(key, []byte(": "), val)
	if !empty {
		member = append(member, ',')
	}
	return slices.Concat(data[:open+1], member, data[open+1:]), nil
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
