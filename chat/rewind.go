package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// FileCheckpointing is the variable of the CLI's environment that makes it keep a copy of each
// file its tools change, per user message, in print mode; without it rewind_files answers
// "File rewinding is not enabled." (2.1.332 and 2.1.197). The chat sets it to "true".
const FileCheckpointing = "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"

// ErrCannotRewind is a rewind the CLI refused: no checkpoint for that message, checkpointing
// off, a message it does not know.
var ErrCannotRewind = errors.New("cannot rewind")

// FileRewind is what a rewind of the files to a message changes (or, in a dry run, would):
// the absolute paths and the lines the rewind adds and removes.
type FileRewind struct {
	Files      []string `json:"filesChanged"`
	Insertions int      `json:"insertions"`
	Deletions  int      `json:"deletions"`
}

// RewindFiles puts the files Claude's tools changed back as they were just before the user
// message messageID (the uuid it was sent with, SendAs); with dryRun it only says what that
// would change. Files changed by other means (the user, a Bash command) are not tracked.
func (s *Process) RewindFiles(ctx context.Context, messageID string, dryRun bool) (FileRewind, error) {
	raw, err := s.ctl.request(ctx, "rewind_files", map[string]any{"user_message_id": messageID, "dry_run": dryRun})
	if err != nil {
		return FileRewind{}, err
	}
	var r struct {
		CanRewind bool   `json:"canRewind"`
		Error     string `json:"error"`
		FileRewind
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return FileRewind{}, fmt.Errorf("rewind_files: decode response: %w", err)
	}
	if !r.CanRewind {
		return FileRewind{}, fmt.Errorf("rewind_files: %w: %s", ErrCannotRewind, r.Error)
	}
	return r.FileRewind, nil
}

// RewindConversation cuts the conversation just before the user message messageID: that
// message and everything after it are gone from what the model gets next, and from the
// conversation as resumed later. lastSeen is the newest user message the caller knows of:
// the CLI refuses ("stale target") to cut away later turns the caller has not seen, and
// without it every turn after the target counts as unseen. It returns the message's text,
// for the user to edit and send again.
func (s *Process) RewindConversation(ctx context.Context, messageID, lastSeen string) (string, error) {
	fields := map[string]any{"target_message_uuid": messageID}
	if lastSeen != "" {
		fields["last_seen_user_message_uuid"] = lastSeen
	}
	raw, err := s.ctl.request(ctx, "rewind_conversation", fields)
	if err != nil {
		return "", err
	}
	var r struct {
		Rewound bool   `json:"rewound"`
		Prefill string `json:"prefillText"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("rewind_conversation: decode response: %w", err)
	}
	if !r.Rewound {
		return "", fmt.Errorf("rewind_conversation: %w: %s", ErrCannotRewind, r.Error)
	}
	return r.Prefill, nil
}

// ErrNoMessage is a message a stored conversation does not hold.
var ErrNoMessage = errors.New("no such message in the conversation")

// EntryBefore returns the entry a stored conversation's message messageID follows (its
// parentUuid): a fork that resumes at it (Options.ResumeAt) holds the conversation as it was
// just before that message. It is "" for the conversation's first message: a fork from there
// is a new conversation.
func EntryBefore(configDir, dir, conversation, messageID string) (string, error) {
	path := filepath.Join(ProjectDir(configDir, dir), conversation+".jsonl")
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("find message %s: %w", messageID, err)
	}
	defer f.Close()
	needle := []byte(`"` + messageID + `"`)
	parent, found := "", false
	err = readLines(f, maxLine, func(line []byte) bool {
		if !bytes.Contains(line, needle) { // most lines: not parsed
			return true
		}
		var l struct {
			UUID   string  `json:"uuid"`
			Parent *string `json:"parentUuid"`
		}
		if json.Unmarshal(line, &l) != nil || l.UUID != messageID {
			return true
		}
		if l.Parent != nil {
			parent = *l.Parent
		}
		found = true
		return false
	}, func(int, []byte) {})
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("find message %s in %s: %w", messageID, path, err)
	}
	if !found {
		return "", fmt.Errorf("find message %s in %s: %w", messageID, path, ErrNoMessage)
	}
	return parent, nil
}
