package chatctl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/claude-nvim/claude.nvim/chat"
)

// Checkpoints (issue 25.4): from a prompt the user sent in this chat, the files Claude's tools
// changed since can be put back as they were before it (the CLI's rewind_files, shown first
// as a dry run), the conversation cut back to just before it (rewind_conversation), or both;
// or the conversation forked from there into a new stored one (Start with Fork). Lua names
// a prompt by its own message id; the CLI knows it by the uuid it was sent with (SendAs).

// ErrUnknownPrompt is a prompt this host does not know: one sent or shown before the Go host
// restarted. (A resumed conversation's earlier prompts are known by their stored uuids:
// knowStoredPrompts.)
var ErrUnknownPrompt = errors.New("only prompts sent or shown since the chat's Go host started can be rewound")

// RewindArgs are ClaudeHostChatRewind's: the chat's directory, Lua's id of the prompt, and
// what to do: "preview" (the dry run of the files' rewind), "code", "conversation" or
// "both".
type RewindArgs struct {
	Dir  string `msgpack:",array"`
	ID   string
	What string
}

// Rewind serves ClaudeHostChatRewind (async). A preview answers with a "rewind" item (the
// files and lines a rewind of the code would change, or in Text why it cannot); the others
// with a "rewound" item: What done, Text the prompt's text (when the conversation was cut),
// IsError and Errors when it failed. The files go first: a failed rewind of the code leaves
// the conversation as it was.
func (c *Controller) Rewind(args RewindArgs) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		c.show(ctx, args.Dir, c.rewind(ctx, args))
	}()
}

func (c *Controller) rewind(ctx context.Context, args RewindArgs) Item {
	proc, u, later := c.promptOf(args.Dir, args.ID)
	failed := func(err error) Item {
		c.log.Warn("chat: rewind", "dir", args.Dir, "what", args.What, "err", err)
		kind := "rewound"
		if args.What == "preview" {
			kind = "rewind"
		}
		return Item{Kind: kind, ID: args.ID, Summary: args.What, IsError: true, Errors: []string{err.Error()}}
	}
	switch {
	case proc == nil:
		return failed(chat.ErrExited)
	case u == "":
		return failed(ErrUnknownPrompt)
	}
	rw, err := capable[Rewinder](proc, "rewind")
	if err != nil {
		return failed(err)
	}
	switch args.What {
	case "preview":
		fr, err := rw.RewindFiles(ctx, u, true)
		if err != nil {
			return failed(err)
		}
		return Item{Kind: "rewind", ID: args.ID, Files: fr.Files, Insertions: fr.Insertions, Deletions: fr.Deletions}
	case "code", "conversation", "both":
	default:
		return failed(fmt.Errorf("unknown rewind %q: use code, conversation or both", args.What))
	}
	// The dry run first: the CLI does not say which files a real rewind wrote, and a rewind
	// of the code it refuses must leave the conversation as it was.
	done := Item{Kind: "rewound", ID: args.ID, Summary: args.What}
	if args.What != "conversation" {
		fr, err := rw.RewindFiles(ctx, u, true)
		if err != nil {
			return failed(err)
		}
		done.Files, done.Insertions, done.Deletions = fr.Files, fr.Insertions, fr.Deletions
	}
	if args.What != "code" {
		text, err := rewindConversation(ctx, rw, u, later)
		if err != nil {
			return failed(err)
		}
		done.Text = text
		c.forgetPrompts(args.Dir, u)
	}
	if args.What != "conversation" {
		if _, err := rw.RewindFiles(ctx, u, false); err != nil {
			return failed(err)
		}
	}
	return done
}

// ErrOldCLI is a rewind of the conversation the CLI cannot do: 2.1.197 cuts only at its
// last prompt ("stale target" for an earlier one) and never at the first ("no preceding
// assistant"). Cutting its later turns one by one first would lose them when the cut at the
// target then fails, so the chat says so instead.
var ErrOldCLI = errors.New("this Claude Code can only rewind the conversation to its last prompt, and not to the first (2.1.332 can); fork from there instead")

// rewindConversation cuts proc's conversation just before the prompt u; later are the
// prompts sent after it, oldest first: the newest is named as seen, or the CLI refuses to
// cut them ("stale target").
func rewindConversation(ctx context.Context, proc Rewinder, u string, later []string) (string, error) {
	last := u
	if len(later) > 0 {
		last = later[len(later)-1]
	}
	text, err := proc.RewindConversation(ctx, u, last)
	if err != nil && errors.Is(err, chat.ErrCannotRewind) && (strings.HasSuffix(err.Error(), ": stale target") || strings.HasSuffix(err.Error(), ": no preceding assistant")) {
		return "", fmt.Errorf("%w (%w)", ErrOldCLI, err)
	}
	return text, err
}

// promptOf returns dir's running CLI, the uuid it knows Lua's prompt id by ("" when this
// host did not send it) and the uuids of the prompts sent after it, oldest first.
func (c *Controller) promptOf(dir, id string) (proc Backend, u string, later []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dc := c.chats[dir]
	if dc == nil {
		return nil, "", nil
	}
	u = dc.prompts[id]
	if i := slices.Index(dc.sentOrder, u); u != "" && i >= 0 {
		later = slices.Clone(dc.sentOrder[i+1:])
	}
	return dc.proc, u, later
}

// forgetPrompts drops the prompt u and those sent after it from dir's chat: the
// conversation no longer holds them.
func (c *Controller) forgetPrompts(dir, u string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dc := c.chats[dir]; dc != nil {
		forgetPromptsLocked(dc, u)
	}
}

// forgetPromptsLocked is forgetPrompts with c.mu held.
func forgetPromptsLocked(dc *dirChat, u string) {
	i := slices.Index(dc.sentOrder, u)
	if i < 0 {
		return
	}
	gone := dc.sentOrder[i:]
	for id, v := range dc.prompts {
		if slices.Contains(gone, v) {
			delete(dc.prompts, id)
		}
	}
	dc.sentOrder = dc.sentOrder[:i:i]
}

// forkOptions are the chat.Options fields that fork dc's conversation just before Lua's
// prompt id: a new stored conversation holding the turns before it (a new, empty one for
// the first prompt); the original stays as it is. Called with c.mu held.
func forkOptions(dc *dirChat, env []string, id string) (chat.Options, error) {
	u := dc.prompts[id]
	if u == "" {
		return chat.Options{}, fmt.Errorf("fork: %w", ErrUnknownPrompt)
	}
	if dc.conversation == "" {
		return chat.Options{}, errors.New("fork: the chat has no stored conversation yet")
	}
	at, err := chat.EntryBefore(chat.ConfigDir(env), dc.dir, dc.conversation, u)
	if err != nil {
		return chat.Options{}, fmt.Errorf("fork: %w", err)
	}
	if at == "" {
		return chat.Options{}, nil
	}
	return chat.Options{Resume: dc.conversation, Fork: true, ResumeAt: at}, nil
}

// withCheckpoints is the CLI's environment with file checkpointing on (chat.FileCheckpointing),
// unless the user set it: the rewind of the code needs it. nil (inherit ours) becomes ours.
func withCheckpoints(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, chat.FileCheckpointing+"=") {
			return env
		}
	}
	return append(env, chat.FileCheckpointing+"=true")
}
