package kernels

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/jupyter"
	"github.com/claude-nvim/claude.nvim/mcp"
)

// DefaultTimeout is how long one run may take before it is interrupted.
const DefaultTimeout = 5 * time.Minute

// Decision is the user's answer to one proposed run.
type Decision struct {
	// Notebook is the notebook the code is for (the current buffer's, or
	// the last used one's); empty when no notebook is open: nothing was
	// shown and nothing runs.
	Notebook string
	Allowed  bool
	Code     string // what to run: the proposal as the user left it
	// Connection is the connection file of a kernel another plugin
	// (molten.nvim) holds for the notebook; empty: we start our own.
	Connection string
}

// Confirmer shows the model's code to the user and waits for the answer
// (nvimapi.Editor.ConfirmCode). ctx ends when the CLI gives up the call.
type Confirmer interface {
	ConfirmCode(ctx context.Context, code string) (Decision, error)
}

// Manager runs the model's code in one kernel per notebook. It implements
// mcp.CodeRunner.
type Manager struct {
	confirm Confirmer
	log     *slog.Logger

	mu      sync.Mutex
	python  string
	timeout time.Duration
	kernels map[string]*slot
	closed  bool
}

// slot holds a notebook's kernel. run is held while the kernel starts and
// while it runs, so a notebook's runs go one after another; mu guards k
// alone, so a shutdown can kill the kernel under a run.
type slot struct {
	run  sync.Mutex
	mu   sync.Mutex
	k    *jupyter.Kernel
	gone bool // shut down: a run still waiting must not start a new kernel
}

func (s *slot) kernel() *jupyter.Kernel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.k
}

// take removes and returns the kernel (to close it).
func (s *slot) take(gone bool) *jupyter.Kernel {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.k
	s.k = nil
	s.gone = s.gone || gone
	return k
}

var _ mcp.CodeRunner = (*Manager)(nil)

// New returns a Manager asking confirm before each run.
func New(confirm Confirmer, log *slog.Logger) *Manager {
	return &Manager{confirm: confirm, log: log, python: "python3", timeout: DefaultTimeout, kernels: map[string]*slot{}}
}

// Configure sets the interpreter that starts kernels and the time a run
// may take; kernels already running keep theirs.
func (m *Manager) Configure(python string, timeout time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if python != "" {
		m.python = python
	}
	if timeout > 0 {
		m.timeout = timeout
	}
}

// refusal is the isError answer the model gets when nothing ran.
func refusal(text string) *mcp.ToolResult {
	r := mcp.TextResult(text)
	r.IsError = true
	return r
}

// ExecuteCode asks the user, then runs the code in the notebook's kernel,
// starting one if needed.
func (m *Manager) ExecuteCode(ctx context.Context, code string) (*mcp.ToolResult, error) {
	d, err := m.confirm.ConfirmCode(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("show the code: %w", err)
	}
	if d.Notebook == "" {
		return refusal("No Jupyter notebook is open in the editor (a .ipynb file or a jupytext-paired script): " +
			"the code was not run. Ask the user to open the notebook first."), nil
	}
	if !d.Allowed {
		return refusal("The user declined to run this code; it was not run."), nil
	}
	key := d.Notebook
	if d.Connection != "" {
		key = "attached:" + d.Connection // the notebook's kernel is molten's, not ours
	}
	s, err := m.slot(key)
	if err != nil {
		return refusal(err.Error()), nil
	}
	s.run.Lock()
	defer s.run.Unlock()
	m.mu.Lock()
	python, timeout := m.python, m.timeout
	m.mu.Unlock()
	k := s.kernel()
	if k == nil {
		var why string
		if k, why = m.open(ctx, d, python); k == nil {
			return refusal(why), nil
		}
		s.mu.Lock()
		gone := s.gone
		s.k = k
		s.mu.Unlock()
		if gone { // the notebook closed while the kernel started
			s.take(true)
			k.Close()
			return refusal("The notebook was closed; the code was not run."), nil
		}
		m.log.Info("kernel ready", "notebook", d.Notebook, "attached", d.Connection)
	}
	res, err := k.Execute(ctx, d.Code, timeout)
	if errors.Is(err, jupyter.ErrDied) {
		if s.take(false) == k {
			k.Close()
		}
		return shape(res, "The kernel died while running this code ("+err.Error()+
			"). Its state (variables, imports) is lost; the next call starts or reaches a new one.", true), nil
	}
	if err != nil {
		return shape(res, "The run did not finish: "+err.Error(), true), nil
	}
	note := ""
	if res.Aborted {
		return shape(res, "The kernel did not run this code: it aborted the request because a run before it "+
			"failed (another client's, e.g. a notebook cell). Nothing ran; calling again runs it.", true), nil
	}
	if res.Interrupted {
		note = fmt.Sprintf("The run was interrupted after %s (the time limit); the kernel and its state remain.", timeout)
	}
	return shape(res, note, res.Error || res.Interrupted), nil
}

// open attaches to the kernel another plugin holds for the notebook, or
// starts one; without a kernel it says why, for the model.
func (m *Manager) open(ctx context.Context, d Decision, python string) (*jupyter.Kernel, string) {
	if d.Connection != "" {
		k, err := jupyter.Attach(ctx, d.Connection)
		if err != nil {
			return nil, fmt.Sprintf("Could not reach the notebook's kernel: %v. The code was not run.", err)
		}
		return k, ""
	}
	k, err := jupyter.Start(ctx, jupyter.Options{Python: python, Dir: filepath.Dir(d.Notebook),
		Env: []string{"JPY_PARENT_PID=" + strconv.Itoa(os.Getpid())}}) // the kernel ends with us
	if err != nil {
		return nil, fmt.Sprintf("Could not start a Jupyter kernel with %s (is ipykernel installed? "+
			"`%s -m pip install ipykernel`, or Debian's python3-ipykernel): %v. The code was not run.", python, python, err)
	}
	return k, ""
}

// shape turns a run's outputs into the tool's answer: the text (with a
// note where it was cut), then the images.
func shape(res *jupyter.Result, note string, isError bool) *mcp.ToolResult {
	r := &mcp.ToolResult{IsError: isError, Content: []mcp.Content{}}
	text := res.Text
	if res.Cut > 0 {
		// First: the CLI keeps a long result in a file and shows the model
		// its head, where the note must be.
		text = fmt.Sprintf("[output cut: the first %d KiB of %d bytes shown]\n", jupyter.MaxText>>10, len(res.Text)+res.Cut) + text
	}
	if res.CutImages > 0 {
		text += fmt.Sprintf("\n[%d more images not shown]\n", res.CutImages)
	}
	if note != "" {
		text += "\n" + note
	}
	if text != "" || len(res.Images) == 0 {
		r.Content = append(r.Content, mcp.Content{Type: "text", Text: text})
	}
	for _, im := range res.Images {
		r.Content = append(r.Content, mcp.Content{Type: "image", Data: im.Data, MimeType: im.MimeType})
	}
	return r
}

func (m *Manager) slot(notebook string) (*slot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("the editor is shutting down; the code was not run")
	}
	s := m.kernels[notebook]
	if s == nil {
		s = &slot{}
		m.kernels[notebook] = s
	}
	return s, nil
}

// CloseNotebook shuts down the kernel of a notebook (its buffer went).
func (m *Manager) CloseNotebook(notebook string) {
	m.mu.Lock()
	s := m.kernels[notebook]
	delete(m.kernels, notebook)
	m.mu.Unlock()
	if s != nil {
		go s.shutdown() // a run may hold the slot; never block the caller
	}
}

// Running lists the notebooks with a kernel (for :checkhealth).
func (m *Manager) Running() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for nb, s := range m.kernels {
		if s.kernel() != nil {
			out = append(out, nb)
		}
	}
	return out
}

// Close kills every kernel (Neovim exits: there is no time for a polite
// shutdown, and their state goes with the editor) and refuses later runs.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	slots := m.kernels
	m.kernels = map[string]*slot{}
	m.mu.Unlock()
	for _, s := range slots {
		if k := s.take(true); k != nil {
			k.Kill()
		}
	}
}

// shutdown closes the kernel; a run in progress reports that it died.
func (s *slot) shutdown() {
	if k := s.take(true); k != nil {
		k.Close()
	}
}
