package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
)

// ErrUnsupported is a call of a method the agent did not offer in its initialize answer
// (session/load, session/list, session/resume); nothing was sent.
var ErrUnsupported = errors.New("the agent does not offer it")

// ErrNotInitialized is a call that depends on the agent's capabilities before Initialize.
var ErrNotInitialized = errors.New("initialize first")

// Initialize negotiates the protocol: version 1, the capabilities the Client implements
// (fs.readTextFile for FileReader, fs.writeTextFile for FileWriter, terminal for
// Terminals), and who we are. An agent that answers with another version is refused, as
// the protocol says.
func (c *Conn) Initialize(ctx context.Context, info Implementation) (*InitializeResult, error) {
	_, read := c.client.(FileReader)
	_, write := c.client.(FileWriter)
	_, term := c.client.(Terminals)
	params := initializeParams{
		ProtocolVersion:    ProtocolVersion,
		ClientCapabilities: ClientCapabilities{FS: FileSystemCapabilities{ReadTextFile: read, WriteTextFile: write}, Terminal: term},
		ClientInfo:         &info,
	}
	var res InitializeResult
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	if res.ProtocolVersion != ProtocolVersion {
		return nil, fmt.Errorf("acp: initialize: the agent speaks protocol version %d; this client speaks %d", res.ProtocolVersion, ProtocolVersion)
	}
	c.mu.Lock()
	c.init = &res
	c.mu.Unlock()
	return &res, nil
}

// Authenticate runs one of the agent's auth methods (InitializeResult.AuthMethods).
func (c *Conn) Authenticate(ctx context.Context, methodID string) error {
	return c.Call(ctx, "authenticate", map[string]string{"methodId": methodID}, nil)
}

// capable checks a capability from the initialize answer.
func (c *Conn) capable(method string, has func(*AgentCapabilities) bool) error {
	c.mu.Lock()
	init := c.init
	c.mu.Unlock()
	switch {
	case init == nil:
		return fmt.Errorf("acp: %s: %w", method, ErrNotInitialized)
	case !has(&init.AgentCapabilities):
		return fmt.Errorf("acp: %s: %w", method, ErrUnsupported)
	}
	return nil
}

// NewSession starts a conversation. The agent may then make requests for it.
func (c *Conn) NewSession(ctx context.Context, req NewSessionRequest) (*NewSessionResult, error) {
	if err := checkCwd("session/new", req.Cwd); err != nil {
		return nil, err
	}
	if req.MCPServers == nil {
		req.MCPServers = []MCPServer{}
	}
	var res NewSessionResult
	err := c.call(ctx, "session/new", req, &res, func(raw json.RawMessage) {
		var s sessionParams
		if json.Unmarshal(raw, &s) == nil && s.SessionID != "" {
			c.openSession(s.SessionID)
		}
	})
	if err != nil {
		return nil, err
	}
	if res.SessionID == "" {
		return nil, errors.New("acp: session/new: the agent answered without a sessionId")
	}
	return &res, nil
}

// LoadSession reopens a stored conversation, where the agent offers it (loadSession). The
// agent replays the conversation as session updates before it answers.
func (c *Conn) LoadSession(ctx context.Context, req LoadSessionRequest) (*SessionSetup, error) {
	if err := c.capable("session/load", func(a *AgentCapabilities) bool { return a.LoadSession }); err != nil {
		return nil, err
	}
	if err := checkCwd("session/load", req.Cwd); err != nil {
		return nil, err
	}
	if req.MCPServers == nil {
		req.MCPServers = []MCPServer{}
	}
	return c.reopen(ctx, "session/load", req.SessionID, req)
}

// ResumeSession reopens a stored conversation without a replay, where the agent offers it
// (sessionCapabilities.resume).
func (c *Conn) ResumeSession(ctx context.Context, req ResumeSessionRequest) (*SessionSetup, error) {
	if err := c.capable("session/resume", func(a *AgentCapabilities) bool { return a.SessionCapabilities.CanResume() }); err != nil {
		return nil, err
	}
	if err := checkCwd("session/resume", req.Cwd); err != nil {
		return nil, err
	}
	if req.MCPServers == nil {
		req.MCPServers = []MCPServer{}
	}
	return c.reopen(ctx, "session/resume", req.SessionID, req)
}

// reopen opens the session before asking: the agent's requests during a replay are for it.
func (c *Conn) reopen(ctx context.Context, method, sessionID string, req any) (*SessionSetup, error) {
	if sessionID == "" {
		return nil, fmt.Errorf("acp: %s: no session id", method)
	}
	c.mu.Lock()
	wasOpen := c.sessions[sessionID]
	c.mu.Unlock()
	c.openSession(sessionID)
	var res SessionSetup
	if err := c.Call(ctx, method, req, &res); err != nil {
		if !wasOpen {
			c.forgetSession(sessionID)
		}
		return nil, err
	}
	return &res, nil
}

// ListSessions lists stored conversations, where the agent offers it (sessionCapabilities.list).
func (c *Conn) ListSessions(ctx context.Context, req ListSessionsRequest) (*ListSessionsResult, error) {
	if err := c.capable("session/list", func(a *AgentCapabilities) bool { return a.SessionCapabilities.CanList() }); err != nil {
		return nil, err
	}
	var res ListSessionsResult
	if err := c.Call(ctx, "session/list", req, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// CloseSession ends a session: from now on the agent's requests for it are refused. Where
// the agent offers session/close it is told too, so it frees what the session holds.
func (c *Conn) CloseSession(ctx context.Context, sessionID string) error {
	c.forgetSession(sessionID)
	if c.capable("session/close", func(a *AgentCapabilities) bool { return a.SessionCapabilities.CanClose() }) != nil {
		return nil
	}
	return c.Call(ctx, "session/close", sessionParams{SessionID: sessionID}, nil)
}

// Prompt sends the user's message and waits for the end of the turn; the answer streams
// in as session updates meanwhile. When ctx ends first the turn is cancelled (Cancel) and
// ctx's error returned: a turn nobody waits for must not go on running tools.
func (c *Conn) Prompt(ctx context.Context, sessionID string, prompt []ContentBlock) (*PromptResult, error) {
	var res PromptResult
	err := c.Call(ctx, "session/prompt", promptParams{SessionID: sessionID, Prompt: prompt}, &res)
	if err != nil {
		if ctx.Err() != nil && c.ctx.Err() == nil {
			cctx, cancel := context.WithTimeout(c.ctx, withdrawWait)
			defer cancel()
			if cerr := c.Cancel(cctx, sessionID); cerr != nil {
				c.log.Debug("acp: cancelling an abandoned turn", "session", sessionID, "err", cerr)
			}
		}
		return nil, err
	}
	return &res, nil
}

// Cancel stops the session's turn: session/cancel goes to the agent, and the permission
// requests it is waiting on are answered "cancelled". The turn's Prompt then returns, with
// stop reason "cancelled" from an agent that follows the protocol.
func (c *Conn) Cancel(ctx context.Context, sessionID string) error {
	err := c.Notify(ctx, "session/cancel", sessionParams{SessionID: sessionID})
	c.cancelRequests(sessionID)
	return err
}

// SetMode switches the session's mode (one of SessionModeState.AvailableModes).
func (c *Conn) SetMode(ctx context.Context, sessionID, modeID string) error {
	return c.Call(ctx, "session/set_mode", setModeParams{SessionID: sessionID, ModeID: modeID}, nil)
}

// SetConfigOption sets a select config option to one of its values.
func (c *Conn) SetConfigOption(ctx context.Context, sessionID, configID, value string) (*SetConfigOptionResult, error) {
	return c.setConfig(ctx, setConfigParams{SessionID: sessionID, ConfigID: configID, Value: value})
}

// SetConfigBool sets a boolean config option.
func (c *Conn) SetConfigBool(ctx context.Context, sessionID, configID string, value bool) (*SetConfigOptionResult, error) {
	return c.setConfig(ctx, setConfigParams{SessionID: sessionID, ConfigID: configID, Type: "boolean", Value: value})
}

func (c *Conn) setConfig(ctx context.Context, p setConfigParams) (*SetConfigOptionResult, error) {
	var res SetConfigOptionResult
	if err := c.Call(ctx, "session/set_config_option", p, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Agent is the agent's initialize answer, nil before Initialize.
func (c *Conn) Agent() *InitializeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.init
}

func (c *Conn) openSession(id string) {
	c.mu.Lock()
	c.sessions[id] = true
	c.mu.Unlock()
}

// forgetSession closes a session on our side and cancels its requests being served.
func (c *Conn) forgetSession(id string) {
	c.mu.Lock()
	delete(c.sessions, id)
	for _, in := range c.incoming {
		if in.sessionID == id {
			in.cancel(errSessionClosed)
		}
	}
	c.mu.Unlock()
}

var errSessionClosed = errors.New("the session was closed")

func checkCwd(method, cwd string) error {
	if !filepath.IsAbs(cwd) {
		return fmt.Errorf("acp: %s: cwd must be an absolute path, not %q", method, cwd)
	}
	return nil
}
