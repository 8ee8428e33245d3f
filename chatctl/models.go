package chatctl

import (
	"context"
	"errors"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
)

// initTimeout bounds the wait for the CLI's answer to initialize (its model list); the CLI
// answers at once, so this only catches one that never does.
const initTimeout = 30 * time.Second

// initAnswer is a chat CLI's answer to initialize, asked once when the CLI starts
// (initialize must be the first control request) and kept for :Claude model.
type initAnswer struct {
	done   chan struct{} // closed when result or err is set
	result *chat.InitializeResult
	err    error
}

// initialize asks proc for its initialize answer in the background and returns where it
// lands; the slash commands it lists go to the transcript, to complete in the input. answered
// gets the answer, or the error, once it is there.
func (c *Controller) initialize(dir string, proc Backend, answered func(*chat.InitializeResult, error)) *initAnswer {
	ia := &initAnswer{done: make(chan struct{})}
	go func() {
		defer close(ia.done)
		ctx, cancel := context.WithTimeout(context.Background(), initTimeout)
		defer cancel()
		ia.result, ia.err = proc.Initialize(ctx)
		go answered(ia.result, ia.err)
		if ia.err != nil {
			c.log.Warn("chat: initialize", "dir", dir, "err", ia.err)
			return
		}
		c.log.Debug("chat: initialize answered", "dir", dir)
		c.show(ctx, dir, commandsItem(ia.result.Commands))
		// Before the first turn the winbar shows the CLI's estimate (the system prompt and
		// tools, and the messages it holds), not nothing; unless the first message is on its
		// way, whose turn's end asks (refreshContextSoon).
		c.mu.Lock()
		dc := c.chats[dir]
		c.mu.Unlock()
		if dc != nil {
			c.refreshContextSoon(dc, proc)
		}
	}()
	return ia
}

// wait returns the initialize answer once it is there.
func (ia *initAnswer) wait(ctx context.Context) (*chat.InitializeResult, error) {
	select {
	case <-ia.done:
		return ia.result, ia.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Models serves ClaudeHostChatModels (async): the CLI's model list goes to Lua's picker
// (lua/claude/model.lua). The running CLI answered it when it started; with none running,
// a CLI is started with a's options just to ask it, and closed.
func (c *Controller) Models(all []StartArgs) {
	if len(all) == 0 {
		return
	}
	a := all[0]
	var ia *initAnswer
	c.mu.Lock()
	if dc := c.chats[a.Dir]; dc != nil && dc.proc != nil {
		ia = dc.init
	}
	c.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), initTimeout)
		defer cancel()
		running := ia != nil
		var r *chat.InitializeResult
		var err error
		if running {
			r, err = ia.wait(ctx)
		} else {
			r, err = c.askModels(ctx, a)
		}
		if err == nil && r == nil {
			err = errors.New("no answer")
		}
		var models []Model
		errText := ""
		if err != nil {
			errText = err.Error()
		} else {
			for _, m := range r.Models {
				models = append(models, Model{Value: m.Value, Name: m.DisplayName, Description: m.Description})
			}
		}
		if err := c.view.ChatModels(ctx, a.Dir, models, running, errText); err != nil {
			c.log.Warn("chat: models", "dir", a.Dir, "err", err)
		}
	}()
}

// askModels starts a short-lived CLI for its initialize answer.
func (c *Controller) askModels(ctx context.Context, a StartArgs) (*chat.InitializeResult, error) {
	if err := c.gate(a); err != nil { // even a CLI asked only for its models runs the folder's hooks
		return nil, err
	}
	proc, err := chat.Start(chat.Options{Bin: a.Bin, Dir: a.Dir, Env: envList(a.Env), Args: a.Args, Logger: c.log.With("models", a.Dir)})
	if err != nil {
		return nil, err
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		_ = proc.Close(closeCtx)
	}()
	go func() { // nobody renders this CLI's events; drain them so it can exit
		for {
			if _, err := proc.Next(context.Background()); err != nil {
				return
			}
		}
	}()
	return proc.Initialize(ctx)
}

// commandsItem is the transcript's "commands" item: the slash commands the input completes.
func commandsItem(cmds []chat.Command) Item {
	item := Item{Kind: "commands", Commands: []Command{}}
	for _, cmd := range cmds {
		item.Commands = append(item.Commands, Command{Name: cmd.Name, Description: cmd.Description, Hint: cmd.ArgumentHint})
	}
	return item
}
