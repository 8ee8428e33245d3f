package host

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The WebSocket variant's direct methods (issue 38) against a real Neovim and real files,
// over the server :Claude server start starts, as a client of that variant calls them.

// callDirect calls a direct method and returns its result, or the JSON-RPC error.
func callDirect(t *testing.T, c *mcptest.Client, method string, params any) (json.RawMessage, *mcptest.RPCError) {
	t.Helper()
	raw, err := c.Call(method, params)
	var rpcErr *mcptest.RPCError
	if errors.As(err, &rpcErr) {
		return nil, rpcErr
	}
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return raw, nil
}

func TestVariantReadFile(t *testing.T) {
	e := newEnv(t)
	e.nv.WriteFile("a.txt", "on disk\n")
	unsaved := e.nv.WriteFile("unsaved.txt", "saved text\n")
	outside := filepath.Join(e.nv.Dir, "home", "secret.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.nv.Cwd, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(e.nv.Cwd, "link-in")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(e.nv.Cwd, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := e.connect()
	e.nv.Cmd("edit " + unsaved)
	e.nv.Cmd("call setline(1, 'typed, not saved')")
	// The file the link out leads to, open with unsaved text: Neovim finds buffers
	// through links, and this one must not be reached.
	e.nv.Cmd("edit " + outside)
	e.nv.Cmd("call setline(1, 'secret, unsaved')")

	tests := []struct {
		name, path string
		want       string
		code       int // 0: want is the result
		msg        string
	}{
		{"a file on disk, by a relative path", "a.txt", "on disk\n", 0, ""},
		{"a file on disk, by its absolute path", filepath.Join(e.nv.Cwd, "a.txt"), "on disk\n", 0, ""},
		{"through a link that stays inside", "link-in", "on disk\n", 0, ""},
		{"a buffer's unsaved text", "unsaved.txt", "typed, not saved\n", 0, ""},
		{"not a path outside the workspace", outside, "", -32602, "outside the workspace"},
		{"not out by dot-dot", "../home/secret.txt", "", -32602, "outside the workspace"},
		{"not through a link out, though its file is open", "link-out", "", -32602, "leads out"},
		{"not a FIFO, and without waiting for a writer", "fifo", "", -32602, "not a regular file"},
		{"not a directory", ".", "", -32602, "not a regular file"},
		{"a missing file is a failure to read", "nope.txt", "", -32603, "failed to read file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, rpcErr := callDirect(t, c, "readFile", map[string]any{"path": tt.path})
			if tt.code != 0 {
				if rpcErr == nil || rpcErr.Code != tt.code || !strings.Contains(rpcErr.Message, tt.msg) {
					t.Errorf("readFile %q = %s, %v; want error %d containing %q", tt.path, raw, rpcErr, tt.code, tt.msg)
				}
				return
			}
			var got string
			if rpcErr != nil || json.Unmarshal(raw, &got) != nil || got != tt.want {
				t.Errorf("readFile %q = %s, %v; want %q", tt.path, raw, rpcErr, tt.want)
			}
		})
	}
	if got := readFile(t, unsaved); got != "saved text\n" {
		t.Errorf("unsaved.txt on disk = %q: reading it must not save it", got)
	}
}

func TestVariantWriteFileAsksTheUserAndNeverWrites(t *testing.T) {
	tests := []struct {
		name     string
		decide   string
		decision string
	}{
		{"accepted", "ClaudeDiffAccept", "accepted"},
		{"rejected", "ClaudeDiffDeny", "rejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, "")
			p, err := d.c.Start("writeFile", map[string]any{"path": "greet.txt", "content": proposed})
			if err != nil {
				t.Fatal(err)
			}
			ev := nvimtest.Next(t, d.opened, "ClaudeDiffOpened for writeFile", waitTimeout)
			if !strings.Contains(ev["tab_name"].(string), "greet.txt") {
				t.Errorf("the review opened as %v", ev)
			}
			d.nv.Cmd(tt.decide)
			raw, err := p.Wait()
			if err != nil {
				t.Fatalf("writeFile: %v", err)
			}
			var got struct {
				Path     string  `json:"path"`
				Decision string  `json:"decision"`
				Content  *string `json:"content"`
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.Path != d.path || got.Decision != tt.decision {
				t.Errorf("writeFile answered %s, want %s for %s", raw, tt.decision, d.path)
			}
			if tt.decision == "accepted" && (got.Content == nil || *got.Content != proposed) {
				t.Errorf("accepted writeFile answered %s, want the content %q", raw, proposed)
			}
			if tt.decision == "rejected" && got.Content != nil {
				t.Errorf("rejected writeFile answered content: %s", raw)
			}
			d.assertUntouched(d.path, original)
		})
	}

	t.Run("outside the workspace it opens nothing", func(t *testing.T) {
		d := newDiffEnv(t, "")
		outside := filepath.Join(d.nv.Dir, "home", "x.txt")
		_, rpcErr := callDirect(t, d.c, "writeFile", map[string]any{"path": outside, "content": "x"})
		if rpcErr == nil || rpcErr.Code != -32602 || !strings.Contains(rpcErr.Message, "outside the workspace") {
			t.Errorf("writeFile outside = %v, want -32602 outside the workspace", rpcErr)
		}
		if v, _, _ := d.viewState(); v != 0 {
			t.Errorf("%d diff views opened for a path outside the workspace", v)
		}
		if _, err := os.Stat(outside); err == nil {
			t.Error("the file outside was created")
		}
	})
}

func TestVariantListsAndDescribesTheWorkspace(t *testing.T) {
	e := newEnv(t)
	for name, content := range map[string]string{
		".gitignore": "build/\n", "main.go": "package main\n", "pkg/a.go": "package pkg\n",
		"build/out.bin": "x", "notes.md": "",
	} {
		e.nv.WriteFile(name, content)
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = e.nv.Cwd
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	outside := filepath.Join(e.nv.Dir, "home", "elsewhere.txt")
	if err := os.WriteFile(outside, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := e.connect()

	list := func(params any) []string {
		t.Helper()
		raw, rpcErr := callDirect(t, c, "listFiles", params)
		var files []string
		if rpcErr != nil || json.Unmarshal(raw, &files) != nil {
			t.Fatalf("listFiles %v = %s, %v", params, raw, rpcErr)
		}
		return files
	}
	if got, want := list(nil), []string{".gitignore", "main.go", "notes.md", "pkg/a.go"}; !slices.Equal(got, want) {
		t.Errorf("listFiles = %q, want %q (build/ is ignored)", got, want)
	}
	if got, want := list(map[string]any{"pattern": "*.go"}), []string{"main.go", "pkg/a.go"}; !slices.Equal(got, want) {
		t.Errorf("listFiles *.go = %q, want %q", got, want)
	}
	if _, rpcErr := callDirect(t, c, "listFiles", map[string]any{"pattern": "[x"}); rpcErr == nil || rpcErr.Code != -32602 {
		t.Errorf("listFiles with a bad pattern = %v, want -32602", rpcErr)
	}

	raw, rpcErr := callDirect(t, c, "getWorkspaceInfo", nil)
	var info struct {
		Name      string   `json:"name"`
		Path      string   `json:"path"`
		FileCount int      `json:"fileCount"`
		Type      string   `json:"type"`
		Folders   []string `json:"folders"`
	}
	if rpcErr != nil || json.Unmarshal(raw, &info) != nil {
		t.Fatalf("getWorkspaceInfo = %s, %v", raw, rpcErr)
	}
	if info.Path != e.nv.Cwd || info.Name != "work" || info.FileCount != 4 || info.Type != "git" || !slices.Contains(info.Folders, e.nv.Cwd) {
		t.Errorf("getWorkspaceInfo = %s, want %s named work with 4 files, type git", raw, e.nv.Cwd)
	}

	e.nv.Cmd("edit " + outside)
	e.nv.Cmd("edit " + filepath.Join(e.nv.Cwd, "notes.md"))
	e.nv.Cmd("edit " + filepath.Join(e.nv.Cwd, "main.go"))
	raw, rpcErr = callDirect(t, c, "getOpenFiles", nil)
	var open []string
	if rpcErr != nil || json.Unmarshal(raw, &open) != nil {
		t.Fatalf("getOpenFiles = %s, %v", raw, rpcErr)
	}
	if want := []string{"main.go", "notes.md"}; !slices.Equal(open, want) {
		t.Errorf("getOpenFiles = %q, want %q: the active first, nothing outside the workspace", open, want)
	}
	raw, _ = callDirect(t, c, "getCurrentFile", nil)
	if string(raw) != `"main.go"` {
		t.Errorf("getCurrentFile = %s, want \"main.go\"", raw)
	}
	e.nv.Cmd("edit " + outside)
	raw, _ = callDirect(t, c, "getCurrentFile", nil)
	if string(raw) != "null" {
		t.Errorf("getCurrentFile with a file outside the workspace active = %s, want null", raw)
	}
}

func TestVariantMethodsNeedTheToken(t *testing.T) {
	e := newEnv(t)
	port, _ := e.start()
	for _, tok := range []string{"", "not-the-token"} {
		h := http.Header{}
		if tok != "" {
			h.Set(mcptest.TokenHeader, tok)
		}
		ws, resp, err := mcptest.DialConn("ws://127.0.0.1:"+itoa(port), h)
		if err == nil {
			ws.Close()
			t.Fatalf("a connection with token %q was accepted", tok)
		}
		if resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("token %q: %v, %v; want 401 before any method is read", tok, resp, err)
		}
	}
}
