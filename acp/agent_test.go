package acp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

// The scripted agent as a process: this test binary started with ACPTEST_SCENARIO set
// plays that scenario on its stdin and stdout instead of running the tests.
func TestMain(m *testing.M) {
	if name := os.Getenv("ACPTEST_SCENARIO"); name != "" {
		p := acptest.New(os.Stdin, os.Stdout, func(msg string) {
			fmt.Fprintln(os.Stderr, msg)
			os.Exit(99)
		})
		scenario, ok := scenarios[name]
		if !ok {
			fmt.Fprintln(os.Stderr, "no scenario", name)
			os.Exit(98)
		}
		scenario(p)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var scenarios = map[string]func(p *acptest.Peer){
	// Dies in the middle of a turn, saying why on stderr after much else.
	"die-mid-turn": func(p *acptest.Peer) {
		agentHandshake(p)
		p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "Let me"}})
		for i := range 2000 {
			fmt.Fprintf(os.Stderr, "[session/query] progress line %d\n", i)
		}
		fmt.Fprintln(os.Stderr, "Error: the Claude CLI exited: API key rejected")
		os.Exit(3)
	},
	// Starts a child that stays (as an agent's CLI or MCP server would) and exits when its
	// stdin closes, leaving the child behind.
	"leave-a-child": func(p *acptest.Peer) {
		child := exec.Command("sleep", "600")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(97)
		}
		p.Initialize(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{},
			"agentInfo": map[string]any{"name": "leave-a-child", "version": strconv.Itoa(child.Process.Pid)}})
		p.EOF()
	},
	// Starts a child it reaps when it ends, and stays until its stdin closes.
	"reap-a-child": func(p *acptest.Peer) {
		child := exec.Command("sleep", "600")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(97)
		}
		go child.Wait()
		p.Initialize(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{},
			"agentInfo": map[string]any{"name": "reap-a-child", "version": strconv.Itoa(child.Process.Pid)}})
		p.EOF()
	},
	// Does not exit when its stdin closes.
	"stay": func(p *acptest.Peer) {
		p.Initialize(acptest.Baseline())
		p.EOF()
		select {}
	},
	// Closes its stdout mid-turn but goes on running.
	"close-stdout": func(p *acptest.Peer) {
		agentHandshake(p)
		p.Expect("session/prompt")
		os.Stdout.Close()
		select {}
	},
}

// startScenario runs this test binary as the agent of a scenario.
func startScenario(t *testing.T, name string, client acp.Client, grace time.Duration) *acp.Agent {
	t.Helper()
	a, err := acp.Start(acp.Command{
		Path:       os.Args[0],
		Env:        append(os.Environ(), "ACPTEST_SCENARIO="+name),
		CloseGrace: grace,
	}, client)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		defer cancel()
		if err := a.Close(cctx); err != nil {
			syscall.Kill(-a.PID(), syscall.SIGKILL) // leave nothing behind a failed test
			t.Errorf("closing the scripted agent: %v", err)
		}
	})
	return a
}

func TestAnAgentDyingMidTurnFailsTheTurnWithItsExitAndStderr(t *testing.T) {
	rec := newRecorder()
	a := startScenario(t, "die-mid-turn", rec, 0)
	handshake(t, a.Conn)
	_, err := a.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")})
	var exit *acp.ExitError
	if !errors.As(err, &exit) || exit.Code != 3 || exit.Signal != "" {
		t.Fatalf("the turn of an agent that exited 3: %v; want an ExitError with status 3", err)
	}
	msg := err.Error()
	for _, want := range []string{"session/prompt", "exited with status 3", "API key rejected", "progress line 1999"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "progress line 1000\n") || len(msg) > 3000 {
		t.Errorf("the error holds more than the end of stderr (%d bytes):\n%s", len(msg), msg)
	}
	if text(rec.all(), acp.KindAgentMessageChunk) != "Let me" {
		t.Errorf("the update before the exit was lost: %s", describe(rec.all()))
	}
	<-a.Done()
	if !errors.As(a.Err(), &exit) || a.ExitErr() == nil || a.ExitErr().Code != 3 {
		t.Errorf("after the exit: Err %v, ExitErr %v; want the exit", a.Err(), a.ExitErr())
	}
	if _, err := a.NewSession(ctx(t), acp.NewSessionRequest{Cwd: "/tmp"}); !errors.As(err, &exit) {
		t.Errorf("a call after the exit: %v; want the ExitError", err)
	}
}

// initializeForChild initializes a scenario that started a child and names its pid as its
// version; returns the pid.
func initializeForChild(t *testing.T, a *acp.Agent) int {
	t.Helper()
	res, err := a.Initialize(ctx(t), acp.Implementation{Name: "test", Version: "0"})
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(res.AgentInfo.Version)
	if err != nil || child <= 0 {
		t.Fatalf("no child pid in %+v", res.AgentInfo)
	}
	return child
}

func TestCloseEndsWhatTheAgentStarted(t *testing.T) {
	a := startScenario(t, "leave-a-child", newRecorder(), 0)
	child := initializeForChild(t, a)
	if gone(child) {
		t.Fatalf("the agent's child %d is not running before Close", child)
	}
	if err := a.Close(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if exit := a.ExitErr(); exit == nil || exit.Code != 0 {
		t.Errorf("the agent exited %v; want status 0 on closing its stdin", exit)
	}
	waitGone(t, child)
}

// WaitChildren waits while the agent's child runs and returns once it has ended (the
// agent's Claude CLI finishing its writes after a session/close).
func TestWaitChildrenReturnsOnceTheAgentsChildHasEnded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the children of a process are listed on Linux only")
	}
	a := startScenario(t, "reap-a-child", newRecorder(), 0)
	child := initializeForChild(t, a)
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := a.WaitChildren(short); err == nil {
		t.Fatalf("WaitChildren returned while the child %d runs", child)
	}
	if err := syscall.Kill(child, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := a.WaitChildren(ctx(t)); err != nil {
		t.Errorf("WaitChildren after the child ended: %v", err)
	}
}

func TestAnAgentThatStaysAfterCloseIsKilled(t *testing.T) {
	a := startScenario(t, "stay", newRecorder(), 200*time.Millisecond)
	if _, err := a.Initialize(ctx(t), acp.Implementation{Name: "test", Version: "0"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if exit := a.ExitErr(); exit == nil || exit.Signal != "killed" {
		t.Errorf("an agent that stayed exited %v; want killed", exit)
	}
	if !errors.Is(a.Err(), acp.ErrClosed) {
		t.Errorf("the connection of a closed agent ended with %v; want ErrClosed", a.Err())
	}
}

func TestAnAgentThatClosesItsOutputAndStaysIsKilled(t *testing.T) {
	a := startScenario(t, "close-stdout", newRecorder(), 200*time.Millisecond)
	handshake(t, a.Conn)
	_, err := a.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")})
	var exit *acp.ExitError
	if !errors.As(err, &exit) || exit.Signal != "killed" {
		t.Errorf("the turn of an agent that closed its output: %v; want it killed and said so", err)
	}
}

func TestAMissingAgentFailsToStart(t *testing.T) {
	_, err := acp.Start(acp.Command{Path: "/nonexistent/claude-agent-acp"}, newRecorder())
	if err == nil || !strings.Contains(err.Error(), "start the agent") {
		t.Errorf("starting a missing agent: %v; want an error", err)
	}
}

// gone says whether process pid has ended (a zombie counts: it runs nothing).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) state …: the state follows the last parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone waits for pid to end; the kill is sent before Close returns, its delivery is not
// instant.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !gone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d the agent started outlived it", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
