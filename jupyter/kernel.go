package jupyter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Timing of a kernel's life; named so the choices are visible.
const (
	// startTimeout bounds a kernel's start: importing IPython on a slow
	// machine takes seconds, not minutes.
	startTimeout = 60 * time.Second
	// dialRetry is the pause between attempts to reach a kernel still
	// binding its ports.
	dialRetry = 50 * time.Millisecond
	// shutdownGrace is how long a kernel has to exit after
	// shutdown_request before its process group is killed.
	shutdownGrace = 3 * time.Second
)

// ErrDied is returned when the kernel's process exits during a call.
var ErrDied = errors.New("the kernel died")

// Options says how to start a kernel.
type Options struct {
	Python string   // the interpreter; "python3" when empty
	Dir    string   // the kernel's working directory (the notebook's)
	Env    []string // extra environment; the process's own otherwise
}

// Kernel is an ipykernel process this package started, and the three
// connections we keep to it. Execute calls run one at a time.
type Kernel struct {
	cmd     *exec.Cmd
	dir     string // private: the connection file
	sign    signer
	session string
	shell   *zconn
	control *zconn
	iopubZ  *zconn
	iopub   chan message // closed when the iopub connection ends
	replies chan message // shell replies; closed when shell ends
	dead    chan struct{}
	exitErr error  // set before dead closes
	file    string // the connection file
	ip      string // a loopback address: 127.0.0.1 for ours
	// attached: another program's kernel (Attach): we neither signal nor
	// stop it, and its connection ending is its death to us.
	attached bool
	deadOnce sync.Once

	run       sync.Mutex // one execute at a time
	closeOnce sync.Once
}

type connectionInfo struct {
	IP              string `json:"ip"`
	Transport       string `json:"transport"`
	ShellPort       int    `json:"shell_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	ControlPort     int    `json:"control_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name"`
}

// freePorts finds n ports free on 127.0.0.1. Another process may take
// one before the kernel binds it; the kernel then fails to start and
// says so, which the caller reports.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}

// Start runs `python3 -m ipykernel_launcher -f FILE` with a connection
// file in a private directory and connects to it.
func Start(ctx context.Context, o Options) (*Kernel, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	ports, err := freePorts(5)
	if err != nil {
		return nil, fmt.Errorf("start kernel: %w", err)
	}
	var key [32]byte
	_, _ = rand.Read(key[:])
	info := connectionInfo{IP: "127.0.0.1", Transport: "tcp", ShellPort: ports[0], IOPubPort: ports[1],
		StdinPort: ports[2], ControlPort: ports[3], HBPort: ports[4], Key: hex.EncodeToString(key[:]),
		SignatureScheme: "hmac-sha256"}
	dir, err := os.MkdirTemp("", "claude-nvim-kernel-")
	if err != nil {
		return nil, fmt.Errorf("start kernel: %w", err)
	}
	file := filepath.Join(dir, "kernel.json")
	b, _ := json.Marshal(info)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start kernel: %w", err)
	}
	python := o.Python
	if python == "" {
		python = "python3"
	}
	cmd := exec.Command(python, "-m", "ipykernel_launcher", "-f", file)
	cmd.Dir = o.Dir
	// PYTHONSAFEPATH keeps `-m` from importing an ipykernel_launcher.py
	// the working directory (the workspace) holds; older Pythons ignore it.
	cmd.Env = append(append(os.Environ(), o.Env...), "PYTHONSAFEPATH=1", "PYTHONUNBUFFERED=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start kernel %s: %w", python, err)
	}
	k := newKernel(info, file)
	k.cmd, k.dir = cmd, dir
	go func() {
		err := cmd.Wait()
		if tail := stderr.String(); tail != "" {
			err = fmt.Errorf("%v: %s", err, tail)
		}
		k.die(err)
	}()
	if err := k.connect(ctx, info); err != nil {
		k.Close()
		return nil, fmt.Errorf("start kernel: %w", err)
	}
	return k, nil
}

func newKernel(info connectionInfo, file string) *Kernel {
	return &Kernel{sign: signer{key: []byte(info.Key)}, session: newID(), file: file, ip: info.IP,
		iopub: make(chan message, 256), replies: make(chan message, 16), dead: make(chan struct{})}
}

// die records why the kernel is gone, once.
func (k *Kernel) die(err error) {
	k.deadOnce.Do(func() {
		k.exitErr = err
		close(k.dead)
	})
}

// ConnectionFile is the kernel's connection file.
func (k *Kernel) ConnectionFile() string { return k.file }

func (k *Kernel) dial(ctx context.Context, port int, socketType string) (*zconn, error) {
	addr := net.JoinHostPort(k.ip, strconv.Itoa(port))
	for {
		z, err := dialZMTP(ctx, addr, socketType)
		if err == nil {
			return z, nil
		}
		select {
		case <-k.dead:
			return nil, fmt.Errorf("%w while starting: %v", ErrDied, k.exitErr)
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to the kernel: %w (last: %v)", ctx.Err(), err)
		case <-time.After(dialRetry):
		}
	}
}

func (k *Kernel) connect(ctx context.Context, info connectionInfo) error {
	iopub, err := k.dial(ctx, info.IOPubPort, "SUB")
	if err != nil {
		return err
	}
	if err := iopub.send([][]byte{{1}}); err != nil { // subscribe to every topic
		iopub.Close()
		return err
	}
	if k.shell, err = k.dial(ctx, info.ShellPort, "DEALER"); err != nil {
		iopub.Close()
		return err
	}
	if k.control, err = k.dial(ctx, info.ControlPort, "DEALER"); err != nil {
		iopub.Close()
		k.shell.Close()
		return err
	}
	k.iopubZ = iopub
	go k.read(iopub, k.iopub)
	go func() {
		k.read(k.shell, k.replies)
		if k.attached { // no process of ours to tell us
			k.die(errors.New("its connection closed"))
		}
	}()
	go k.read(k.control, nil) // drain; we never wait on control replies
	return k.waitReady(ctx)
}

// read delivers the messages of one connection to out until it ends.
func (k *Kernel) read(z *zconn, out chan message) {
	if out != nil {
		defer close(out)
	}
	for {
		frames, err := z.recv()
		if err != nil {
			return
		}
		m, err := k.sign.decode(frames)
		if err != nil || out == nil {
			continue
		}
		select {
		case out <- m:
		case <-k.dead:
			return
		}
	}
}

// waitReady asks kernel_info until an iopub status answers it: a SUB
// connection receives nothing until the kernel has taken its subscription,
// so outputs of a first execute could otherwise be lost.
func (k *Kernel) waitReady(ctx context.Context) error {
	for {
		id, err := k.request(k.shell, "kernel_info_request", struct{}{})
		if err != nil {
			return err
		}
		retry := time.NewTimer(time.Second)
		for waiting := true; waiting; {
			select {
			case m, ok := <-k.iopub:
				if !ok {
					return fmt.Errorf("%w: iopub closed", ErrDied)
				}
				if m.Parent.MsgID == id {
					retry.Stop()
					return nil
				}
			case <-retry.C:
				waiting = false
			case <-k.dead:
				return fmt.Errorf("%w while starting: %v", ErrDied, k.exitErr)
			case <-ctx.Done():
				return fmt.Errorf("wait for the kernel: %w", ctx.Err())
			}
		}
	}
}

func (k *Kernel) request(z *zconn, msgType string, content any) (string, error) {
	id, frames, err := k.sign.encode(k.session, msgType, content)
	if err != nil {
		return "", err
	}
	if err := z.send(frames); err != nil {
		return "", fmt.Errorf("send %s: %w", msgType, err)
	}
	return id, nil
}

// Interrupt sends SIGINT to the kernel, as a terminal's Ctrl-C would:
// ipykernel's default interrupt mode is the signal. A kernel we did not
// start gets an interrupt_request on its control channel instead
// (ipykernel 6 answers it by signalling itself).
func (k *Kernel) Interrupt() error {
	if k.attached {
		_, err := k.request(k.control, "interrupt_request", struct{}{})
		return err
	}
	return k.cmd.Process.Signal(syscall.SIGINT)
}

// Dead is closed when the kernel's process has exited.
func (k *Kernel) Dead() <-chan struct{} { return k.dead }

// Close asks the kernel to shut down, kills its process group if it does
// not within shutdownGrace, and removes the connection file.
func (k *Kernel) Close() error { return k.shutdown(shutdownGrace) }

// Kill ends the kernel's process group at once (Neovim is exiting and
// gives us no time) and removes the connection file.
func (k *Kernel) Kill() error { return k.shutdown(0) }

func (k *Kernel) shutdown(grace time.Duration) error {
	if k.attached {
		k.closeOnce.Do(k.disconnect)
		return nil
	}
	k.closeOnce.Do(func() {
		if k.control != nil && grace > 0 {
			_, _ = k.request(k.control, "shutdown_request", map[string]bool{"restart": false})
			select {
			case <-k.dead:
			case <-time.After(grace):
			}
		}
		_ = syscall.Kill(-k.cmd.Process.Pid, syscall.SIGKILL)
		<-k.dead
		for _, z := range []*zconn{k.shell, k.control, k.iopubZ} {
			if z != nil {
				z.Close()
			}
		}
		os.RemoveAll(k.dir)
	})
	return nil
}

// tailBuffer keeps the last max bytes written: a kernel's stderr, for the
// message when it dies.
type tailBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
