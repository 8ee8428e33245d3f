package chat

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestEntryBeforeFindsWhatAStoredMessageFollows(t *testing.T) {
	config, dir := t.TempDir(), "/work/my proj"
	lines := []string{
		`{"type":"queue-operation","operation":"enqueue"}`,
		`{"parentUuid":null,"type":"user","message":{"role":"user","content":"first"},"uuid":"u1"}`,
		`{"type":"file-history-snapshot","messageId":"u2","snapshot":{"messageId":"u2"}}`,
		`{"parentUuid":"u1","type":"assistant","message":{"role":"assistant","content":[]},"uuid":"a1"}`,
		`{"parentUuid":"a1","type":"user","message":{"role":"user","content":"second mentions \"u9\""},"uuid":"u2"}`,
		`not json at all "u3"`,
	}
	path := filepath.Join(ProjectDir(config, dir), "conv.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, message, want string
		err                 error
	}{
		{"the first message follows nothing", "u1", "", nil},
		{"a later message follows its parent entry, not a snapshot naming it", "u2", "a1", nil},
		{"an id only quoted in a message's text is no message", "u9", "", ErrNoMessage},
		{"an id only on a line that does not parse is no message", "u3", "", ErrNoMessage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EntryBefore(config, dir, "conv", tc.message)
			if got != tc.want || !errors.Is(err, tc.err) {
				t.Errorf("EntryBefore(%q) = %q, %v; want %q, %v", tc.message, got, err, tc.want, tc.err)
			}
		})
	}
	if _, err := EntryBefore(config, dir, "gone", "u1"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("EntryBefore in a conversation not stored = %v, want it not found", err)
	}
}

func TestAForkResumesAtAnEntryUnderANewID(t *testing.T) {
	got := (&Options{Resume: "c1", Fork: true, ResumeAt: "a1"}).args()
	want := []string{"--resume", "c1", "--fork-session", "--resume-session-at", "a1"}
	if i := slices.Index(got, "--resume"); i < 0 || !slices.Equal(got[i:i+len(want)], want) {
		t.Errorf("args = %q, want them to hold %q", got, want)
	}
	if got := (&Options{Fork: true, ResumeAt: "a1"}).args(); slices.Contains(got, "--fork-session") || slices.Contains(got, "--resume-session-at") {
		t.Errorf("without Resume, args = %q: a fork of nothing", got)
	}
}
