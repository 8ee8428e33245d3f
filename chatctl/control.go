package chatctl

import (
	"context"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/google/uuid"
)

// SendArgs are ClaudeHostChatSend's: the chat's directory, the user's text, the image
// files attached to it (:ClaudeChatAttach) and Lua's id for the message, which names it in
// the "message" items that say when the CLI takes it in (a message sent while Claude works
// waits in the CLI's queue).
type SendArgs struct {
	Dir    string `msgpack:",array"`
	Text   string
	Images []string
	ID     string
}

// withRunning runs write on dir's running CLI, off the handler's goroutine and bounded by
// writeTimeout; a chat with no CLI running, or a write that fails, is reported in its
// transcript as what failed.
func (c *Controller) withRunning(dir, what string, write func(context.Context, *chat.Process) error) {
	go func() {
		proc := c.running(dir)
		if proc == nil {
			c.fail(dir, what, chat.ErrExited)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		if err := write(ctx, proc); err != nil {
			c.fail(dir, what, err)
		}
	}()
}

// Send serves ClaudeHostChatSend (async): a user turn.
func (c *Controller) Send(args SendArgs) {
	c.withRunning(args.Dir, "send", func(ctx context.Context, proc *chat.Process) error {
		images := make([]chat.Image, 0, len(args.Images))
		for _, path := range args.Images {
			img, err := readImage(path)
			if err != nil {
				return err
			}
			images = append(images, img)
		}
		return proc.SendAs(ctx, c.messageID(args.Dir, args.ID), args.Text, images...)
	})
}

// messageID gives the message Lua calls id a UUID for the CLI, and remembers which is
// which until the CLI is done with it ("" when Lua gave no id).
func (c *Controller) messageID(dir, id string) string {
	if id == "" {
		return ""
	}
	u := uuid.NewString()
	c.mu.Lock()
	defer c.mu.Unlock()
	if dc := c.chats[dir]; dc != nil {
		dc.messages[u] = id
	}
	return u
}

// Withdraw serves ClaudeHostChatWithdraw (async; dir and Lua's id of a queued message): the
// CLI is asked to drop the message (cancel_async_message). The transcript gets a "message"
// item: "cancelled" (sent here too, as a CLI without command_lifecycle lines says nothing
// more; Lua ignores a second one), or "taken" when a turn took the message in first.
func (c *Controller) Withdraw(args []string) {
	if len(args) < 2 {
		return
	}
	dir, id := args[0], args[1]
	c.mu.Lock()
	var proc *chat.Process
	var u string
	if dc := c.chats[dir]; dc != nil {
		proc = dc.proc
		for k, v := range dc.messages {
			if v == id {
				u = k
			}
		}
	}
	c.mu.Unlock()
	if proc == nil || u == "" {
		c.show(context.Background(), dir, Item{Kind: "message", ID: id, Text: "taken"})
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		withdrawn, err := proc.Withdraw(ctx, u)
		if err != nil {
			c.fail(dir, "withdraw", err)
			return
		}
		state := "taken"
		if withdrawn {
			state = "cancelled"
		}
		c.show(ctx, dir, Item{Kind: "message", ID: id, Text: state})
	}()
}

// Interrupt serves ClaudeHostChatInterrupt (async): stop the running turn.
func (c *Controller) Interrupt(args []string) {
	if len(args) == 0 {
		return
	}
	dir := args[0]
	proc := c.running(dir)
	if proc == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		if err := proc.Interrupt(ctx); err != nil {
			c.fail(dir, "interrupt", err)
		}
	}()
}

// Stop serves ClaudeHostChatStop (async): end the CLI; the transcript gets its Exited. The
// next :ClaudeChat starts a new conversation.
func (c *Controller) Stop(args []string) {
	if len(args) == 0 {
		return
	}
	dir := args[0]
	c.mu.Lock()
	var proc *chat.Process
	if dc := c.chats[dir]; dc != nil {
		proc = dc.proc
		dc.conversation = "" // stopped on purpose: no resume
	}
	c.mu.Unlock()
	if proc == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		if err := proc.Close(ctx); err != nil {
			c.log.Warn("chat: close", "dir", dir, "err", err)
		}
	}()
}

// ModeArgs are ClaudeHostChatMode's: the chat's directory and the permission mode.
type ModeArgs struct {
	Dir  string `msgpack:",array"`
	Mode string
}

// Mode serves ClaudeHostChatMode (async): switch the running CLI's permission mode. The CLI
// confirms with a status line, which the transcript and winbar show.
func (c *Controller) Mode(args ModeArgs) {
	c.withRunning(args.Dir, "mode", func(ctx context.Context, proc *chat.Process) error {
		return proc.SetPermissionMode(ctx, args.Mode)
	})
}

// ModelArgs are ClaudeHostChatModel's: the chat's directory and a Model.Value.
type ModelArgs struct {
	Dir   string `msgpack:",array"`
	Model string
}

// Model serves ClaudeHostChatModel (async): switch the running CLI's model. The CLI only
// echoes it as a replayed line, so the transcript is told here.
func (c *Controller) Model(args ModelArgs) {
	c.withRunning(args.Dir, "model", func(ctx context.Context, proc *chat.Process) error {
		if err := proc.SetModel(ctx, args.Model); err != nil {
			return err
		}
		c.show(ctx, args.Dir, Item{Kind: "model", Model: args.Model})
		return nil
	})
}
