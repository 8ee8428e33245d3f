package chat

import "context"

// Titles (issue 39 item 5): the running conversation is renamed through the CLI, which then
// holds the title too and writes the same custom-title line Rename appends (doc.go).

// Titled is the CLI's system/session_title_changed (2.1.332): the conversation's title is now
// Title (a rename_session, the user's /rename).
type Titled struct{ Title string }

func (Titled) event() {}

// title handles session_title_changed; it reports whether l was one.
func (p *parser) title(l *inLine) bool {
	if l.Subtype != "session_title_changed" {
		return false
	}
	if l.Title != "" {
		p.emit(Titled{Title: l.Title})
	}
	return true
}

// RenameConversation gives the running conversation (its session id, so that a CLI that
// moved on to another refuses) the title, as the user's own rename in a host does
// (rename_session with source "host"): the CLI appends the custom-title line to the
// conversation's file, as its /rename does, and keeps the title.
func (s *Process) RenameConversation(ctx context.Context, sessionID, title string) error {
	title, err := CheckTitle(title)
	if err != nil {
		return err
	}
	_, err = s.ctl.request(ctx, "rename_session", map[string]any{"title": title, "session_id": sessionID, "source": "host"})
	return err
}
