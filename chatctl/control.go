package chatctl

import (
	"context"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/google/uuid"
)

// SendArgs are ClaudeHostChatSend's: the chat's directory, the user's text, the image
// files attached to it (:Claude chat attach) and Lua's id for the message, which names it in
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
func (c *Controller) withRunning(dir, what string, write func(context.Context, Backend) error) {
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

// Send serves ClaudeHostChatSend (async): a user turn. The message's UUID is made here, on
// the handler goroutine, so that a Withdraw handled after it finds it. Lua has cleared the
// input by then, so a turn that cannot be sent goes back to it whole (an "unsent" item):
// typed text is never lost, whatever failed.
func (c *Controller) Send(args SendArgs) {
	u, m := c.messageID(args.Dir, args.ID)
	c.observe(args.Dir, []Item{{Kind: "user", Text: args.Text}})
	go func() {
		if m != nil {
			defer close(m.written)
		}
		if err := c.send(args, u); err != nil {
			c.forgetMessage(args.Dir, u) // the CLI never got it: nothing will say it is done
			c.log.Warn("chat: send", "dir", args.Dir, "err", err)
			c.show(context.Background(), args.Dir, unsentItem(args, err))
			return
		}
		c.log.Debug("chat: message written", "dir", args.Dir, "id", u)
	}()
}

func (c *Controller) send(args SendArgs, u string) error {
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
	c.noteSent(args.Dir)
	return proc.SendAs(ctx, u, args.Text, images...)
}

// forgetMessage drops the message the CLI knows as u (if any) from dir's chat.
func (c *Controller) forgetMessage(dir, u string) {
	if u == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if dc := c.chats[dir]; dc != nil {
		delete(dc.messages, u)
	}
}

// unsentItem gives a turn that was not sent back to the input: its text, and the images
// still worth attaching (all but one that cannot be read as an image).
func unsentItem(args SendArgs, err error) Item {
	it := Item{Kind: "unsent", ID: args.ID, Text: args.Text, Errors: []string{err.Error()}}
	for _, path := range args.Images {
		if _, bad := readImage(path); bad == nil {
			it.Images = append(it.Images, path)
		}
	}
	return it
}

// sentMessage is a message Lua sent, by the UUID the CLI knows it by.
type sentMessage struct {
	id      string        // Lua's
	written chan struct{} // closed once the write to the CLI is over
}

// messageID gives the message Lua calls id a UUID for the CLI, and remembers which is
// which until the CLI is done with it ("" and nil when Lua gave no id or no CLI runs).
func (c *Controller) messageID(dir, id string) (string, *sentMessage) {
	if id == "" {
		return "", nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	dc := c.chats[dir]
	if dc == nil || dc.proc == nil {
		return "", nil
	}
	u, m := uuid.NewString(), &sentMessage{id: id, written: make(chan struct{})}
	dc.messages[u] = m
	// Kept after the CLI is done with it: a rewind names it.
	dc.prompts[id], dc.sentOrder = u, append(dc.sentOrder, u)
	return u, m
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
	var proc Backend
	var u string
	var m *sentMessage
	if dc := c.chats[dir]; dc != nil {
		proc = dc.proc
		for k, v := range dc.messages {
			if v.id == id {
				u, m = k, v
			}
		}
	}
	c.mu.Unlock()
	if proc == nil || m == nil {
		c.show(context.Background(), dir, Item{Kind: "message", ID: id, Text: "taken"})
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		// The CLI must have read the message before it can drop it.
		select {
		case <-m.written:
		case <-ctx.Done():
			c.fail(dir, "withdraw", ctx.Err())
			return
		}
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
	var proc Backend
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
	c.withRunning(args.Dir, "mode", func(ctx context.Context, proc Backend) error {
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
	c.withRunning(args.Dir, "model", func(ctx context.Context, proc Backend) error {
		if err := proc.SetModel(ctx, args.Model); err != nil {
			return err
		}
		c.show(ctx, args.Dir, Item{Kind: "model", Model: args.Model})
		return nil
	})
}
