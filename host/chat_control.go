package host

import (
	"context"
	"errors"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/nvimapi"
)

// chatInitTimeout bounds the wait for the CLI's answer to initialize (its model list); the
// CLI answers at once, so this only catches one that never does.
const chatInitTimeout = 30 * time.Second

// chatInit is a chat CLI's answer to initialize, asked once when the CLI starts (initialize
// must be the first control request) and kept for :ClaudeModel.
type chatInit struct {
	done   chan struct{} // closed when result or err is set
	result *chat.InitializeResult
	err    error
}

// initialize asks s for its initialize answer in the background and returns where it lands.
func (h *Host) initialize(dir string, s *chat.Session) *chatInit {
	ci := &chatInit{done: make(chan struct{})}
	go func() {
		defer close(ci.done)
		ctx, cancel := context.WithTimeout(context.Background(), chatInitTimeout)
		defer cancel()
		ci.result, ci.err = s.Initialize(ctx)
		if ci.err != nil {
			h.log.Warn("chat: initialize", "dir", dir, "err", ci.err)
			return
		}
		// The slash commands complete in the chat's input.
		item := nvimapi.ChatItem{Kind: "commands", Commands: []nvimapi.ChatCommand{}}
		for _, c := range ci.result.Commands {
			item.Commands = append(item.Commands, nvimapi.ChatCommand{Name: c.Name, Description: c.Description, Hint: c.ArgumentHint})
		}
		if err := h.editor.ChatEvents(ctx, dir, []nvimapi.ChatItem{item}); err != nil {
			h.log.Warn("chat: render", "dir", dir, "err", err)
		}
	}()
	return ci
}

// wait returns the initialize answer once it is there.
func (ci *chatInit) wait(ctx context.Context) (*chat.InitializeResult, error) {
	select {
	case <-ci.done:
		return ci.result, ci.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// chatModeArgs are ClaudeHostChatMode's: the chat's directory and the permission mode.
type chatModeArgs struct {
	Dir  string `msgpack:",array"`
	Mode string
}

// chatMode serves ClaudeHostChatMode (async): switch the running chat's permission mode.
// The CLI confirms with a status line, which the transcript and winbar show.
func (h *Host) chatMode(args chatModeArgs) {
	h.withChat(args.Dir, "mode", func(ctx context.Context, s *chat.Session) error {
		return s.SetPermissionMode(ctx, args.Mode)
	})
}

// chatModelArgs are ClaudeHostChatModel's: the chat's directory and a Model.Value.
type chatModelArgs struct {
	Dir   string `msgpack:",array"`
	Model string
}

// chatModel serves ClaudeHostChatModel (async): switch the running chat's model. The CLI
// only echoes it as a replayed line, so the transcript is told here.
func (h *Host) chatModel(args chatModelArgs) {
	h.withChat(args.Dir, "model", func(ctx context.Context, s *chat.Session) error {
		if err := s.SetModel(ctx, args.Model); err != nil {
			return err
		}
		item := nvimapi.ChatItem{Kind: "model", Model: args.Model}
		if err := h.editor.ChatEvents(ctx, args.Dir, []nvimapi.ChatItem{item}); err != nil {
			h.log.Warn("chat: render", "dir", args.Dir, "err", err)
		}
		return nil
	})
}

// chatModels serves ClaudeHostChatModels (async): the CLI's model list goes to Lua's picker
// (lua/claude/model.lua). The running chat's CLI answered it when it started; with no chat
// running, a CLI is started with a's options just to ask it, and closed.
func (h *Host) chatModels(all []chatStartArgs) {
	if len(all) == 0 {
		return
	}
	a := all[0]
	var ci *chatInit
	h.chats.mu.Lock()
	if st := h.chats.byDir[a.Dir]; st != nil && st.session != nil {
		ci = st.init
	}
	h.chats.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), chatInitTimeout)
		defer cancel()
		running := ci != nil
		var r *chat.InitializeResult
		var err error
		if running {
			r, err = ci.wait(ctx)
		} else {
			r, err = h.askModels(ctx, a)
		}
		if err == nil && r == nil {
			err = errors.New("no answer")
		}
		var models []nvimapi.ChatModel
		if err == nil {
			for _, m := range r.Models {
				models = append(models, nvimapi.ChatModel{Value: m.Value, Name: m.DisplayName, Description: m.Description})
			}
		}
		if err := h.editor.ChatModels(ctx, a.Dir, models, running, errString(err)); err != nil {
			h.log.Warn("chat: models", "dir", a.Dir, "err", err)
		}
	}()
}

// askModels starts a short-lived CLI for its initialize answer.
func (h *Host) askModels(ctx context.Context, a chatStartArgs) (*chat.InitializeResult, error) {
	s, err := chat.Start(chat.Options{Bin: a.Bin, Dir: a.Dir, Env: envList(a.Env), Args: a.Args, Logger: h.log.With("models", a.Dir)})
	if err != nil {
		return nil, err
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), chatCloseTimeout)
		defer cancel()
		_ = s.Close(closeCtx)
	}()
	go func() { // nobody renders this CLI's events; drain them so it can exit
		for {
			if _, err := s.Next(context.Background()); err != nil {
				return
			}
		}
	}()
	return s.Initialize(ctx)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
