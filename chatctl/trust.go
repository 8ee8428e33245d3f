package chatctl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/claude-nvim/claude.nvim/claudeconfig"
)

// trustTimeout bounds the wait for the CLI's lock on its config file; it holds it for
// milliseconds.
const trustTimeout = 10 * time.Second

// ErrUntrusted is Start's and :ClaudeModel's answer for a folder the CLI has not trusted:
// the CLI's print mode would run the folder's hooks, MCP servers and settings without asking
// (chat/doc.go), so no CLI starts there before the user says yes in the chat.
var ErrUntrusted = errors.New("the folder is not trusted yet: :ClaudeChat asks whether to trust it")

// TrustState is ClaudeHostChatTrusted's answer.
type TrustState struct {
	Trusted bool   `msgpack:"trusted"`
	Folder  string `msgpack:"folder"` // where a yes is recorded: the git root, else the chat's folder
	Config  string `msgpack:"config"` // the CLI's config file that keeps the answer
}

// trustOf reads whether a's folder is trusted in the config file of a's environment.
func trustOf(a StartArgs) (TrustState, error) {
	config := claudeconfig.Path(envList(a.Env))
	ok, err := claudeconfig.Trusted(config, a.Dir)
	return TrustState{Trusted: ok, Folder: claudeconfig.Folder(a.Dir), Config: config}, err
}

// gate refuses a start in a folder the CLI has not trusted.
func gate(a StartArgs) error {
	t, err := trustOf(a)
	if err != nil {
		return fmt.Errorf("workspace trust: %w", err)
	}
	if !t.Trusted {
		return fmt.Errorf("%s: %w", a.Dir, ErrUntrusted)
	}
	return nil
}

// Trusted serves ClaudeHostChatTrusted (sync: one small file read): whether the CLI trusts
// the chat's folder. When it does not, the transcript shows the question (a "trust" item:
// Text the folder a yes records, Summary the config file), which the user answers when they
// choose; nothing takes their keys.
func (c *Controller) Trusted(args []StartArgs) (TrustState, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return TrustState{}, errors.New("chat trust: no directory")
	}
	a := args[0]
	t, err := trustOf(a)
	if err != nil {
		return t, fmt.Errorf("chat trust: %w", err)
	}
	c.log.Debug("chat: trust checked", "dir", a.Dir, "trusted", t.Trusted)
	if !t.Trusted && !a.Quiet {
		go c.show(context.Background(), a.Dir, Item{Kind: "trust", Text: t.Folder, Summary: t.Config})
	}
	return t, nil
}

// Trust serves ClaudeHostChatTrust (async: it may wait for the CLI's lock): it records the
// user's yes in the CLI's config file, as the CLI's own dialog does, then tells Lua, which
// starts the chat.
func (c *Controller) Trust(args []StartArgs) {
	if len(args) == 0 || args[0].Dir == "" {
		return
	}
	a := args[0]
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), trustTimeout)
		defer cancel()
		config := claudeconfig.Path(envList(a.Env))
		errText := ""
		if err := claudeconfig.Trust(ctx, config, claudeconfig.Folder(a.Dir)); err != nil {
			c.log.Warn("chat: trust", "dir", a.Dir, "err", err)
			errText = err.Error()
		}
		if err := c.view.ChatTrusted(ctx, a.Dir, errText); err != nil {
			c.log.Warn("chat: trusted", "dir", a.Dir, "err", err)
		}
	}()
}
