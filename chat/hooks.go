package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The CLI's hooks, served over the control channel: hooks registered with initialize, each
// under a callback id, which the CLI then calls with a hook_callback request and waits for
// the answer, as it waits for a command hook. No process is started per event (a command
// hook is a shell and a program for each prompt and each tool call).

// Hook asks the CLI to call Options.HookHandler for Event; for the tool events, for the
// tools Matcher names ("*" or empty: all).
type Hook struct {
	Event   string
	Matcher string
	// Timeout is how long the CLI waits for the answer (the handler's context ends then).
	Timeout time.Duration
}

// HookHandler answers one hook event. input is the event as a command hook reads it on its
// stdin (hook_event_name, session_id, …); the answer is the hook's output object as a
// command hook prints it ({"hookSpecificOutput": …}; nil for none).
type HookHandler func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// defaultHookTimeout is the CLI's own for a hook that names none.
const defaultHookTimeout = 60 * time.Second

// hookID is the callback id of Options.Hooks[i].
func hookID(i int) string { return fmt.Sprintf("claude-nvim-hook-%d", i) }

// hooksParam is initialize's "hooks": event → matchers → callback ids (nil without hooks).
func hooksParam(hooks []Hook) map[string]any {
	if len(hooks) == 0 {
		return nil
	}
	param := map[string]any{}
	for i, h := range hooks {
		m := map[string]any{"hookCallbackIds": []string{hookID(i)}}
		if h.Matcher != "" {
			m["matcher"] = h.Matcher
		}
		if h.Timeout > 0 {
			m["timeout"] = int(h.Timeout / time.Second)
		}
		list, _ := param[h.Event].([]any)
		param[h.Event] = append(list, m)
	}
	return param
}

// hookTimeout is how long the CLI waits for the hook with callback id id.
func hookTimeout(hooks []Hook, id string) time.Duration {
	for i, h := range hooks {
		if hookID(i) == id && h.Timeout > 0 {
			return h.Timeout
		}
	}
	return defaultHookTimeout
}
