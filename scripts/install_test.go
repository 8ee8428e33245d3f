// Tests of scripts/install-binary and scripts/dist: the installer downloads
// what dist built from a local server, with Go off $PATH, and says what went
// wrong in one line when it cannot install.
package scripts_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/claude-nvim/claude.nvim/scripts/releasetest"
)

// dist is the output of scripts/dist for this platform, built once.
var dist string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "claude-nvim-dist")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dist = dir
	if out, err := releasetest.Build(dir); err != nil {
		fmt.Fprintf(os.Stderr, "scripts/dist: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// release is the files of the release, and the names that matter.
type release struct {
	version, asset string
	files          map[string][]byte
}

func newRelease(t *testing.T) release {
	t.Helper()
	v := releasetest.Version(t)
	return release{version: v, asset: releasetest.Asset(v), files: releasetest.Files(t, dist)}
}

// withoutAsset is the release as published without this platform's binary.
func (r release) withoutAsset() map[string][]byte {
	files := map[string][]byte{}
	var sums bytes.Buffer
	for _, line := range strings.SplitAfter(string(r.files["SHA256SUMS"]), "\n") {
		if !strings.HasSuffix(strings.TrimSpace(line), " "+r.asset) {
			sums.WriteString(line)
		}
	}
	files["SHA256SUMS"] = sums.Bytes()
	return files
}

// with returns the files with one replaced.
func (r release) with(name string, data []byte) map[string][]byte {
	files := map[string][]byte{}
	for k, v := range r.files {
		files[k] = v
	}
	if data == nil {
		delete(files, name)
	} else {
		files[name] = data
	}
	return files
}

// serve starts the forge for files and counts the requests it gets.
func serve(t *testing.T, h http.Handler) (url string, requests *atomic.Int32) {
	t.Helper()
	requests = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, requests
}

// cutShort serves the asset's first half and drops the connection: with its
// length announced (the downloader notices) or without (only the checksum does).
func cutShort(r release, announced bool) http.Handler {
	files := releasetest.Handler(r.version, r.files)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !strings.HasSuffix(req.URL.Path, "/"+r.asset) {
			files.ServeHTTP(w, req)
			return
		}
		data := r.files[r.asset]
		if announced {
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			_, _ = w.Write(data[:len(data)/2])
			http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler) // closes the connection mid-body
		}
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		defer conn.Close()
		// A body that ends when the connection closes: nothing says it is short.
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/octet-stream\r\n\r\n")
		_, _ = buf.Write(data[:len(data)/2])
		_ = buf.Flush()
	})
}

// notInstalled fails unless bin/ is empty: no binary, no marker, no temporary
// file left behind.
func notInstalled(t *testing.T, in *releasetest.Installer) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(in.Bin))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("after a failed install, bin/ holds %s; want nothing", e.Name())
	}
}

// marker reads bin/claude-nvim.source into a map.
func marker(t *testing.T, in *releasetest.Installer) map[string]string {
	t.Helper()
	data, err := os.ReadFile(in.Bin + ".source")
	if err != nil {
		t.Fatalf("no marker next to the binary: %v", err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			m[k] = v
		}
	}
	return m
}

func versionOf(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatalf("%s -version: %v", bin, err)
	}
	return strings.TrimSpace(string(out))
}

// Every way a download can go wrong, with each downloader the machine has:
// the user gets one line saying what happened and what to do, and nothing is
// installed.
func TestTheInstallerWithoutGo(t *testing.T) {
	r := newRelease(t)
	sum := sha256.Sum256(r.files[r.asset])
	altered := bytes.Clone(r.files[r.asset])
	altered[len(altered)/2] ^= 0xff
	wrongSums := bytes.Replace(r.files["SHA256SUMS"], []byte(hex.EncodeToString(sum[:])), bytes.Repeat([]byte("0"), 64), 1)
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL // nothing listens there once it is closed
	down.Close()
	for _, tc := range []struct {
		name    string
		handler http.Handler
		down    bool
		want    []string // fragments of the one line the user reads
	}{
		{
			name:    "an altered binary is refused",
			handler: releasetest.Handler(r.version, r.with(r.asset, altered)),
			want:    []string{"checksum mismatch for " + r.asset, "Nothing was installed"},
		},
		{
			name:    "a binary that does not match SHA256SUMS is refused",
			handler: releasetest.Handler(r.version, r.with("SHA256SUMS", wrongSums)),
			want:    []string{"checksum mismatch for " + r.asset, "SHA256SUMS says " + strings.Repeat("0", 64)},
		},
		{
			name:    "a release without this platform's binary says Go is needed",
			handler: releasetest.Handler(r.version, r.withoutAsset()),
			want: []string{"release v" + r.version + " has no binary for " + strings.TrimPrefix(r.asset, "claude-nvim-"+r.version+"-"),
				"Go is not installed: install Go 1.24 or newer"},
		},
		{
			name:    "a binary listed but not uploaded says Go is needed",
			handler: releasetest.Handler(r.version, r.with(r.asset, nil)),
			want:    []string{"/v" + r.version + "/" + r.asset + " was not found", "Go is not installed"},
		},
		{
			name:    "a version that was never released says Go is needed",
			handler: http.NotFoundHandler(),
			want:    []string{"/v" + r.version + "/SHA256SUMS was not found (is v" + r.version + " released?)", "Go is not installed"},
		},
		{
			name:    "a download cut short is refused",
			handler: cutShort(r, true),
			want:    []string{"could not download ", "/" + r.asset + ": the download was cut short (", "Nothing was installed: check the network"},
		},
		{
			name:    "a download cut short without a length fails the checksum",
			handler: cutShort(r, false),
			want:    []string{"checksum mismatch for " + r.asset, fmt.Sprintf("(%d bytes; cut short or altered)", len(r.files[r.asset])/2)},
		},
		{
			name: "a server that is down says to check the network",
			down: true,
			want: []string{"could not download " + downURL + "/v" + r.version + "/SHA256SUMS", "Nothing was installed: check the network (or CLAUDE_NVIM_RELEASE_URL)"},
		},
	} {
		for _, fetcher := range releasetest.Downloaders(t) {
			t.Run(tc.name+" ("+fetcher+")", func(t *testing.T) {
				url := downURL
				if !tc.down {
					url, _ = serve(t, tc.handler)
				}
				in := releasetest.NewInstaller(t, fetcher, releasetest.Checksummer(t))
				out, err := in.Run(t, "CLAUDE_NVIM_RELEASE_URL="+url)
				if err == nil {
					t.Fatalf("the installer succeeded; want it to refuse. It said:\n%s", out)
				}
				if testing.Verbose() {
					t.Logf("the installer said:\n%s", out)
				}
				last := lastLine(out)
				for _, w := range tc.want {
					if !strings.Contains(last, w) {
						t.Errorf("the installer's last line does not say %q:\n%s", w, out)
					}
				}
				if strings.Contains(out, "building") || strings.Contains(last, "CLAUDE_NVIM_BUILD=source") {
					t.Errorf("without Go the installer built or suggested building:\n%s", out)
				}
				notInstalled(t, in)
			})
		}
	}
}

func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// A good release installs a binary that runs and answers the plugin's version,
// and records where it came from, with either downloader and either checksum
// tool.
func TestTheInstallerInstallsTheReleaseBinaryWithoutGo(t *testing.T) {
	r := newRelease(t)
	sum := sha256.Sum256(r.files[r.asset])
	var variants [][2]string
	for _, d := range releasetest.Downloaders(t) {
		variants = append(variants, [2]string{d, releasetest.Checksummer(t)})
	}
	if _, err := exec.LookPath("shasum"); err == nil {
		variants = append(variants, [2]string{releasetest.Downloaders(t)[0], "shasum"})
	}
	for _, v := range variants {
		t.Run(v[0]+" and "+v[1], func(t *testing.T) {
			url, _ := serve(t, releasetest.Handler(r.version, r.files))
			in := releasetest.NewInstaller(t, v[0], v[1])
			out, err := in.Run(t, "CLAUDE_NVIM_RELEASE_URL="+url+"/") // a trailing slash is fine
			if err != nil {
				t.Fatalf("the installer failed: %v\n%s", err, out)
			}
			if want := "installed " + in.Bin + " (" + r.asset + ", SHA256 verified)"; lastLine(out) != "install-binary: "+want {
				t.Errorf("the installer's last line is %q; want %q", lastLine(out), want)
			}
			if got := versionOf(t, in.Bin); got != r.version {
				t.Errorf("the installed binary says version %q; want %q", got, r.version)
			}
			m := marker(t, in)
			want := map[string]string{
				"method":  "download",
				"version": r.version,
				"url":     url + "/v" + r.version + "/" + r.asset,
				"sha256":  hex.EncodeToString(sum[:]),
			}
			for k, v := range want {
				if m[k] != v {
					t.Errorf("marker %s = %q; want %q", k, m[k], v)
				}
			}
			entries, _ := os.ReadDir(filepath.Dir(in.Bin))
			if len(entries) != 2 {
				t.Errorf("bin/ holds %d entries; want the binary and its marker only", len(entries))
			}
		})
	}
}

// goStub is a `go` that records its arguments and "builds" a binary that
// answers version.
func goStub(t *testing.T, in *releasetest.Installer, version string) (record string) {
	t.Helper()
	record = filepath.Join(t.TempDir(), "go-calls")
	in.Script(t, "go", fmt.Sprintf(`echo "$*" >>%q
[ "$1" = version ] && { echo "go version go1.99 stub"; exit 0; }
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then printf '#!/bin/sh\necho %s\n' >"$2"; chmod 755 "$2"; fi
	shift
done
`, record, version))
	return record
}

func goCalls(t *testing.T, record string) string {
	t.Helper()
	data, err := os.ReadFile(record)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// With Go on $PATH the installer builds from source when asked, or when no
// release binary fits; a download that fails is still an error (it says Go
// is an option), never a silent build.
func TestTheInstallerWithGo(t *testing.T) {
	r := newRelease(t)
	fetcher := releasetest.Downloaders(t)[0]
	for _, tc := range []struct {
		name      string
		handler   http.Handler
		env       []string
		uname     string // a stand-in uname's output, or the real one
		wantBuild bool
		wantLast  string
		noRequest bool
	}{
		{
			name:      "CLAUDE_NVIM_BUILD=source builds without asking the server",
			handler:   releasetest.Handler(r.version, r.files),
			env:       []string{"CLAUDE_NVIM_BUILD=source"},
			wantBuild: true,
			noRequest: true,
			wantLast:  "built ",
		},
		{
			name:      "a release without this platform's binary falls back to a source build",
			handler:   releasetest.Handler(r.version, r.withoutAsset()),
			wantBuild: true,
			wantLast:  "built ",
		},
		{
			name:      "another OS falls back to a source build",
			handler:   releasetest.Handler(r.version, r.files),
			uname:     "FreeBSD",
			wantBuild: true,
			noRequest: true,
			wantLast:  "built ",
		},
		{
			name:     "an altered binary is refused, not replaced by a build",
			handler:  releasetest.Handler(r.version, r.with(r.asset, append(bytes.Clone(r.files[r.asset][:100]), make([]byte, len(r.files[r.asset])-100)...))),
			wantLast: "or build from source with CLAUDE_NVIM_BUILD=source",
		},
		{
			name:     "a bad CLAUDE_NVIM_BUILD is refused",
			handler:  releasetest.Handler(r.version, r.files),
			env:      []string{"CLAUDE_NVIM_BUILD=yes"},
			wantLast: "CLAUDE_NVIM_BUILD=yes: want download or source",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, requests := serve(t, tc.handler)
			in := releasetest.NewInstaller(t, fetcher, releasetest.Checksummer(t))
			record := goStub(t, in, r.version)
			if tc.uname != "" {
				os.Remove(filepath.Join(in.Path, "uname"))
				in.Script(t, "uname", fmt.Sprintf("[ \"$1\" = -s ] && echo %s || echo amd64\n", tc.uname))
			}
			out, err := in.Run(t, append([]string{"CLAUDE_NVIM_RELEASE_URL=" + url}, tc.env...)...)
			if !strings.Contains(lastLine(out), tc.wantLast) {
				t.Errorf("the installer's last line does not say %q:\n%s", tc.wantLast, out)
			}
			built := strings.Contains(goCalls(t, record), "build -trimpath -o ")
			if built != tc.wantBuild {
				t.Errorf("go build ran: %v; want %v. go calls:\n%s\noutput:\n%s", built, tc.wantBuild, goCalls(t, record), out)
			}
			if tc.noRequest && requests.Load() != 0 {
				t.Errorf("the server got %d requests; want none", requests.Load())
			}
			if !tc.wantBuild {
				if err == nil {
					t.Errorf("the installer succeeded; want it to refuse:\n%s", out)
				}
				notInstalled(t, in)
				return
			}
			if err != nil {
				t.Fatalf("the installer failed: %v\n%s", err, out)
			}
			if m := marker(t, in); m["method"] != "source" || m["go"] != "go version go1.99 stub" {
				t.Errorf("marker after a source build: %v; want method=source and the go version", m)
			}
			if got := versionOf(t, in.Bin); got != r.version {
				t.Errorf("the built binary says %q; want %q", got, r.version)
			}
		})
	}
}

// A failed update leaves the binary that was there, and its marker.
func TestAFailedUpdateKeepsTheInstalledBinary(t *testing.T) {
	r := newRelease(t)
	in := releasetest.NewInstaller(t, releasetest.Downloaders(t)[0], releasetest.Checksummer(t))
	url, _ := serve(t, releasetest.Handler(r.version, r.files))
	if out, err := in.Run(t, "CLAUDE_NVIM_RELEASE_URL="+url); err != nil {
		t.Fatalf("first install: %v\n%s", err, out)
	}
	before, _ := os.ReadFile(in.Bin)
	beforeMarker, _ := os.ReadFile(in.Bin + ".source")
	altered := bytes.Clone(r.files[r.asset])
	altered[0] ^= 0xff
	url, _ = serve(t, releasetest.Handler(r.version, r.with(r.asset, altered)))
	out, err := in.Run(t, "CLAUDE_NVIM_RELEASE_URL="+url)
	if err == nil || !strings.Contains(out, "checksum mismatch") {
		t.Fatalf("the update with an altered binary: err %v; want a checksum mismatch:\n%s", err, out)
	}
	after, _ := os.ReadFile(in.Bin)
	afterMarker, _ := os.ReadFile(in.Bin + ".source")
	if !bytes.Equal(before, after) || !bytes.Equal(beforeMarker, afterMarker) {
		t.Errorf("a refused update changed bin/claude-nvim or its marker")
	}
	entries, _ := os.ReadDir(filepath.Dir(in.Bin))
	if len(entries) != 2 {
		t.Errorf("bin/ holds %d entries after a refused update; want the old binary and marker only", len(entries))
	}
}

// scripts/dist builds the same bytes again (the release can be checked by
// rebuilding it), names the asset the way the installer asks for it, and its
// SHA256SUMS is what sha256sum -c accepts.
func TestDistIsReproducible(t *testing.T) {
	r := newRelease(t)
	again := t.TempDir()
	if out, err := releasetest.Build(again); err != nil {
		t.Fatalf("scripts/dist: %v\n%s", err, out)
	}
	second := releasetest.Files(t, again)
	if !bytes.Equal(r.files["SHA256SUMS"], second["SHA256SUMS"]) {
		t.Errorf("two runs of scripts/dist differ:\n%s\n%s", r.files["SHA256SUMS"], second["SHA256SUMS"])
	}
	sum := sha256.Sum256(second[r.asset])
	if want := hex.EncodeToString(sum[:]) + "  " + r.asset + "\n"; string(second["SHA256SUMS"]) != want {
		t.Errorf("SHA256SUMS is %q; want %q", second["SHA256SUMS"], want)
	}
}

// What scripts/dist writes is a mirror as it stands: its output directory,
// served over HTTP as it is, is a CLAUDE_NVIM_RELEASE_URL the installer
// installs from (issue 28: dist/ was flat while the installer asks for
// v<version>/...).
func TestDistOutputServedAsItIsIsAMirror(t *testing.T) {
	version := releasetest.Version(t)
	url, _ := serve(t, http.FileServer(http.Dir(dist)))
	in := releasetest.NewInstaller(t, releasetest.Downloaders(t)[0], releasetest.Checksummer(t))
	out, err := in.Run(t, "CLAUDE_NVIM_RELEASE_URL="+url)
	if err != nil {
		t.Fatalf("the installer failed against dist/ served as a mirror: %v\n%s", err, out)
	}
	if got := versionOf(t, in.Bin); got != version {
		t.Errorf("the installed binary says version %q; want %q", got, version)
	}
}
