package chat

import (
	"path/filepath"
	"strings"
)

// Remote runs the CLI on another machine or in a container (issue 41,
// :ClaudeChat remote=NAME): through Transport, a command that runs a
// program there with its stdio piped here (ssh -T HOST, docker exec -i
// CONTAINER, kubectl exec -i …). Stream-json, the permission prompt
// (stdio) and the hooks (registered over the control channel) all travel
// on the CLI's stdin and stdout, so the transport's pipe carries the
// whole conversation; only --mcp-config names something on that side.
type Remote struct {
	// Transport is the command line before the program it runs there.
	Transport []string
	// Claude is the CLI's command there; empty means "claude".
	Claude []string
	// Dir is the CLI's working directory there (the workspace mapped).
	Dir string
	// Env are KEY=VALUE set for the CLI there (the transport's own
	// environment is Options.Env).
	Env []string
}

// command is the transport's command line running claude with args in
// Dir there: sh -c 'cd DIR && exec env K=V… CLAUDE ARGS'. ssh hands its
// remote command to the remote shell as one string, so for ssh the sh
// words are quoted into one; other transports take them as they are.
func (r *Remote) command(args []string) (string, []string) {
	claude := r.Claude
	if len(claude) == 0 {
		claude = []string{"claude"}
	}
	words := []string{"exec"}
	if len(r.Env) > 0 {
		words = append(words, "env")
		for _, kv := range r.Env {
			words = append(words, shellQuote(kv))
		}
	}
	for _, w := range append(append([]string(nil), claude...), args...) {
		words = append(words, shellQuote(w))
	}
	script := "cd " + shellQuote(r.Dir) + " && " + strings.Join(words, " ")
	argv := append([]string(nil), r.Transport[1:]...)
	if filepath.Base(r.Transport[0]) == "ssh" {
		argv = append(argv, "sh -c "+shellQuote(script))
	} else {
		argv = append(argv, "sh", "-c", script)
	}
	return r.Transport[0], argv
}

// shellQuote is s as one word of sh: in single quotes, each ' spelt '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
