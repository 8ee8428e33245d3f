package chatctl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/claudeconfig"
)

// The chat's permission rules (:Claude chat rules, issue 39 item 2): listed by the CLI itself
// (list_permission_rules, 2.1.332), each with its source and the CLI's plain-language
// reading; one in a settings file removed from that file, which the CLI reads again.

// rulesTimeout bounds one list, and the wait for the CLI to drop a removed rule.
const rulesTimeout = 10 * time.Second

// rulesPoll is how often the CLI is asked again while it has not yet read the changed file.
const rulesPoll = 100 * time.Millisecond

// RuleLister lists the agent's live permission rules: the Claude CLI (chat.Process).
type RuleLister interface {
	PermissionRules(ctx context.Context) (*chat.Rules, error)
}

// RulesArgs are ClaudeHostChatRules': the chat, the CLI's environment (where the user's
// settings are) and, to remove one first, the rule as the list gave it.
type RulesArgs struct {
	Dir      string            `msgpack:"dir"`
	Env      map[string]string `msgpack:"env"`
	Source   string            `msgpack:"source"`
	Behavior string            `msgpack:"behavior"`
	Rule     string            `msgpack:"rule"`
}

// RuleItem is one rule of a "rules" item (chat.Rule).
type RuleItem struct {
	Behavior    string `msgpack:"behavior"`
	Source      string `msgpack:"source"`
	Rule        string `msgpack:"rule"`
	Reading     string `msgpack:"reading"`
	Editability string `msgpack:"editability"`
	NotInEffect bool   `msgpack:"not_in_effect"`
	File        string `msgpack:"file"` // the settings file it is in, for the persistent ones
}

// Rules serves ClaudeHostChatRules (async): the running CLI's rules as a "rules" item (Rules;
// Files the extra workspace folders; Errors the settings files it skipped; Text what went
// wrong; Summary what was done). With a rule given, it is first taken out of its settings
// file, and the list waits until the CLI has dropped it.
func (c *Controller) Rules(args []RulesArgs) {
	if len(args) == 0 || args[0].Dir == "" {
		return
	}
	a := args[0]
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*rulesTimeout)
		defer cancel()
		it := Item{Kind: "rules", Rules: []RuleItem{}}
		running := c.running(a.Dir)
		proc, ok := running.(RuleLister)
		switch {
		case running == nil:
			it.Text = "no chat CLI runs: send a message first"
		case !ok:
			it.Text = "this chat's agent has no permission rules to list"
		}
		if it.Text != "" {
			c.show(ctx, a.Dir, it)
			return
		}
		if a.Rule != "" {
			if err := c.removeRule(ctx, proc, a); err != nil {
				it.Text = err.Error()
			} else {
				it.Summary = fmt.Sprintf("removed %s rule %s from %s", a.Behavior, a.Rule, a.Source)
			}
		}
		list, err := proc.PermissionRules(ctx)
		switch {
		case errors.Is(err, chat.ErrControl):
			it.Text = "this Claude Code does not list its rules (list_permission_rules came with 2.1.332); /permissions in a terminal does"
		case err != nil:
			it.Text = err.Error()
		default:
			it.Rules, it.Files, it.Errors = ruleItems(a, list), list.Directories, list.Errors
		}
		c.show(ctx, a.Dir, it)
	}()
}

func ruleItems(a RulesArgs, list *chat.Rules) []RuleItem {
	out := make([]RuleItem, 0, len(list.Rules))
	for _, r := range list.Rules {
		it := RuleItem{Behavior: r.Behavior, Source: r.Source, Rule: r.Rule, Reading: r.Reading, Editability: r.Editability, NotInEffect: r.NotInEffect}
		if r.Editability == "persistent" {
			it.File, _ = claudeconfig.SettingsPath(envList(a.Env), a.Dir, r.Source)
		}
		out = append(out, it)
	}
	return out
}

// removeRule takes a's rule out of its settings file and waits until proc no longer lists
// it (as often as it was listed, less one).
func (c *Controller) removeRule(ctx context.Context, proc RuleLister, a RulesArgs) error {
	count := func() (int, error) {
		list, err := proc.PermissionRules(ctx)
		if err != nil {
			return 0, err
		}
		n := 0
		for _, r := range list.Rules {
			if r.Source == a.Source && r.Behavior == a.Behavior && r.Rule == a.Rule {
				n++
			}
		}
		return n, nil
	}
	before, err := count()
	if err != nil {
		return err
	}
	path, err := claudeconfig.SettingsPath(envList(a.Env), a.Dir, a.Source)
	if err != nil {
		return err
	}
	inside := a.Dir
	if a.Source == "userSettings" {
		inside = "" // the user's own file, which may be a link to their dotfiles
	}
	if err := claudeconfig.RemoveRule(path, inside, a.Behavior, a.Rule); err != nil {
		return err
	}
	c.log.Info("chat: permission rule removed", "dir", a.Dir, "file", path, "behavior", a.Behavior, "rule", a.Rule)
	wait, cancel := context.WithTimeout(ctx, rulesTimeout)
	defer cancel()
	tick := time.NewTicker(rulesPoll)
	defer tick.Stop()
	for {
		n, err := count()
		if err != nil {
			return err
		}
		if n < before {
			return nil
		}
		select {
		case <-wait.Done():
			return fmt.Errorf("removed %s from %s, but the chat's CLI still has it: it may come from elsewhere too", a.Rule, path)
		case <-tick.C:
		}
	}
}
