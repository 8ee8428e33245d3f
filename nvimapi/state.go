package nvimapi

import (
	"context"
)

// ClientChange is what lua/claude/state.lua learns when a CLI finished
// connecting or went away (for statuslines and User events).
type ClientChange struct {
	Session   int    `msgpack:"session"` // whose server (host sessions; 1 is the first)
	Connected bool   `msgpack:"connected"`
	Clients   int    `msgpack:"clients"` // clients connected and ready after the change
	PID       int    `msgpack:"pid"`
	Name      string `msgpack:"name"`
	Version   string `msgpack:"version"`
}

// ClientChanged pushes a connect or disconnect to the Lua layer, so it
// never has to ask.
func (e *Editor) ClientChanged(ctx context.Context, c ClientChange) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').update_client(...)`, c); err != nil {
		return luaError(err)
	}
	return nil
}

// StartResult answers an asynchronous start (ClaudeHostStartAsync):
// exactly one field is set.
type StartResult struct {
	Info  any    `msgpack:"info,omitempty"`  // the started server, as ClaudeHostStart answers
	Error string `msgpack:"error,omitempty"` // why it did not start
	// The host's version when it is not the Lua side's: Lua tells the
	// user to update the binary.
	Version string `msgpack:"version,omitempty"`
}

// StartFinished hands the result of an asynchronous start to
// lua/claude/host.lua, which waits for no answer.
func (e *Editor) StartFinished(ctx context.Context, r StartResult) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').finish_start(...)`, r); err != nil {
		return luaError(err)
	}
	return nil
}

// RemoteState is a remote's state as lua/claude/remote.lua shows it (the
// statusline, :checkhealth).
type RemoteState struct {
	Name     string   `msgpack:"name"`
	State    string   `msgpack:"state"` // connecting, connected, dropped, failed, stopped
	Error    string   `msgpack:"error,omitempty"`
	Session  int      `msgpack:"session"` // its proposals' session
	Roots    []string `msgpack:"roots"`   // the lock's folders, remote names
	PID      int      `msgpack:"pid,omitempty"`
	Port     int      `msgpack:"port,omitempty"`
	Lockfile string   `msgpack:"lockfile,omitempty"`
	Clients  int      `msgpack:"clients"`
	// HookSettings is the relay's --settings file there (its hooks come
	// over the relay); :ClaudeOpen remote=NAME passes it.
	HookSettings string `msgpack:"hook_settings,omitempty"`
	// MCPConfig is the relay's --mcp-config file there, which a chat's CLI there gets
	// (:Claude chat remote=NAME): the editor's tools, through the relay.
	MCPConfig string `msgpack:"mcp_config,omitempty"`
}

// RemoteChanged tells lua/claude/remote.lua a remote's new state.
func (e *Editor) RemoteChanged(ctx context.Context, r RemoteState) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').update_remote(...)`, r); err != nil {
		return luaError(err)
	}
	return nil
}

// RemoteMessage tells the user something about a remote (a path refused
// by its map) as a warning.
func (e *Editor) RemoteMessage(ctx context.Context, msg string) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').remote_message(...)`, msg); err != nil {
		return luaError(err)
	}
	return nil
}
