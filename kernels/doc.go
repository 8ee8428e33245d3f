// Package kernels runs the model's executeCode calls: it asks the user
// (a Confirmer: nvimapi shows the code in a scratch buffer), then runs the
// code in the Jupyter kernel of the notebook the user has open, one kernel
// per notebook, started on first use with the configured python3
// (package jupyter) and shut down when the notebook's buffer goes or Neovim
// exits. It implements mcp.CodeRunner.
//
// Nothing runs before the user says yes: the kernel itself starts only
// after the first run is allowed, since starting IPython imports modules
// and runs startup files from the notebook's directory.
//
// Answers: the output text (cut at 100 KiB with a note), then each plot as
// image content; an isError result when the user refused, no notebook is
// open, the kernel could not start, the code raised, the run was
// interrupted at its time limit, or the kernel died (its state is lost and
// the next call starts a new one).
//
// A kernel molten.nvim holds for the notebook is used when we can reach
// it: molten gives no API to run code and get the outputs back, but it
// names a kernel it reached through a connection file (`:MoltenInit
// path/kernel-N.json`, its way to share a kernel) by that path, which
// MoltenRunningKernels(v:true) lists; lua/claude/code.lua passes it as
// Decision.Connection and we attach (jupyter.Attach) without ever stopping
// it. A kernel molten started itself is named by its kernel spec
// ("python3") and its connection file is not exposed: the notebook then
// gets a kernel of ours. Tested against a stand-in for MoltenRunningKernels
// (molten needs pynvim and jupyter_client in Neovim's python host, which
// the test machine lacks).
package kernels
