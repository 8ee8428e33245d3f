package jupyter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAttachSharesAKernelItNeitherInterruptsBySignalNorStops(t *testing.T) {
	owner := startKernel(t)
	ctx := context.Background()
	k, err := Attach(ctx, owner.ConnectionFile())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Execute(ctx, "y = 5", time.Minute); err != nil {
		t.Fatal(err)
	}
	if res, err := owner.Execute(ctx, "print(y)", time.Minute); err != nil || res.Text != "5\n" {
		t.Errorf("the owner after the attached client set y: got %+v, %v; want 5 (one kernel)", res, err)
	}
	res, err := k.Execute(ctx, "import time\ntime.sleep(600)", 3*time.Second)
	if err != nil || !res.Interrupted || !strings.Contains(res.Text, "KeyboardInterrupt") {
		t.Errorf("past the timeout: got %+v, %v; want interrupted through the control channel", res, err)
	}
	k.Close()
	if res, err := owner.Execute(ctx, "print('still')", time.Minute); err != nil || res.Text != "still\n" {
		t.Errorf("the owner after the attached client closed: got %+v, %v; want its kernel running", res, err)
	}
}

func TestAttachReportsTheKernelGone(t *testing.T) {
	owner := startKernel(t)
	k, err := Attach(context.Background(), owner.ConnectionFile())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	if _, err := k.Execute(context.Background(), "import os\nos._exit(0)", time.Minute); !errors.Is(err, ErrDied) {
		t.Errorf("the kernel exiting under an attached client: got %v, want ErrDied", err)
	}
}

func TestAttachRefusesAKernelOffThisMachine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "kernel.json")
	conn := `{"ip": "10.1.2.3", "transport": "tcp", "shell_port": 1, "iopub_port": 2, "control_port": 3, "key": "k", "signature_scheme": "hmac-sha256"}`
	if err := os.WriteFile(file, []byte(conn), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Attach(context.Background(), file); err == nil || !strings.Contains(err.Error(), "not a local tcp address") {
		t.Errorf("a kernel at 10.1.2.3: got %v, want a refusal", err)
	}
}
