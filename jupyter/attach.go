package jupyter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
)

// Attach connects to a running kernel through its connection file (one
// molten.nvim or `jupyter console` started). Close then only disconnects:
// the kernel is its owner's. Only a kernel on a loopback address over tcp
// is accepted: code never goes over a network.
func Attach(ctx context.Context, connectionFile string) (*Kernel, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	b, err := readSmall(connectionFile, 64<<10)
	if err != nil {
		return nil, fmt.Errorf("attach to kernel: %w", err)
	}
	var info connectionInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("attach to kernel: %s: %w", connectionFile, err)
	}
	if ip := net.ParseIP(info.IP); info.Transport != "tcp" || ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("attach to kernel: %s: %s://%s is not a local tcp address", connectionFile, info.Transport, info.IP)
	}
	if info.SignatureScheme != "" && info.SignatureScheme != "hmac-sha256" {
		return nil, fmt.Errorf("attach to kernel: %s: signature scheme %q is not supported", connectionFile, info.SignatureScheme)
	}
	k := newKernel(info, connectionFile)
	k.attached = true
	if err := k.connect(ctx, info); err != nil {
		k.disconnect()
		return nil, fmt.Errorf("attach to kernel %s: %w", connectionFile, err)
	}
	return k, nil
}

func (k *Kernel) disconnect() {
	for _, z := range []*zconn{k.shell, k.control, k.iopubZ} {
		if z != nil {
			z.Close()
		}
	}
	k.die(errors.New("disconnected"))
}

// readSmall reads a regular file of at most max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > max {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", path, max)
	}
	return io.ReadAll(io.LimitReader(f, max))
}
