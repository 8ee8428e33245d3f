package kernels

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// answers stands in for the user: the editor side (nvimapi) has its own
// tests through Neovim and the e2e suite; here the decisions are scripted.
type answers struct {
	notebook string
	allow    bool
	edit     func(string) string
	asked    []string
}

func (a *answers) ConfirmCode(_ context.Context, code string) (Decision, error) {
	a.asked = append(a.asked, code)
	if a.edit != nil {
		code = a.edit(code)
	}
	return Decision{Notebook: a.notebook, Allowed: a.allow, Code: code}, nil
}

func python(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("JUPYTER_PYTHON"), "python3", "/usr/bin/python3"} {
		if p != "" && exec.Command(p, "-c", "import ipykernel").Run() == nil {
			return p
		}
	}
	t.Skip("no python3 with ipykernel (apt-get install python3-ipykernel)")
	return ""
}

func text(r *mcp.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func newManager(t *testing.T, a *answers) *Manager {
	t.Helper()
	m := New(a, slog.New(slog.DiscardHandler))
	m.Configure(python(t), 0)
	t.Cleanup(m.Close)
	return m
}

func run(t *testing.T, m *Manager, code string) *mcp.ToolResult {
	t.Helper()
	r, err := m.ExecuteCode(context.Background(), code)
	if err != nil {
		t.Fatalf("ExecuteCode(%q): %v", code, err)
	}
	return r
}

func TestAllowedRunsKeepStateInTheNotebooksKernel(t *testing.T) {
	dir := t.TempDir()
	a := &answers{notebook: filepath.Join(dir, "n.ipynb"), allow: true}
	m := newManager(t, a)
	if r := run(t, m, "x = 21\nimport os\nprint(os.getcwd())"); r.IsError || strings.TrimSpace(text(r)) != dir {
		t.Errorf("first run: got %q (error %v), want the notebook's directory as cwd", text(r), r.IsError)
	}
	if r := run(t, m, "print(x * 2)"); r.IsError || text(r) != "42\n" {
		t.Errorf("second run: got %q (error %v), want 42 from the first run's x", text(r), r.IsError)
	}
	a.edit = func(string) string { return "print('edited')" }
	if r := run(t, m, "print('proposed')"); text(r) != "edited\n" {
		t.Errorf("the user's edit: got %q, want the edited code run", text(r))
	}
	m.CloseNotebook(a.notebook)
	a.edit = nil
	if r := run(t, m, "print('x' in globals())"); text(r) != "False\n" {
		t.Errorf("after the notebook closed: got %q, want a new kernel without x", text(r))
	}
}

func TestNothingRunsWithoutYesOrANotebook(t *testing.T) {
	for _, tt := range []struct {
		name     string
		notebook bool
		allow    bool
		want     string
	}{
		{"refused", true, false, "declined"},
		{"no notebook open", false, true, "No Jupyter notebook"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "ran")
			code := "open(" + `"` + marker + `"` + ", 'w')"
			a := &answers{allow: tt.allow}
			if tt.notebook {
				a.notebook = filepath.Join(dir, "n.ipynb")
			}
			m := newManager(t, a)
			r := run(t, m, code)
			if !r.IsError || !strings.Contains(text(r), tt.want) {
				t.Errorf("got %q (error %v), want an error with %q", text(r), r.IsError, tt.want)
			}
			if len(m.Running()) != 0 {
				t.Errorf("a kernel started: %v", m.Running())
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("the code ran")
			}
		})
	}
}

func TestADeadKernelIsReportedAndReplaced(t *testing.T) {
	a := &answers{notebook: filepath.Join(t.TempDir(), "n.ipynb"), allow: true}
	m := newManager(t, a)
	run(t, m, "x = 1")
	r := run(t, m, "import os\nos._exit(5)")
	if !r.IsError || !strings.Contains(text(r), "kernel died") || !strings.Contains(text(r), "exit status 5") {
		t.Errorf("os._exit: got %q (error %v), want the death reported", text(r), r.IsError)
	}
	if r := run(t, m, "print('x' in globals())"); r.IsError || text(r) != "False\n" {
		t.Errorf("the next run: got %q (error %v), want a fresh kernel", text(r), r.IsError)
	}
}
