package chatctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/mcp"
)

// Edits the chat's CLI asks about are reviewed in the diff view of the terminal's openDiff
// (nvimapi.Editor.OpenDiff, lua/claude/diff/init.lua): accept allows with the user's final text,
// reject denies.

// rejectMessage is what the model is told when the user rejects a proposed edit.
const rejectMessage = "The user rejected this change in the editor's diff review."

// modifiedMessage is what the model is told when the user changed a proposal before accepting
// it: the CLI's own words for it in the terminal's diff flow (its Edit and Write tool results),
// which its stream-json mode never says. There a changed updatedInput runs as if the model had
// sent it, and the tool result even says "file state is current in your context — no need to
// Read it back" (checked with the CLI 2.1.197; a userModified field in the answer is dropped),
// so the model would go on from a file that is not there.
// The path is quoted (strconv.Quote): it is the file the link the model named leads to, a
// name the workspace chose, and a name must not start a line of the model's context nor end
// the sentence and go on in the plugin's voice (issue 35).
func modifiedMessage(tool, path string) string {
	if tool == "Write" {
		return "The user modified your proposed content for " + strconv.Quote(path) + " before accepting it. The file is not what you proposed: read it again before relying on its content."
	}
	return "The user modified your proposed changes to " + strconv.Quote(path) + " before accepting them. The file is not what you proposed: read it again before relying on its content."
}

// editInput is the input of Edit, MultiEdit and Write, as far as a review needs it.
type editInput struct {
	FilePath   string `json:"file_path"`
	Content    string `json:"content"` // Write
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
	Edits      []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	} `json:"edits"` // MultiEdit
}

// editOf returns the input of an edit request (Edit, MultiEdit, Write naming an absolute
// path); ok is false for any other request. It reads no file: it runs on the render path.
func editOf(req chat.PermissionRequest) (in editInput, ok bool) {
	switch req.ToolName {
	case "Edit", "MultiEdit", "Write":
	default:
		return in, false
	}
	if json.Unmarshal(req.Input, &in) != nil || !filepath.IsAbs(in.FilePath) {
		return in, false
	}
	return in, true
}

// proposal is what an edit request would leave in its file: the file as it is (read by
// readReviewed: err for a file no review reads) and its text after. ok is false for an edit
// that does not apply (the user is then asked as for any tool).
func proposal(req chat.PermissionRequest, in editInput) (f reviewedFile, after string, ok bool, err error) {
	if f, err = readReviewed(in.FilePath); err != nil {
		return f, "", false, err
	}
	if req.ToolName == "Write" {
		return f, in.Content, true, nil
	}
	edits := in.Edits
	if req.ToolName == "Edit" {
		edits = append(edits[:0:0], struct {
			OldString  string `json:"old_string"`
			NewString  string `json:"new_string"`
			ReplaceAll bool   `json:"replace_all"`
		}{in.OldString, in.NewString, in.ReplaceAll})
	}
	after = f.text
	for _, e := range edits {
		if e.OldString == "" || !strings.Contains(after, e.OldString) {
			return f, "", false, nil
		}
		n := 1
		if e.ReplaceAll {
			n = -1
		}
		after = strings.Replace(after, e.OldString, e.NewString, n)
	}
	return f, after, true, nil
}

// updatedInput is the tool input that leaves final in the file: the request's own when the
// user accepted it unchanged; else Write's content, or an Edit of the whole file.
func updatedInput(req chat.PermissionRequest, before, after, final string) (json.RawMessage, error) {
	if final == after {
		return nil, nil
	}
	var in map[string]any
	if err := json.Unmarshal(req.Input, &in); err != nil {
		return nil, err
	}
	switch req.ToolName {
	case "Write":
		in["content"] = final
	case "Edit":
		in["old_string"], in["new_string"], in["replace_all"] = before, final, false
	default: // MultiEdit: one edit of the whole file
		in["edits"] = []map[string]any{{"old_string": before, "new_string": final, "replace_all": false}}
	}
	return json.Marshal(in)
}

// review shows an edit request as a diff and answers it with the user's decision. It runs
// in its own goroutine, as it reads the file (never on the goroutine that renders); ctx ends
// when the request is withdrawn. A file no review reads is denied with the reason; an edit
// that does not apply is asked about as any tool.
// place and of are the edit's place among its message's edits (0, 0: one alone, or not known).
func (c *Controller) review(ctx context.Context, dir string, proc Backend, req chat.PermissionRequest, in editInput, place, of int) {
	f, after, ok, err := proposal(req, in)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		wctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		c.log.Warn("chat: edit not reviewed", "dir", dir, "err", err)
		if err := proc.Deny(wctx, req.Ticket, "The editor refused to review this change: "+err.Error()); err != nil && !errors.Is(err, chat.ErrNoSuchRequest) {
			c.fail(dir, "answer", err)
			return
		}
		c.show(context.Background(), dir, Item{Kind: "answered", ID: req.Ticket, Text: "denied: " + err.Error()})
		return
	}
	if !ok {
		c.show(context.Background(), dir,
			Item{Kind: "note", ID: req.Ticket, Text: "the edit does not apply to the file as it is: no diff"},
			permissionItem(req))
		return
	}
	path, before := f.path, f.text
	if path != in.FilePath {
		c.show(context.Background(), dir, Item{Kind: "note", ID: req.Ticket, Text: in.FilePath + " is a link to " + path + ": the diff shows that file"})
	}
	res, err := c.view.OpenDiff(ctx, mcp.DiffRequest{
		OldPath: path, NewPath: path, NewContents: after, Place: place, Of: of,
		TabName: fmt.Sprintf("✻ [Claude Code] %s (%s) ⧉", filepath.Base(path), req.RequestID), // as the CLI names its diffs
	})
	if ctx.Err() != nil {
		return // withdrawn: the view is closed, the CLI asks no more
	}
	wctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	var line string
	switch {
	case err != nil:
		line = "could not show the diff (" + err.Error() + "): denied"
		err = proc.Deny(wctx, req.Ticket, "The editor could not show this change: "+strconv.Quote(err.Error())) // it may name the file
	case res.Outcome == mcp.DiffAccepted && res.FinalText == before && after != before:
		// Every change taken back (the per-hunk keys) and the rest accepted: the terminal's
		// CLI takes a FILE_SAVED with the file's own text as a rejection ("Rejected update",
		// the turn stops; 2.1.332). Allowed here, it would run an Edit that changes nothing
		// and fail it ("String not found in file"). So, as the terminal: a rejection.
		line = "every change taken back: rejected; the turn stops"
		err = proc.DenyAndStop(wctx, req.Ticket, rejectMessage)
	case res.Outcome == mcp.DiffAccepted:
		var input json.RawMessage
		if input, err = updatedInput(req, before, after, res.FinalText); err == nil {
			line = "accepted"
			keeper, keeps := proc.(Keeper)
			if _, tells := proc.(Teller); input != nil && keeps && !tells {
				// The agent runs the edit as proposed and the file then gets what the user
				// kept (acpchat/keep.go); it hears of it with the next prompt.
				line = "accepted with your changes"
				told := modifiedMessage(req.ToolName, path)
				if note := mcp.TakenBackNote(path, res.TakenBack); note != "" {
					told += " " + note
				}
				err = keeper.AllowKeeping(wctx, req.Ticket, path, after, res.FinalText, told)
				break
			}
			if input != nil {
				line = "accepted with your changes"
				// Before the answer: the CLI then has it when the tool's result goes out,
				// and gives both to the model in the same request.
				var teller Teller
				if teller, err = capable[Teller](proc, "tell the agent about your changes"); err == nil {
					told := modifiedMessage(req.ToolName, path)
					if note := mcp.TakenBackNote(path, res.TakenBack); note != "" {
						told += "\n" + note
					}
					err = teller.Tell(wctx, told)
				}
			}
			if err == nil {
				err = proc.Allow(wctx, req.Ticket, input)
			}
		}
	case res.Reason != "":
		// As the CLI's own "No, and tell Claude what to do differently": the model reads why
		// in the tool's result at once and goes on (a stopped turn's message never reaches it:
		// the CLI puts its own words there).
		line = "rejected, saying why; Claude goes on"
		err = proc.Deny(wctx, req.Ticket, rejectMessage+" The user's reason: "+strconv.Quote(res.Reason))
	default:
		// As the terminal's "No": the turn stops and Claude waits for the user.
		line = "rejected; the turn stops"
		err = proc.DenyAndStop(wctx, req.Ticket, rejectMessage)
	}
	if err != nil && !errors.Is(err, chat.ErrNoSuchRequest) {
		c.fail(dir, "answer", err)
		return
	}
	c.show(context.Background(), dir, Item{Kind: "answered", ID: req.Ticket, Text: line})
}
