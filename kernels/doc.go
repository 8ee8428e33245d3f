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
// Not done: using a kernel another plugin holds (molten.nvim). molten keeps
// its kernels in its own Python host and gives no API to run code and get
// the outputs back; its running kernels are named by kernel spec, not by a
// connection file we could connect to. A notebook run with molten gets a
// second kernel from us, which the help says.
package kernels
