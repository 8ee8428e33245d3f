package chatctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/claude-nvim/claude.nvim/chat"
)

// A chat whose CLI runs on a remote's side (:ClaudeChat remote=NAME, issue
// 41): started through the remote's transport in the workspace's mapped
// directory there, it names files by their paths there. remoteProc sits
// between it and the controller, so that everything past it (the
// transcript, the edit reviews, the reloads, the hook bus and its ledger)
// sees the editor's paths, and what goes back to the CLI (an edit the user
// changed, a note about it, a message naming a file) names the remote's.
// A path outside the map is refused, never opened: an edit request naming
// one is denied with the reason, a tool use's is left out, a message
// naming one is not sent.

// PathMap maps the paths of a remote's side and the editor's, both ways
// (relay.Map); an error names a path outside the map.
type PathMap interface {
	ToLocal(remote string) (string, error)
	ToRemote(local string) (string, error)
}

// RemoteArgs are StartArgs.Remote: the remote's transport to run the CLI
// through (remotes.NAME.exec, else terminal) and its CLI there.
type RemoteArgs struct {
	Name      string   `msgpack:"name"`
	Transport []string `msgpack:"transport"`
	Claude    []string `msgpack:"claude"`
}

// RemoteChat is what the host knows of a connected remote for a chat CLI
// there: its map, the relay's --mcp-config file there ("" when it has
// none) and the arguments that let the CLI use those tools unasked.
type RemoteChat struct {
	Paths     PathMap
	MCPConfig string
	// Tools are the editor's tools the relay's MCP server offers there, as the CLI names
	// them (mcp__SERVER__TOOL), all allowed without asking; LSPTools those of them that are
	// the language-server tools, left out for a chat started with NoLSPTools.
	Tools, LSPTools []string
}

// args are the CLI's arguments for rc's tools: --allowedTools, and --disallowedTools for
// the language-server tools when noLSP (the relay's server lists them all).
func (rc RemoteChat) args(noLSP bool) []string {
	var allowed []string
	for _, t := range rc.Tools {
		if !noLSP || !slices.Contains(rc.LSPTools, t) {
			allowed = append(allowed, t)
		}
	}
	var args []string
	if len(allowed) > 0 {
		args = append(args, "--allowedTools="+strings.Join(allowed, ","))
	}
	if noLSP && len(rc.LSPTools) > 0 {
		args = append(args, "--disallowedTools="+strings.Join(rc.LSPTools, ","))
	}
	return args
}

// remoteStart is the chat.Remote for a's CLI on remote rc's side, and its
// --mcp-config there; the error is the user's to read (a folder outside
// the map).
func remoteStart(a StartArgs, rc RemoteChat) (*chat.Remote, string, error) {
	r := a.Remote
	if len(r.Transport) == 0 {
		return nil, "", fmt.Errorf("remote %s has no command to run Claude there: give it exec = { 'ssh', '-T', 'HOST' } (or terminal)", r.Name)
	}
	dir, err := rc.Paths.ToRemote(a.workdir())
	if err != nil {
		return nil, "", fmt.Errorf("%s is outside remote %s's map: :cd into one of its local directories first (%w)", a.workdir(), r.Name, err)
	}
	// What the plugin sets for the chat's CLI, not the editor's whole environment:
	// that side has its own.
	return &chat.Remote{Transport: r.Transport, Claude: r.Claude, Dir: dir, Env: []string{chat.FileCheckpointing + "=true"}}, rc.MCPConfig, nil
}

// remoteProc is a chat.Process on a remote's side with its paths mapped.
type remoteProc struct {
	*chat.Process
	paths PathMap
	name  string

	mu sync.Mutex
	// told are the paths of the edits asked about, editor's to remote's:
	// a note about the user's changes names the file as the CLI does.
	told map[string]string
}

func newRemoteProc(p *chat.Process, name string, paths PathMap) *remoteProc {
	return &remoteProc{Process: p, paths: paths, name: name, told: map[string]string{}}
}

// pathFields are the tool input members that name a file or directory.
var pathFields = []string{"file_path", "notebook_path", "path", "uri"}

// Next maps each event's paths to the editor's.
func (p *remoteProc) Next(ctx context.Context) ([]chat.Event, error) {
	evs, err := p.Process.Next(ctx)
	out := evs[:0:0]
	for _, ev := range evs {
		switch e := ev.(type) {
		case chat.ToolUse:
			e.Input, _ = p.localInput(e.Input)
			ev = e
		case chat.ToolResult:
			e.Content = p.localText(e.Content)
			ev = e
		case chat.PermissionRequest:
			in, outside := p.localInput(e.Input)
			if outside != "" {
				ev = p.refuse(e, outside)
				break
			}
			if local, remote := pathOf(in), pathOf(e.Input); local != "" {
				p.mu.Lock()
				p.told[local] = remote
				p.mu.Unlock()
			}
			e.Input = in
			ev = e
		}
		out = append(out, ev)
	}
	return out, err
}

// refuse denies a request naming a path outside the map, in the
// background (Next must not wait on the CLI), and says so.
func (p *remoteProc) refuse(e chat.PermissionRequest, outside string) chat.Event {
	why := fmt.Sprintf("%s is outside remote %s's map: the editor does not open it", outside, p.name)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		_ = p.Process.Deny(ctx, e.Ticket, "The editor refused this: "+strconv.Quote(outside)+" is outside the folders it shares with this machine.")
	}()
	return chat.Notice{Text: "refused a " + e.ToolName + " request: " + why, IsError: true}
}

// localText is a tool's result as the transcript shows it: the remote's
// directories of the map named as the editor's (a Read's numbered lines,
// "The file P has been updated", getDiagnostics' uris). Only the shown text:
// the CLI and the model keep theirs.
func (p *remoteProc) localText(s string) string {
	roots, ok := p.paths.(interface {
		RemoteRoots() []string
	})
	if !ok || !strings.Contains(s, "/") {
		return s
	}
	for _, root := range roots.RemoteRoots() {
		local, err := p.paths.ToLocal(root)
		if err != nil || root == "/" {
			continue
		}
		s = replacePrefix(s, root, local)
	}
	return s
}

// replacePrefix replaces root where it names that directory or a path in
// it (followed by '/' or by no path character).
func replacePrefix(s, root, local string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, root)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(root)
		next := byte(0)
		if end < len(s) {
			next = s[end]
		}
		b.WriteString(s[:i])
		if next == '/' || !(next == '-' || next == '_' || next == '.' || next >= '0' && next <= '9' || next >= 'A' && next <= 'Z' || next >= 'a' && next <= 'z') {
			b.WriteString(local)
		} else {
			b.WriteString(root)
		}
		s = s[end:]
	}
}

// localInput maps in's path members to the editor's; one outside the map
// (or relative, for the file members) is removed, and the first such is
// returned.
func (p *remoteProc) localInput(in json.RawMessage) (json.RawMessage, string) {
	return mapInput(in, p.paths.ToLocal)
}

func mapInput(in json.RawMessage, to func(string) (string, error)) (json.RawMessage, string) {
	var all map[string]json.RawMessage
	if len(in) == 0 || json.Unmarshal(in, &all) != nil {
		return in, ""
	}
	outside := ""
	changed := false
	for _, k := range pathFields {
		raw, ok := all[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			continue
		}
		if k == "uri" {
			// getDiagnostics': a file URI, or none.
			path, isFile := strings.CutPrefix(s, "file://")
			if !isFile {
				continue
			}
			if mapped, err := to(path); err == nil {
				all[k], _ = json.Marshal("file://" + mapped)
			} else {
				delete(all, k)
				if outside == "" {
					outside = path
				}
			}
			changed = true
			continue
		}
		if !filepath.IsAbs(s) {
			if k == "path" {
				continue // Grep's and Glob's, relative to the CLI's cwd: the same there
			}
		}
		mapped, err := to(s)
		if err != nil {
			delete(all, k)
			if outside == "" {
				outside = s
			}
		} else {
			all[k], _ = json.Marshal(mapped)
		}
		changed = true
	}
	if !changed {
		return in, outside
	}
	b, err := json.Marshal(all)
	if err != nil {
		return in, outside
	}
	return b, outside
}

func pathOf(in json.RawMessage) string {
	var v struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(in, &v)
	return v.FilePath
}

// Allow gives the CLI the user's version of an edit under its own path.
func (p *remoteProc) Allow(ctx context.Context, ticket string, updatedInput json.RawMessage, suggestions ...int) error {
	if updatedInput != nil {
		in, outside := mapInput(updatedInput, p.paths.ToRemote)
		if outside != "" {
			return fmt.Errorf("%s is outside remote %s's map", outside, p.name)
		}
		updatedInput = in
	}
	return p.Process.Allow(ctx, ticket, updatedInput, suggestions...)
}

// Tell names the files of the edits asked about as the CLI does.
func (p *remoteProc) Tell(ctx context.Context, text string) error {
	p.mu.Lock()
	for local, remote := range p.told {
		text = strings.ReplaceAll(text, strconv.Quote(local), strconv.Quote(remote))
	}
	p.mu.Unlock()
	return p.Process.Tell(ctx, text)
}

// SendAs maps the absolute paths the message mentions (@/path); a message
// mentioning one outside the map is not sent.
func (p *remoteProc) SendAs(ctx context.Context, id, text string, images ...chat.Image) error {
	text, err := p.remoteMentions(text)
	if err != nil {
		return err
	}
	return p.Process.SendAs(ctx, id, text, images...)
}

// errOutsideMap is a mention the remote cannot read.
var errOutsideMap = errors.New("outside the remote's map: not sent")

func (p *remoteProc) remoteMentions(text string) (string, error) {
	var b strings.Builder
	rest := text
	for {
		i := strings.Index(rest, "@/")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		if i > 0 && !isSpace(rest[i-1]) {
			b.WriteString(rest[:i+2])
			rest = rest[i+2:]
			continue
		}
		b.WriteString(rest[:i+1])
		end := strings.IndexFunc(rest[i+1:], func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
		if end < 0 {
			end = len(rest) - i - 1
		}
		path := rest[i+1 : i+1+end]
		// A mention may end in a line range (#L3-5) or punctuation.
		file, suffix := path, ""
		if j := strings.IndexByte(path, '#'); j >= 0 {
			file, suffix = path[:j], path[j:]
		}
		remote, err := p.paths.ToRemote(file)
		if err != nil {
			return "", fmt.Errorf("@%s: %w %s", file, errOutsideMap, p.name)
		}
		b.WriteString(remote + suffix)
		rest = rest[i+1+end:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// remoteHookInput maps a hook event's paths (cwd, the tool input's) to the
// editor's; the transcript, a file there, is left out. A tool path outside
// the map is removed, as for the relay's hooks (host/remote_hooks.go).
func remoteHookInput(paths PathMap, input json.RawMessage) json.RawMessage {
	var all map[string]json.RawMessage
	if json.Unmarshal(input, &all) != nil {
		return input
	}
	delete(all, "transcript_path")
	var cwd string
	if json.Unmarshal(all["cwd"], &cwd) == nil && cwd != "" {
		if local, err := paths.ToLocal(cwd); err == nil {
			all["cwd"], _ = json.Marshal(local)
		} else {
			delete(all, "cwd")
		}
	}
	if ti, ok := all["tool_input"]; ok {
		all["tool_input"], _ = mapInput(ti, paths.ToLocal)
	}
	b, err := json.Marshal(all)
	if err != nil {
		return input
	}
	return b
}
