package host

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// startHungServer attaches to path's buffer a language server, in Neovim's process, that
// answers initialize and then nothing: a hung server, with no process to clean up.
func startHungServer(t testing.TB, nv *nvimtest.Nvim, path string) {
	t.Helper()
	nv.Lua(nil, `
		local path = ...
		local function hung(dispatchers)
			local closing, id = false, 0
			return {
				request = function(method, params, callback)
					id = id + 1
					if method == 'initialize' then
						vim.schedule(function()
							callback(nil, { capabilities = { referencesProvider = true, definitionProvider = true, hoverProvider = true } })
						end)
					elseif method == 'shutdown' then
						vim.schedule(function() callback(nil, vim.NIL) end)
					end
					return true, id
				end,
				notify = function(method)
					if method == 'exit' then dispatchers.on_exit(0, 15) end
					return true
				end,
				is_closing = function() return closing end,
				terminate = function() closing = true end,
			}
		end
		local buf = vim.fn.bufadd(path)
		vim.fn.bufload(buf)
		vim.lsp.start({ name = 'hung', cmd = hung, root_dir = vim.fn.getcwd() }, { bufnr = buf })`, path)
}

// A server that never answers costs the model its question's timeout, and the editor
// nothing: it answers while the question is out.
func TestAHungServerCostsATimeoutAnswerAndTheEditorGoesOn(t *testing.T) {
	e := newEnv(t)
	const timeout = 10 * time.Second
	e.host.editor.SetLSPTimeout(timeout)
	path := e.nv.WriteFile("stuck.txt", "Greet here\n")
	startHungServer(t, e.nv, path)
	m, err := e.host.chatMCPEndpoint(chatTools)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		text  string
		isErr bool
	}
	done := make(chan result, 1)
	go func() {
		text, isErr := callEndpoint(t, m, "lsp_references", map[string]any{"path": path, "line": 1, "symbol": "Greet"})
		done <- result{text, isErr}
	}()
	// The editor answers while the server does not (the question is out for 10 s).
	var n int
	e.nv.Lua(&n, `return vim.fn.line('$')`)
	select {
	case r := <-done:
		t.Fatalf("the question was answered before the editor was asked anything: %q", r.text)
	default:
	}
	r := <-done
	want := "References of `Greet` at " + path + ":1:1: none found, from hung.\n\nNot answered: hung gave no answer within 10 s."
	if r.isErr || r.text != want {
		t.Errorf("the model got %q (error %v), want %q", r.text, r.isErr, want)
	}
}

// The editor keeps answering while 20 questions wait for the language server: the
// benchmark reports the longest time it did not (a probe asks it for a trivial value every
// millisecond), with gopls answering and with a server that never does (each question then
// runs into its timeout, 1 s here).
func BenchmarkLSPReferencesStall(b *testing.B) {
	const lookups = 20
	for _, server := range []string{"gopls", "hung"} {
		b.Run(server, func(b *testing.B) {
			var l *lspEnv
			path := ""
			if server == "gopls" {
				l = newLSPEnv(b)
				path = l.files["greet.go"]
			} else {
				e := newEnv(b)
				e.host.editor.SetLSPTimeout(time.Second)
				path = e.nv.WriteFile("stuck.txt", "Greet here\n")
				startHungServer(b, e.nv, path)
				m, err := e.host.chatMCPEndpoint(chatTools)
				if err != nil {
					b.Fatal(err)
				}
				l = &lspEnv{env: e, mcp: m}
			}
			line := map[string]int{"gopls": 4, "hung": 1}[server]
			var stalls, totals []time.Duration
			b.ResetTimer()
			for range b.N {
				stop := stallProbe(l.nv.Eval)
				start := time.Now()
				var wg sync.WaitGroup
				for range lookups {
					wg.Add(1)
					go func() {
						defer wg.Done()
						text, isErr := callEndpoint(b, l.mcp, "lsp_references", map[string]any{"path": path, "line": line, "symbol": "Greet"})
						if isErr || !strings.HasPrefix(text, "References of `Greet`") {
							b.Errorf("a lookup answered %q (error %v)", text, isErr)
						}
					}()
				}
				wg.Wait()
				totals = append(totals, time.Since(start))
				stalls = append(stalls, stop())
			}
			nvimtest.ReportQuantiles(b, stalls, "stall")
			nvimtest.ReportQuantiles(b, totals, "20-lookups")
		})
	}
}
