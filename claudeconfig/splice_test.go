package claudeconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestSetTrustChangesOnlyTheOneKey(t *testing.T) {
	const folder = "/w/proj"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"an empty object gets projects", `{}`, `{"projects": {"/w/proj":{"hasTrustDialogAccepted":true}}}`},
		{"a file without projects gets it first", "{\n  \"a\": 1.50\n}\n", "{\"projects\": {\"/w/proj\":{\"hasTrustDialogAccepted\":true}},\n  \"a\": 1.50\n}\n"},
		{"an empty projects gets the folder", `{"projects": {}, "x": "\u00e9"}`, `{"projects": {"/w/proj": {"hasTrustDialogAccepted":true}}, "x": "\u00e9"}`},
		{"another folder stays", `{"projects": {"/w/other": {"hasTrustDialogAccepted": true}}}`, `{"projects": {"/w/proj": {"hasTrustDialogAccepted":true},"/w/other": {"hasTrustDialogAccepted": true}}}`},
		{"the folder's other fields stay", `{"projects":{"/w/proj":{"allowedTools":[],"zz":1e3}}}`, `{"projects":{"/w/proj":{"hasTrustDialogAccepted": true,"allowedTools":[],"zz":1e3}}}`},
		{"a false becomes true in place", `{"projects":{"/w/proj":{"a":1,"hasTrustDialogAccepted" : false ,"b":2}}}`, `{"projects":{"/w/proj":{"a":1,"hasTrustDialogAccepted" : true ,"b":2}}}`},
		{"a true stays true", `{"projects":{"/w/proj":{"hasTrustDialogAccepted":true}}}`, `{"projects":{"/w/proj":{"hasTrustDialogAccepted":true}}}`},
		{"of duplicates the last one counts, as in JSON.parse", `{"projects":{},"projects":{"/w/proj":{"hasTrustDialogAccepted":0}}}`, `{"projects":{},"projects":{"/w/proj":{"hasTrustDialogAccepted":true}}}`},
		{"an escaped folder name matches", `{"projects":{"\/w\/proj":{"hasTrustDialogAccepted":false}}}`, `{"projects":{"\/w\/proj":{"hasTrustDialogAccepted":true}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := setTrust([]byte(tc.in), folder)
			if err != nil {
				t.Fatalf("setTrust(%s): %v", tc.in, err)
			}
			if string(got) != tc.want {
				t.Errorf("setTrust(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestSetTrustRefusesWhatItCannotChangeSafely(t *testing.T) {
	for _, in := range []string{``, `not json`, `{"a":`, `[]`, `null`, `"{}"`, "\ufeff{}", `{"projects": []}`, `{"projects": {"/w/proj": "yes"}}`, `{} {}`} {
		if got, err := setTrust([]byte(in), "/w/proj"); !errors.Is(err, ErrUnreadable) {
			t.Errorf("setTrust(%q) = %q, %v; want ErrUnreadable", in, got, err)
		}
	}
}

// FuzzSetTrust: whatever object the file holds, the result parses, means the same plus the
// one key, and differs from the input in one place only (a replacement or an insertion).
func FuzzSetTrust(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"projects":{}}`, `{"projects":{"/w/p":{"hasTrustDialogAccepted":false,"x":[1,2.0,"\u0000"]}}}`,
		"{\n  \"projects\": {\n    \"/w/p\": {}\n  },\n  \"n\": -0.0e-0\n}\n",
		`{"a":{"projects":{}},"projects":{"/w/q":{}},"projects":{"/w/p":null}}`,
	} {
		f.Add([]byte(seed), "/w/p")
	}
	f.Fuzz(func(t *testing.T, in []byte, folder string) {
		out, err := setTrust(in, folder)
		if err != nil {
			return // refused: nothing written
		}
		var before, after map[string]any
		if err := decode(in, &before); err != nil {
			t.Fatalf("setTrust accepted %q, which does not decode: %v", in, err)
		}
		if err := decode(out, &after); err != nil {
			t.Fatalf("setTrust(%q) = %q, which does not decode: %v", in, out, err)
		}
		projects, _ := before["projects"].(map[string]any)
		if projects == nil {
			projects = map[string]any{}
			before["projects"] = projects
		}
		entry, _ := projects[folder].(map[string]any)
		if entry == nil {
			entry = map[string]any{}
			projects[folder] = entry
		}
		entry[trustKey] = true
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("setTrust(%q) = %q: means\n%v\nwant\n%v", in, out, after, before)
		}
		prefix := 0
		for prefix < len(in) && prefix < len(out) && in[prefix] == out[prefix] {
			prefix++
		}
		suffix := 0
		for suffix < len(in)-prefix && suffix < len(out)-prefix && in[len(in)-1-suffix] == out[len(out)-1-suffix] {
			suffix++
		}
		changed := in[prefix : len(in)-suffix]
		if len(changed) > max(len("false"), len(oldValue(in, folder))) {
			t.Fatalf("setTrust(%q) = %q: changed %q, more than one value", in, out, changed)
		}
	})
}

func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// oldValue is the bytes of projects[folder].hasTrustDialogAccepted in data, if any.
func oldValue(data []byte, folder string) []byte {
	var top, projects, entry map[string]json.RawMessage
	_ = json.Unmarshal(data, &top)
	_ = json.Unmarshal(top["projects"], &projects)
	_ = json.Unmarshal(projects[folder], &entry)
	return entry[trustKey]
}

// FuzzScanAgreesWithEncodingJSON: the streaming scanner takes exactly the documents
// encoding/json takes that are one object, so a file it accepts the CLI reads too, and one it
// refuses is refused as before.
func FuzzScanAgreesWithEncodingJSON(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` {"a":[1,-0.5e+3,true,false,null,"\u00e9\n"]} `, `{"a":01}`, `{"a":1.}`, `{"a":"\x"}`,
		`{"a":tru}`, `{"a" 1}`, `{"a":1,}`, `[]`, `{} x`, "{\"a\":\"\x01\"}", `{"\ud800":{"b":[[]]}}`, `{"a":-}`, `{"a":1e}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		_, err := scan(context.Background(), bytes.NewReader(in), func(string) bool { return true })
		trimmed := bytes.TrimLeft(in, " \t\r\n")
		want := json.Valid(in) && len(trimmed) > 0 && trimmed[0] == '{'
		if (err == nil) != want {
			t.Fatalf("scan(%q) = %v; encoding/json takes it as one object: %v", in, err, want)
		}
	})
}
