package chatctl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/claudeconfig"
)

// trustTimeout bounds the plugin's own record of a yes: the wait for the CLI's lock on its
// config file (held for milliseconds) and the read and write of the file.
const trustTimeout = 10 * time.Second

// ErrUntrusted is Start's and :Claude model's answer for a folder the CLI has not trusted:
// the CLI's print mode would run the folder's hooks, MCP servers and settings without asking
// (chat/doc.go), so no CLI starts there before the user says yes in the chat.
var ErrUntrusted = errors.New("the folder is not trusted yet: :ClaudeChat asks whether to trust it")

// TrustState is ClaudeHostChatTrusted's answer.
type TrustState struct {
	Trusted bool   `msgpack:"trusted"`
	Folder  string `msgpack:"folder"` // where a yes is recorded: the git root, else the chat's folder
	Config  string `msgpack:"config"` // the CLI's config file that keeps the answer
}

// trusts holds the folders the user said yes to in this host's life. A yes is recorded where
// the CLI keeps it by the chat's next CLI itself (2.1.332: initialize's workspaceTrust, the
// launch-time twin of its set_cwd trust_accepted), else by the plugin once that CLI
// answered (claudeconfig, for CLIs before it); until then, and when neither can record it
// (the CLI keeps a home directory's trust for the session only), the yes holds here.
type trusts struct {
	mu       sync.Mutex
	yes      map[string]bool // folders the user trusted
	toRecord map[string]bool // of those, the ones no CLI has been asked to record yet
}

// add notes the user's yes to folder.
func (t *trusts) add(folder string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.yes == nil {
		t.yes, t.toRecord = map[string]bool{}, map[string]bool{}
	}
	t.yes[folder], t.toRecord[folder] = true, true
}

// covers says whether the user trusted dir or a folder above it, as the CLI's trust covers
// the folders below.
func (t *trusts) covers(dir string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if t.yes[d] {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// take returns folder if a CLI is still to record the yes to it, and takes it off the list:
// the CLI about to start does.
func (t *trusts) take(folder string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.toRecord[folder] {
		return ""
	}
	delete(t.toRecord, folder)
	return folder
}

// giveBack puts folder back on the list: the CLI that was to record it did not answer.
func (t *trusts) giveBack(folder string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.toRecord[folder] = true
}

// remoteTrustKey is where a yes to folder for remote name's CLI is noted among the local
// folders: under a root no path has (a NUL), the name escaped so no two names share a key.
func remoteTrustKey(name, folder string) string {
	return "/\x00remote/" + url.PathEscape(name) + filepath.Clean(folder)
}

// trustOf reads whether a's folder is trusted: by the user's yes in this host, or in the
// config file of a's environment. A remote's CLI keeps its trust in its config there, which
// this side cannot read, and its print mode would run the folder's hooks, MCP servers and
// settings there without asking: so a remote folder is trusted by a yes in this host alone,
// asked once per Neovim.
func (c *Controller) trustOf(a StartArgs) (TrustState, error) {
	config, dir := claudeconfig.Path(envList(a.Env)), a.workdir()
	if a.Remote != nil {
		folder := claudeconfig.Folder(dir)
		return TrustState{
			Trusted: c.trusts.covers(remoteTrustKey(a.Remote.Name, dir)),
			Folder:  folder,
			Config:  "remote " + a.Remote.Name + ": this Neovim keeps the answer until it exits",
		}, nil
	}
	t := TrustState{Trusted: c.trusts.covers(dir), Folder: claudeconfig.Folder(dir), Config: config}
	if t.Trusted {
		return t, nil
	}
	var err error
	t.Trusted, err = claudeconfig.Trusted(config, dir)
	return t, err
}

// gate refuses a start in a folder the CLI has not trusted.
func (c *Controller) gate(a StartArgs) error {
	t, err := c.trustOf(a)
	if err != nil {
		return fmt.Errorf("workspace trust: %w", err)
	}
	if !t.Trusted {
		return fmt.Errorf("%s: %w", a.workdir(), ErrUntrusted)
	}
	return nil
}

// Trusted serves ClaudeHostChatTrusted (sync: a read of the config file, streamed, at most
// claudeconfig's size limit): whether the CLI trusts the chat's folder. When it does not,
// the transcript shows the question (a "trust" item: Text the folder a yes records, Summary
// the config file), which the user answers when they choose; nothing takes their keys.
func (c *Controller) Trusted(args []StartArgs) (TrustState, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return TrustState{}, errors.New("chat trust: no directory")
	}
	a := args[0]
	t, err := c.trustOf(a)
	if err != nil {
		return t, fmt.Errorf("chat trust: %w", err)
	}
	c.log.Debug("chat: trust checked", "dir", a.Dir, "trusted", t.Trusted)
	if !t.Trusted && !a.Quiet {
		go c.show(context.Background(), a.Dir, Item{Kind: "trust", Text: t.Folder, Summary: t.Config})
	}
	return t, nil
}

// Trust serves ClaudeHostChatTrust: the user said yes to the chat's folder. It notes it and
// tells Lua, which starts the chat; that CLI records it (recordTrust).
func (c *Controller) Trust(args []StartArgs) {
	if len(args) == 0 || args[0].Dir == "" {
		return
	}
	a := args[0]
	if a.Remote != nil {
		c.trusts.add(remoteTrustKey(a.Remote.Name, claudeconfig.Folder(a.workdir())))
	} else {
		c.trusts.add(claudeconfig.Folder(a.workdir()))
	}
	go func() {
		if err := c.view.ChatTrusted(context.Background(), a.Dir, ""); err != nil {
			c.log.Warn("chat: trusted", "dir", a.Dir, "err", err)
		}
	}()
}

// recordTrust, once the CLI that was to record the yes to folder answered initialize, makes
// sure it is recorded where both the CLI and Trusted look, and tells the user when it
// cannot be: the chat runs, and the next Neovim asks again.
func (c *Controller) recordTrust(a StartArgs, folder string, init *chat.InitializeResult) {
	ctx, cancel := context.WithTimeout(context.Background(), trustTimeout)
	defer cancel()
	config := claudeconfig.Path(envList(a.Env))
	var err error
	switch recorded := init.WorkspaceTrustRecorded; {
	case recorded != nil && !*recorded:
		// The CLI would not keep it: its home directory (trusted for the session only), or a
		// path it refuses. Its rule is the one that counts: nothing is written behind it.
		err = fmt.Errorf("the CLI keeps the trust in %s for this session only (it does so for a home directory, and for a path it cannot show safely)", folder)
	case recorded != nil:
		// The CLI recorded it, at its key: for a linked worktree the main repository's, which
		// Trusted does not see from the worktree; then the plugin records the folder too.
		if ok, terr := claudeconfig.Trusted(config, a.Dir); terr == nil && ok {
			c.log.Debug("chat: the CLI recorded the trust", "folder", folder)
			return
		}
		err = claudeconfig.Trust(ctx, config, folder)
	default:
		// A CLI before workspaceTrust (2.1.197): the plugin records it, as that CLI's dialog
		// would, under its lock.
		err = claudeconfig.Trust(ctx, config, folder)
	}
	if err == nil {
		c.log.Debug("chat: the plugin recorded the trust", "folder", folder)
		return
	}
	c.log.Warn("chat: trust not recorded", "dir", a.Dir, "err", err)
	text := err.Error() + "; the chat runs, and the next Neovim asks again"
	if verr := c.view.ChatTrusted(ctx, a.Dir, text); verr != nil {
		c.log.Warn("chat: trusted", "dir", a.Dir, "err", verr)
	}
}
