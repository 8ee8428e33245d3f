package jupyter

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// testPython finds an interpreter with ipykernel ($JUPYTER_PYTHON, else
// python3 on PATH, else Debian's /usr/bin/python3), or skips.
func testPython(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("JUPYTER_PYTHON"), "python3", "/usr/bin/python3"}
	for _, p := range cands {
		if p == "" {
			continue
		}
		if exec.Command(p, "-c", "import ipykernel").Run() == nil {
			return p
		}
	}
	t.Skip("no python3 with ipykernel (apt-get install python3-ipykernel)")
	return ""
}

func startKernel(t *testing.T) *Kernel {
	t.Helper()
	k, err := Start(context.Background(), Options{Python: testPython(t), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	return k
}

func TestKernelKeepsStateAndReturnsOutputs(t *testing.T) {
	k := startKernel(t)
	ctx := context.Background()
	res, err := k.Execute(ctx, "x = 21\nprint('hello')", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "hello\n" || res.Error {
		t.Errorf("first call: got %+v, want the text hello", res)
	}
	res, err = k.Execute(ctx, "x * 2", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "42\n" {
		t.Errorf("x * 2 after x = 21: got %q, want 42 (state kept across calls)", res.Text)
	}
	res, err = k.Execute(ctx, "1/0", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Error || !strings.Contains(res.Text, "ZeroDivisionError") || strings.Contains(res.Text, "\x1b[") {
		t.Errorf("1/0: got %+v, want an error with a traceback free of ANSI codes", res)
	}
}

// pngCode displays a PNG made with plain Python (zlib), so the test needs no
// plotting library.
const pngCode = `import zlib, struct
from IPython.display import Image, display
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 1, 1, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(b'\x00\xff\x00\x00')) + chunk(b'IEND', b'')
display(Image(data=png))
`

func TestKernelReturnsPNG(t *testing.T) {
	k := startKernel(t)
	res, err := k.Execute(context.Background(), pngCode, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 {
		t.Fatalf("got %d images (text %q), want 1", len(res.Images), res.Text)
	}
	b, err := base64.StdEncoding.DecodeString(res.Images[0].Data)
	if err != nil || !strings.HasPrefix(string(b), "\x89PNG") || res.Images[0].MimeType != "image/png" {
		t.Errorf("image: got %q... (%v), want a base64 PNG", res.Images[0].Data[:min(20, len(res.Images[0].Data))], err)
	}
}

func TestKernelCutsLongOutput(t *testing.T) {
	k := startKernel(t)
	res, err := k.Execute(context.Background(), "import sys\nfor _ in range(10): sys.stdout.write('x' * (1 << 20))\nprint('END')", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) != MaxText || res.Cut != 10<<20+4-MaxText {
		t.Errorf("10 MiB output: kept %d bytes, cut %d; want %d kept and the rest counted", len(res.Text), res.Cut, MaxText)
	}
}

func TestKernelDeathIsReported(t *testing.T) {
	k := startKernel(t)
	res, err := k.Execute(context.Background(), "print('bye', flush=True)\nimport os\nos._exit(3)", time.Minute)
	if !errors.Is(err, ErrDied) {
		t.Fatalf("os._exit: got %v, want ErrDied", err)
	}
	if !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("error %q does not give the exit status", err)
	}
	_ = res
	if _, err := k.Execute(context.Background(), "1", time.Minute); !errors.Is(err, ErrDied) {
		t.Errorf("a call after the death: got %v, want ErrDied", err)
	}
}

func TestKernelTimeoutInterrupts(t *testing.T) {
	k := startKernel(t)
	res, err := k.Execute(context.Background(), "import time\nprint('start', flush=True)\ntime.sleep(600)", 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || !strings.Contains(res.Text, "KeyboardInterrupt") {
		t.Errorf("sleep past the timeout: got %+v, want interrupted with KeyboardInterrupt", res)
	}
	res, err = k.Execute(context.Background(), "print('alive')", time.Minute)
	if err != nil || res.Text != "alive\n" {
		t.Errorf("after the interrupt: got %+v, %v; want the kernel still serving", res, err)
	}
}
