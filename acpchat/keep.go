package acpchat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/chat"
)

// A reviewed edit the user accepted only in part. ACP has no answer that changes a tool's
// input, and claude-agent-acp's tools write the disk themselves (no fs/write_text_file
// comes, whatever the client advertises): so the edit is allowed whole, and once its tool
// call completed the file is given the text the user kept. The agent hears of it with the
// next prompt, as it hears of a revert (acp/doc.go says why this loses nothing).

// keep is what the user kept of one tool call's edit.
type keep struct {
	path  string // the file, as the review read it (no link)
	after string // what the agent's tool writes: the proposal
	final string // what the user kept
	note  string // what the agent is told
}

// AllowKeeping allows the request of ticket (allow_once) and, once its tool call
// completed, writes final into path where the tool left after there; note then goes to the
// agent ahead of the next prompt. A tool that fails, or a file that is not after when it
// completed, is left as it is and the transcript says so.
func (b *Backend) AllowKeeping(ctx context.Context, ticket, path, after, final, note string) error {
	b.mu.Lock()
	p := b.perms[ticket]
	b.mu.Unlock()
	if p == nil {
		return fmt.Errorf("%w: %s", chat.ErrNoSuchRequest, ticket)
	}
	o, ok := p.req.Option(acp.AllowOnce, acp.AllowAlways)
	if !ok {
		return errors.New("the agent offered no option that allows it")
	}
	b.mu.Lock()
	b.keeps[p.req.ToolCall.ToolCallID] = keep{path: path, after: after, final: final, note: note}
	b.mu.Unlock()
	if _, err := b.take(ticket); err != nil {
		b.mu.Lock()
		delete(b.keeps, p.req.ToolCall.ToolCallID)
		b.mu.Unlock()
		return err
	}
	p.answer <- acp.Select(o)
	return nil
}

// settle applies the keep of a tool call that ended (status completed or failed); it runs
// on the connection's reader before the call's result is shown, so the editor reloads the
// file as the user kept it and the turn's end (the ledger's snapshot) comes after.
func (b *Backend) settle(id, status string) []chat.Event {
	b.mu.Lock()
	k, ok := b.keeps[id]
	delete(b.keeps, id)
	b.mu.Unlock()
	if !ok {
		return nil
	}
	name := filepath.Base(k.path)
	if status != "completed" {
		return []chat.Event{chat.Notice{Text: fmt.Sprintf("%s: the edit failed; nothing of your review was applied", name)}}
	}
	if err := putBack(k); err != nil {
		b.log.Warn("acpchat: keeping the reviewed text", "path", k.path, "err", err)
		return []chat.Event{chat.Notice{Text: fmt.Sprintf("%s: %v; it keeps what %s wrote", name, err, b.name()), IsError: true}}
	}
	b.mu.Lock()
	b.notes = append(b.notes, k.note)
	b.mu.Unlock()
	return []chat.Event{chat.Notice{Text: fmt.Sprintf("%s has only what you kept; %s hears of it with your next message", name, b.name())}}
}

// putBack writes k.final into k.path if the file holds k.after, keeping its mode.
func putBack(k keep) error {
	fi, err := os.Lstat(k.path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return errors.New("no longer a regular file")
	}
	got, err := os.ReadFile(k.path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, []byte(k.after)) {
		return errors.New("the file is not what was proposed (changed since)")
	}
	tmp, err := os.CreateTemp(filepath.Dir(k.path), "."+filepath.Base(k.path)+".claude-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(k.final); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), k.path)
}

// takeNotes is what the agent is told ahead of the next prompt, and forgets it.
func (b *Backend) takeNotes() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var s string
	for _, n := range b.notes {
		s += "[claude.nvim] " + n + "\n"
	}
	b.notes = nil
	return s
}
