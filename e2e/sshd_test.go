package e2e

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An SSH "remote" on this machine for the remote tests (issue 41): OpenSSH's
// own server, started by the test with a configuration of its own, on
// 127.0.0.1 only, at a free port, with key authentication only, letting in
// one user, sshUser, a second local account that stands for the account on
// the remote machine. The server runs in a mount namespace of its own, so
// that what it and its sessions see of the file system can differ from the
// editor's (a bind mount there puts the editor's files at another path).

// sshUser is the remote side's account. It is created when absent (by the
// test, as root; .ci/run creates it the same way):
//
//	useradd --system --create-home --home-dir /var/lib/claude-remote --shell /bin/sh --password '*' claude-remote
//
// The password '*' matches no password yet leaves the account unlocked:
// without PAM (UsePAM no) sshd refuses an account whose password starts
// with '!', as useradd's default does.
const sshUser = "claude-remote"

// sshdPath is Debian's openssh-server.
const sshdPath = "/usr/sbin/sshd"

// needSSH skips a test where the machine cannot run the server, saying why;
// in CI (.ci/run sets CLAUDE_NVIM_CI, runs as root and installs
// openssh-server) nothing may be missing, so it fails there instead.
func needSSH(t *testing.T) {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CLAUDE_NVIM_CI") != "" {
			t.Fatalf("CI must run the SSH test: %s", why)
		}
		t.Skip(why)
	}
	if os.Geteuid() != 0 {
		missing("needs root: starts sshd, adds the user " + sshUser + " and bind-mounts in a mount namespace")
	}
	if _, err := os.Stat(sshdPath); err != nil {
		missing("needs OpenSSH's server (apt-get install openssh-server): " + err.Error())
	}
	for _, tool := range []string{"ssh", "ssh-keygen", "unshare", "useradd"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(fmt.Sprintf("needs %s: %v", tool, err))
		}
	}
}

// remoteAccount returns sshUser's uid and gid, creating the account first
// when absent.
func remoteAccount(t *testing.T) (uid, gid int) {
	t.Helper()
	u, err := user.Lookup(sshUser)
	if err != nil {
		out, err := exec.Command("useradd", "--system", "--create-home", "--home-dir", "/var/lib/"+sshUser,
			"--shell", "/bin/sh", "--password", "*", sshUser).CombinedOutput()
		if err != nil && !strings.Contains(string(out), "already exists") { // a parallel test made it
			t.Fatalf("useradd %s: %v\n%s", sshUser, err, out)
		}
		if u, err = user.Lookup(sshUser); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid
}

// sshServer is a running sshd and what a client needs to log in to it.
type sshServer struct {
	port   int
	dir    string // its configuration, keys and log (root's, 0711: the user reads authorized_keys)
	client []string
}

// startSSHD starts sshd for sshUser; setup is a shell script run as root in
// the server's new mount namespace before sshd replaces it (mounts there are
// the remote machine's view of the files). The server stops when the test
// ends.
func startSSHD(t *testing.T, setup string) *sshServer {
	t.Helper()
	dir, err := os.MkdirTemp("", "claude-nvim-sshd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"host", "client"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f", filepath.Join(dir, key)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(filepath.Join(dir, "client.pub"))
	if err != nil {
		t.Fatal(err)
	}
	// Read by sshd as the user logging in; nothing else of dir is theirs to read.
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o644); err != nil {
		t.Fatal(err)
	}
	// The privilege separation directory sshd requires (systemd makes it at boot).
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatal(err)
	}
	s := &sshServer{dir: dir}
	for try := 1; ; try++ {
		err := s.start(t, setup)
		if err == nil {
			break
		}
		// The free port found may be taken before sshd binds it: another try.
		if try == 3 {
			t.Fatalf("sshd did not start: %v\n%s", err, s.log())
		}
		t.Logf("sshd did not start (try %d): %v", try, err)
	}
	hostKey, err := os.ReadFile(filepath.Join(dir, "host.pub"))
	if err != nil {
		t.Fatal(err)
	}
	known := fmt.Sprintf("[127.0.0.1]:%d %s", s.port, hostKey)
	if err := os.WriteFile(filepath.Join(dir, "known_hosts"), []byte(known), 0o600); err != nil {
		t.Fatal(err)
	}
	// No user configuration, this key only, the host key checked, never a prompt.
	s.client = []string{"ssh", "-F", "/dev/null", "-i", filepath.Join(dir, "client"), "-p", strconv.Itoa(s.port),
		"-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile=" + filepath.Join(dir, "known_hosts"),
		"-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
		sshUser + "@127.0.0.1"}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("sshd's log:\n%s", tailLines(s.log(), 40))
		}
	})
	return s
}

func (s *sshServer) log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "sshd.log"))
	return string(b)
}

// start runs sshd at a free port and waits for its banner.
func (s *sshServer) start(t *testing.T, setup string) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	config := strings.Join([]string{
		"ListenAddress 127.0.0.1", // the loopback only: nothing on a network interface
		"Port " + strconv.Itoa(s.port),
		"HostKey " + filepath.Join(s.dir, "host"),
		"PidFile " + filepath.Join(s.dir, "sshd.pid"),
		"AuthorizedKeysFile " + filepath.Join(s.dir, "authorized_keys"),
		"AuthenticationMethods publickey",
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"PermitRootLogin no",
		"AllowUsers " + sshUser,
		"UsePAM no",
		"StrictModes no", // the key file's directory is in /tmp, writable by all
		"AllowTcpForwarding no",
		"AllowAgentForwarding no",
		"AllowStreamLocalForwarding no",
		"X11Forwarding no",
		"PermitTunnel no",
		"PrintMotd no",
		"LogLevel VERBOSE",
	}, "\n") + "\n"
	cfg := filepath.Join(s.dir, "sshd_config")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(s.dir, "sshd.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	// A mount namespace of its own, its mounts private: what setup mounts is
	// seen by sshd and the sessions it starts, never by the editor.
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-euc",
		setup+"\nexec \"$0\" -D -e -f \"$1\"", sshdPath, cfg)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("sshd exited: %v", err)
		default:
		}
		if banner(s.port) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no SSH banner at 127.0.0.1:%d in %s", s.port, startTimeout)
		}
		time.Sleep(pollInterval)
	}
}

// banner reports whether an SSH server answers at the port.
func banner(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "SSH-2.0-")
}

// shellQuote quotes s for the remote user's shell (ssh passes the command
// line to it as one string).
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
