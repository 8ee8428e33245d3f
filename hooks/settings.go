package hooks

import (
	"encoding/json"
	"strings"
	"time"
)

// snapshotTimeout: the CLI waits this long (seconds) for the hooks that may snapshot a large
// work tree before Claude goes on; quickTimeout for the others, which only report.
const (
	snapshotTimeout = 60
	quickTimeout    = 10
)

// events are the hooks Settings installs, with their timeouts.
var events = []struct {
	name    string
	timeout int
}{
	{SessionStart, quickTimeout},
	{UserPromptSubmit, snapshotTimeout},
	{PreToolUse, snapshotTimeout},
	{PermissionRequest, quickTimeout},
	{PostToolUse, quickTimeout},
	{Notification, quickTimeout},
	{Stop, snapshotTimeout},
	{SessionEnd, quickTimeout},
}

// Spec is one hook the plugin asks for: its event, the tools it matches (tool events; ""
// otherwise) and how long the CLI waits for its answer.
type Spec struct {
	Event   string
	Matcher string
	Timeout time.Duration
}

// Specs are the hooks the plugin asks for, as Settings writes them: what a chat registers
// over its control channel instead (chat.Hook).
func Specs() []Spec {
	specs := make([]Spec, 0, len(events))
	for _, ev := range events {
		spec := Spec{Event: ev.name, Timeout: time.Duration(ev.timeout) * time.Second}
		switch ev.name {
		case PreToolUse, PostToolUse, PermissionRequest:
			spec.Matcher = "*"
		}
		specs = append(specs, spec)
	}
	return specs
}

// Settings is the JSON for the CLI's --settings flag that sends every event the plugin
// follows to socket, through binary's -hook mode. The CLI merges it with the user's own
// settings, whose hooks keep running.
func Settings(binary, socket string) ([]byte, error) {
	return settingsOf(binary, socket, Specs())
}

// BeforeToolSettings is Settings with the PreToolUse hook alone: for a CLI whose turns the
// plugin learns of otherwise (an ACP agent's, from the protocol), so that each tool's files
// are snapshotted before it runs, asked or not.
func BeforeToolSettings(binary, socket string) ([]byte, error) {
	var specs []Spec
	for _, spec := range Specs() {
		if spec.Event == PreToolUse {
			specs = append(specs, spec)
		}
	}
	return settingsOf(binary, socket, specs)
}

func settingsOf(binary, socket string, specs []Spec) ([]byte, error) {
	command := shellQuote(binary) + " -hook " + shellQuote(socket)
	hooks := map[string]any{}
	for _, spec := range specs {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": int(spec.Timeout / time.Second)}}}
		if spec.Matcher != "" {
			group["matcher"] = spec.Matcher
		}
		hooks[spec.Event] = []any{group}
	}
	return json.Marshal(map[string]any{"hooks": hooks})
}

// shellQuote quotes s for a POSIX shell (the CLI runs hook commands with sh -c).
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
