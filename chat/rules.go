package chat

import (
	"context"
	"encoding/json"
	"fmt"
)

// Rule is one live permission rule of the CLI (list_permission_rules, 2.1.332): its
// Behavior (allow, deny, ask), Source (userSettings, projectSettings, localSettings,
// flagSettings, policySettings, cliArg, command, session, …), the stored Rule text as it is
// ("Bash(npm run *)"), the CLI's plain-language Reading of it ("Any Bash command starting
// with npm run"; "" where the terminal shows none) and Editability: "persistent" (in a
// settings file), "session" (in memory for this session) or "readonly".
type Rule struct {
	Behavior    string
	Source      string
	Rule        string
	Reading     string
	Editability string
	// NotInEffect: managed settings allow only their own rules, and this one is ignored.
	NotInEffect bool
}

// Rules is the CLI's live permission state: its rules and the extra workspace folders.
type Rules struct {
	Rules       []Rule
	Directories []string // each as "path (source)"
	ManagedOnly bool
	Errors      []string // settings files the CLI skipped, and why
}

type ruleWire struct {
	Behavior    string `json:"behavior"`
	Source      string `json:"source"`
	Rule        string `json:"rule"`
	Description *struct {
		Prefix   string `json:"prefix"`
		Emphasis string `json:"emphasis"`
		Suffix   string `json:"suffix"`
	} `json:"description"`
	Editability string `json:"editability"`
	NotInEffect bool   `json:"notInEffect"`
}

// PermissionRules asks the CLI for its live permission rules (list_permission_rules: the
// rules /permissions lists in the terminal, from settings files, the session's approvals
// and the command line). 2.1.197 does not know the request (ErrControl).
func (s *Process) PermissionRules(ctx context.Context) (*Rules, error) {
	raw, err := s.ctl.request(ctx, "list_permission_rules", nil)
	if err != nil {
		return nil, err
	}
	var r struct {
		State struct {
			Rules                []ruleWire `json:"rules"`
			WorkspaceDirectories []struct {
				Path   string `json:"path"`
				Source string `json:"source"`
			} `json:"workspaceDirectories"`
			ManagedOnly bool `json:"managedOnly"`
			Errors      []struct {
				Path    string `json:"path"`
				Message string `json:"message"`
			} `json:"errors"`
		} `json:"state"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("list_permission_rules: decode response: %w", err)
	}
	out := &Rules{Rules: []Rule{}, ManagedOnly: r.State.ManagedOnly}
	for _, w := range r.State.Rules {
		rule := Rule{Behavior: w.Behavior, Source: w.Source, Rule: w.Rule, Editability: w.Editability, NotInEffect: w.NotInEffect}
		if d := w.Description; d != nil {
			rule.Reading = d.Prefix + d.Emphasis + d.Suffix
		}
		out.Rules = append(out.Rules, rule)
	}
	for _, d := range r.State.WorkspaceDirectories {
		out.Directories = append(out.Directories, d.Path+" ("+d.Source+")")
	}
	for _, e := range r.State.Errors {
		out.Errors = append(out.Errors, e.Path+": "+e.Message)
	}
	return out, nil
}
