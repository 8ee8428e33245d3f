// Package jupyter starts an IPython kernel and runs code in it, speaking
// the Jupyter messaging protocol (5.3) over ZeroMQ. It serves executeCode
// (package kernels) and knows nothing of Neovim or MCP.
//
// # Why our own ZMTP
//
// Jupyter kernels talk ZeroMQ. Go's standard library has none, and the
// plugin is a static binary built with cgo off, so libzmq is out. The
// choices were a pure-Go ZeroMQ (github.com/go-zeromq/zmq4: a full socket
// library with its own dependencies, for the three sockets we use), a
// Python bridge script run with the user's python3 and jupyter_client
// (a second process and a second language in the path of every output),
// or the client half of ZMTP 3.0 ourselves. We took the last: it is the
// greeting, a READY command and length-prefixed frames (zmtp.go, about 200
// lines), because a kernel on 127.0.0.1 needs exactly this much:
//   - the NULL security mechanism only (what kernels use; the messages
//     themselves are signed with HMAC-SHA256 and the key, wire.go);
//   - one peer per connection, no reconnection: a kernel that goes away
//     is dead to us, and its process exiting says so first;
//   - DEALER to the shell and control ROUTERs, SUB to iopub (greeting as
//     3.0, so the kernel's PUB takes our subscription as a message). The
//     stdin and heartbeat channels are not used: input() is refused
//     (allow_stdin false) and the process itself tells us it died.
//
// # Decisions
//   - The kernel is `python3 -m ipykernel_launcher -f FILE` with FILE (0600)
//     in a new 0700 directory, every port on 127.0.0.1, a random key, and
//     PYTHONSAFEPATH=1 so `-m` does not import a module of that name from
//     the working directory (the workspace). It runs in its own process
//     group, with JPY_PARENT_PID so it exits when the host dies.
//   - A SUB connection sees nothing until the kernel took its subscription,
//     so Start asks kernel_info until an iopub status answers it.
//   - Execute collects stream, execute_result and display_data (text/plain,
//     image/png) and error (traceback without ANSI codes) until the kernel
//     is idle; text past MaxText is counted, not kept; a 10 MiB output is
//     still read to the end so the kernel never blocks on us.
//   - Requests go with stop_on_error false: a failed run must not abort
//     what is queued behind it (another client's runs, on a shared kernel).
//     A request the kernel aborted anyway is marked Aborted.
//   - On timeout the kernel gets SIGINT (ipykernel's default interrupt
//     mode), again every 2 s, and the call returns when it is idle, marked
//     Interrupted. A kernel we attached to (Attach, molten.nvim's) gets one
//     interrupt_request on its control channel instead: a second one could
//     land in the next run.
//   - The process exiting ends a call with ErrDied, its exit status and the
//     tail of its stderr.
package jupyter
