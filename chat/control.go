package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
)

// ErrControl is the CLI refusing a control request; the error text is the CLI's.
var ErrControl = errors.New("claude refused the request")

// maxReplying bounds the answers to the CLI's unknown control requests being written at
// once. Each is written by a goroutine of its own (the reader must go on); a CLI that floods
// them while it does not read its stdin left one goroutine each, for ever (200,000 took the
// host to 1 GiB). Past the cap a request is logged and left unanswered: the CLI would not
// read the answer.
const maxReplying = 16

// controls matches our control requests with the CLI's responses by request_id.
type controls struct {
	in       *stdin
	log      *slog.Logger
	replying chan struct{} // a slot per answer being written (maxReplying)
	// hooks are registered with initialize, handleHook answers them (hooks.go); hooking
	// holds a slot per hook being handled (maxHooking).
	hooks      []Hook
	handleHook HookHandler
	hooking    chan struct{}

	mu      sync.Mutex
	next    int
	waiting map[string]chan controlResponse
	err     error // set once the CLI is gone: every request fails with it
}

func newControls(in *stdin, log *slog.Logger) *controls {
	return &controls{in: in, log: log, replying: make(chan struct{}, maxReplying), hooking: make(chan struct{}, maxHooking), waiting: map[string]chan controlResponse{}}
}

// request sends one control request and waits for its response. request is the request
// object without its subtype.
func (c *controls) request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	req := map[string]any{"subtype": subtype}
	for k, v := range fields {
		req[k] = v
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", subtype, c.err)
	}
	c.next++
	id := "claude-nvim-" + strconv.Itoa(c.next)
	ch := make(chan controlResponse, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
	}()

	if err := c.in.writeJSON(ctx, controlRequestLine{Type: "control_request", RequestID: id, Request: req}); err != nil {
		return nil, fmt.Errorf("%s: %w", subtype, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: %w", subtype, ErrExited)
		}
		if r.Subtype != "success" {
			return nil, fmt.Errorf("%s: %w: %s", subtype, ErrControl, r.Error)
		}
		return r.Response, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", subtype, ctx.Err())
	}
}

// incoming handles the CLI's control lines other than permission requests (the parser's
// control hook; it runs on the reader goroutine).
func (c *controls) incoming(l *inLine) {
	switch l.Type {
	case "control_response":
		var r controlResponse
		if json.Unmarshal(l.Response, &r) != nil {
			return
		}
		c.mu.Lock()
		ch := c.waiting[r.RequestID]
		delete(c.waiting, r.RequestID)
		c.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	case "control_request":
		if c.hookCallback(l) {
			return
		}
		// mcp_message, …: we registered no SDK MCP servers (and hook_callback without
		// hooks), so these are unexpected. An error answer keeps the CLI from waiting for ever. The
		// write must not block the reader, hence the goroutine, bounded in number and time.
		var sub struct {
			Subtype string `json:"subtype"`
		}
		json.Unmarshal(l.Request, &sub)
		id := l.RequestID
		select {
		case c.replying <- struct{}{}:
		default:
			c.log.Warn("claude: too many control requests unanswered; not answering this one", "request", clip([]byte(id)), "subtype", clip([]byte(sub.Subtype)))
			return
		}
		go func() {
			defer func() { <-c.replying }()
			ctx, cancel := context.WithTimeout(context.Background(), refuseTimeout)
			defer cancel()
			if err := c.in.writeJSON(ctx, controlResponseLine{Type: "control_response", Response: controlResponse{
				Subtype: "error", RequestID: id, Error: "claude.nvim does not handle " + sub.Subtype,
			}}); err != nil {
				c.log.Warn("claude: answer a control request", "request", clip([]byte(id)), "err", err)
			}
		}()
	}
}

// maxHooking bounds the hook events handled at once (a turn's parallel tool calls each
// have their PreToolUse); past it an event is answered with an error, as the CLI would
// otherwise wait out the hook's timeout.
const maxHooking = 32

// hookCallback answers a hook_callback request with the handler's output, on a goroutine of
// its own (the handler may take long: a snapshot of a large work tree), within the hook's
// timeout. It reports whether l was one.
func (c *controls) hookCallback(l *inLine) bool {
	var req struct {
		Subtype    string          `json:"subtype"`
		CallbackID string          `json:"callback_id"`
		Input      json.RawMessage `json:"input"`
	}
	if json.Unmarshal(l.Request, &req) != nil || req.Subtype != "hook_callback" || c.handleHook == nil {
		return false
	}
	id := l.RequestID
	answer := func(r controlResponse) {
		// A context of its own: the handler's may have run out.
		ctx, cancel := context.WithTimeout(context.Background(), refuseTimeout)
		defer cancel()
		r.RequestID = id
		if err := c.in.writeJSON(ctx, controlResponseLine{Type: "control_response", Response: r}); err != nil {
			c.log.Warn("claude: answer a hook", "request", clip([]byte(id)), "err", err)
		}
	}
	select {
	case c.hooking <- struct{}{}:
	default:
		go answer(controlResponse{Subtype: "error", Error: "claude.nvim: too many hooks at once"})
		return true
	}
	go func() {
		defer func() { <-c.hooking }()
		ctx, cancel := context.WithTimeout(context.Background(), hookTimeout(c.hooks, req.CallbackID))
		defer cancel()
		out, err := c.handleHook(ctx, req.Input)
		if err != nil {
			answer(controlResponse{Subtype: "error", Error: err.Error()})
			return
		}
		if len(out) == 0 {
			out = json.RawMessage("{}")
		}
		answer(controlResponse{Subtype: "success", Response: out})
	}()
	return true
}

// fail ends every waiting request, and every later one, with err.
func (c *controls) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = err
	for id, ch := range c.waiting {
		close(ch)
		delete(c.waiting, id)
	}
}

// Control sends a control request of any subtype and returns the CLI's response object; the
// methods below cover the subtypes we checked against the CLI.
func (s *Process) Control(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	return s.ctl.request(ctx, subtype, fields)
}

// InitializeResult is the CLI's answer to initialize.
type InitializeResult struct {
	Commands []Command `json:"commands"`
	Models   []Model   `json:"models"`
	Agents   []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"agents"`
	OutputStyle           string   `json:"output_style"`
	AvailableOutputStyles []string `json:"available_output_styles"`
	PID                   int      `json:"pid"`
	// WorkspaceTrustRecorded answers Options.WorkspaceTrust: true when the CLI recorded the
	// trust (or it was there), false when it kept it for this session only (its home
	// directory) or would not record it (a path it refuses); nil when the request carried
	// none or the CLI predates the field (2.1.197).
	WorkspaceTrustRecorded *bool `json:"workspace_trust_recorded"`
	// Raw is the whole response, for the fields not above (account, …).
	Raw json.RawMessage `json:"-"`
}

// Command is a slash command (without its "/").
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
}

// Model is one entry of the CLI's model list; Value is what SetModel and Options.Model take.
type Model struct {
	Value                 string   `json:"value"`
	ResolvedModel         string   `json:"resolvedModel"`
	DisplayName           string   `json:"displayName"`
	Description           string   `json:"description"`
	SupportedEffortLevels []string `json:"supportedEffortLevels"`
}

// Initialize must be the first control request. It may be sent before the first turn; the
// CLI answers at once.
func (s *Process) Initialize(ctx context.Context) (*InitializeResult, error) {
	fields := map[string]any{"hooks": hooksParam(s.ctl.hooks)}
	if s.workspaceTrust != "" {
		fields["workspaceTrust"] = map[string]any{"accepted": true, "directory": s.workspaceTrust}
	}
	raw, err := s.ctl.request(ctx, "initialize", fields)
	if err != nil {
		return nil, err
	}
	var r InitializeResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("initialize: decode response: %w", err)
	}
	r.Raw = raw
	return &r, nil
}

// Interrupt stops the running turn. The turn then ends with TurnEnd{Subtype:
// "error_during_execution"}, after a UserText "[Request interrupted by user]"; a pending
// permission request is withdrawn first (PermissionCancelled).
func (s *Process) Interrupt(ctx context.Context) error {
	_, err := s.ctl.request(ctx, "interrupt", nil)
	return err
}

// ErrUnknownMode is SetPermissionMode given a mode not in PermissionModes.
var ErrUnknownMode = errors.New("unknown permission mode")

// SetPermissionMode switches the mode for the rest of the process's life; a Status event with the
// new mode follows.
func (s *Process) SetPermissionMode(ctx context.Context, mode string) error {
	if !slices.Contains(PermissionModes, mode) {
		return fmt.Errorf("set_permission_mode %q: %w", mode, ErrUnknownMode)
	}
	_, err := s.ctl.request(ctx, "set_permission_mode", map[string]any{"mode": mode})
	return err
}

// SetModel switches the model from the next request on (a Model.Value or a model name). The
// CLI echoes it as a UserText replay ("<local-command-stdout>Set model to …").
func (s *Process) SetModel(ctx context.Context, model string) error {
	_, err := s.ctl.request(ctx, "set_model", map[string]any{"model": model})
	return err
}
