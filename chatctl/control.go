package chatctl

import (
	"context"

	"github.com/claude-nvim/claude.nvim/chat"
)

// SendArgs are ClaudeHostChatSend's: the chat's directory, the user's text and the image
// files attached to it (:ClaudeChatAttach).
type SendArgs struct {
	Dir    string `msgpack:",array"`
	Text   string
	Images []string
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

// Send serves ClaudeHostChatSend (async): a user turn. Lua has cleared the input by then, so
// a turn that cannot be sent goes back to it whole (an "unsent" item): typed text is never
// lost, whatever failed.
func (c *Controller) Send(args SendArgs) {
	go func() {
		if err := c.send(args); err != nil {
			c.log.Warn("chat: send", "dir", args.Dir, "err", err)
			c.show(context.Background(), args.Dir, unsentItem(args, err))
		}
	}()
}

func (c *Controller) send(args SendArgs) error {
	proc := c.running(args.Dir)
	if proc == nil {
		return chat.ErrExited
	}
	images := make([]chat.Image, 0, len(args.Images))
	for _, path := range args.Images {
		img, err := readImage(path)
		if err != nil {
			return err
		}
		images = append(images, img)
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	return proc.Send(ctx, args.Text, images...)
}

// unsentItem gives a turn that was not sent back to the input: its text, and the images
// still worth attaching (all but one that cannot be read as an image).
func unsentItem(args SendArgs, err error) Item {
	it := Item{Kind: "unsent", Text: args.Text, Errors: []string{err.Error()}}
	for _, path := range args.Images {
		if _, bad := readImage(path); bad == nil {
			it.Images = append(it.Images, path)
		}
	}
	return it
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
