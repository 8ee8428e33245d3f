package nvimapi

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The counters of lua/claude/generation.lua's shared page, one per kind of
// editor state. Neovim bumps a counter synchronously inside every change of
// its kind (an autocmd or on_lines callback), before anyone outside Neovim
// can see the change; Go reads the counters without a round trip.
const (
	genBuffers = iota // buffer list, names, options, 'modified', line counts, windows
	genDirs           // working directories, current window and tab page
	genSlots
)

// gens are the counters at one moment.
type gens [genSlots]float64

// generations is this process's view of the shared page: mapped on the
// first cheap tool call, never before (an idle host maps nothing).
type generations struct {
	mu    sync.Mutex
	state genState
	mem   []byte // the mapped page, read only; nil until mapped
	pid   int    // Neovim's, from the mapping: where processCwd looks
}

type genState int

const (
	genUntried genState = iota
	genMapping          // one caller is mapping; the others ask Neovim meanwhile
	genMapped
	genUnavailable // no shared memory here (no FFI, no mmap): always ask Neovim
)

// now returns the current counters, or false when they are not mapped
// (yet, or on this system at all): the caller must then ask Neovim. The
// first call maps the page, with one round trip.
func (e *Editor) gensNow(ctx context.Context) (gens, bool) {
	g := &e.gens
	g.mu.Lock()
	switch g.state {
	case genMapped:
		mem := g.mem
		g.mu.Unlock()
		return loadGens(mem), true
	case genUntried:
		g.state = genMapping
		g.mu.Unlock()
		// Not under g.mu: mapping calls into Neovim.
		mem, pid, err := e.mapGenerations(ctx)
		g.mu.Lock()
		if err != nil {
			g.state = genUnavailable
			if ctx.Err() != nil {
				g.state = genUntried // cancelled, not refused: try again next time
			}
		} else {
			g.state, g.mem, g.pid = genMapped, mem, pid
		}
		g.mu.Unlock()
		return gens{}, false
	default:
		g.mu.Unlock()
		return gens{}, false
	}
}

// loadGens reads the counters: atomic 8-byte loads of the doubles Neovim
// stores whole, so none is ever half written.
func loadGens(mem []byte) gens {
	var g gens
	for i := range g {
		bits := atomic.LoadUint64((*uint64)(unsafe.Pointer(&mem[i*8])))
		g[i] = math.Float64frombits(bits)
	}
	return g
}

// mapLua asks lua/claude/generation.lua to map the page at path, and
// returns Neovim's pid.
func (e *Editor) mapLua(ctx context.Context, path string) (int, error) {
	var r struct {
		OK  bool   `msgpack:"ok"`
		Why string `msgpack:"why"`
		PID int    `msgpack:"pid"`
	}
	if err := e.lua(ctx, &r, `return require('claude.handlers').map_generation_page(...)`, path); err != nil {
		return 0, luaError(err)
	}
	if !r.OK {
		return 0, &genError{r.Why}
	}
	return r.PID, nil
}

// nvimCwd is Neovim's process working directory now, read from the
// kernel without a round trip, or "" when it cannot be known here. The
// global directory getWorkspaceFolders lists is that of the process, which
// anything can change without an event Neovim runs (vim.uv.chdir, a chdir
// through FFI): the counters cannot see it, this can.
func (e *Editor) nvimCwd() string {
	e.gens.mu.Lock()
	pid := e.gens.pid
	e.gens.mu.Unlock()
	if pid <= 0 {
		return ""
	}
	return processCwd(pid)
}

type genError struct{ why string }

func (e *genError) Error() string { return "shared generation counters: " + e.why }

// folderState is getWorkspaceFolders' last answer and Neovim's process
// working directory before it was read ("" when unknown: never served).
type folderState struct {
	dirs []string
	cwd  string
}

// cached is one tool's last answer from Neovim and the counters it was read
// at. It is served only while every counter it depends on is unchanged: any
// change since then bumped one of them before it could be observed.
type cached[T any] struct {
	mu    sync.Mutex
	valid bool
	at    gens
	val   T
}

// get returns the value if the counters in slots still equal now.
func (c *cached[T]) get(now gens, slots ...int) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var zero T
	if !c.valid {
		return zero, false
	}
	for _, s := range slots {
		if c.at[s] != now[s] {
			return zero, false
		}
	}
	return c.val, true
}

// put records a value read at the counters at. A value read at older
// counters is as good as any (it is never served once they moved), so the
// last writer wins.
func (c *cached[T]) put(at gens, val T) {
	if at[0] < 0 { // Neovim had no page mapped when it answered
		return
	}
	c.mu.Lock()
	c.at, c.val, c.valid = at, val, true
	c.mu.Unlock()
}
