package plugintest

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/claude-nvim/claude.nvim/scripts/releasetest"
)

// What a user without Go gets from scripts/install-binary (the release binary
// that `make dist` builds, downloaded from a local stand-in for the forge) is
// accepted by the version check, starts the server, and :checkhealth says
// where it came from.
func TestAReleaseBinaryInstalledWithoutGoPassesTheVersionCheck(t *testing.T) {
	dist := t.TempDir()
	if out, err := releasetest.Build(dist); err != nil {
		t.Fatalf("scripts/dist: %v\n%s", err, out)
	}
	version := releasetest.Version(t)
	srv := httptest.NewServer(releasetest.Handler(version, releasetest.Files(t, dist)))
	defer srv.Close()
	in := releasetest.NewInstaller(t, releasetest.Downloaders(t)[0], releasetest.Checksummer(t))
	if out, err := in.Run(t, "CLAUDE_NVIM_RELEASE_URL="+srv.URL); err != nil {
		t.Fatalf("the installer failed: %v\n%s", err, out)
	}

	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...; require('claude').setup({})`, in.Bin)
	nv.Cmd("ClaudeStart")
	if s := status(t, nv); !s.Running {
		t.Fatalf(":Claude server start with the downloaded binary did not start the server; messages:\n%s", nv.Messages())
	}
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "OK", in.Bin+" (from vim.g.claude_nvim_binary), version "+version+" (matches the plugin)")
	url := srv.URL + "/v" + version + "/" + releasetest.Asset(version)
	if want := "downloaded from " + url + " and verified against the release's SHA256SUMS"; !strings.Contains(text, want) {
		t.Errorf(":checkhealth claude does not say %q:\n%s", want, text)
	}
}

// :checkhealth claude reads the installer's record next to the binary: how it
// was installed decides how to update it, and a record older than the binary
// no longer describes it.
func TestCheckhealthSaysWhereTheBinaryCameFrom(t *testing.T) {
	install := filepath.Join(nvimtest.RepoRoot(), "scripts", "install-binary")
	stale := "#!/bin/sh\necho 0.0.1\n"
	for _, tc := range []struct {
		name, record string
		staleBinary  bool
		recordIsOld  bool
		level        string // of the line that says it, "" for an info line
		want         string
	}{
		{
			name:   "a downloaded binary names its URL and the installer",
			record: "method=download\nurl=https://example.invalid/v0.1.0/claude-nvim-0.1.0-linux-amd64\n",
			want:   "downloaded from https://example.invalid/v0.1.0/claude-nvim-0.1.0-linux-amd64 and verified against the release's SHA256SUMS; after updating the plugin, update it with `" + install + "`",
		},
		{
			name:   "a binary built from source is rebuilt from source",
			record: "method=source\ngo=go version go1.24.4 linux/amd64\n",
			want:   "built from source (go version go1.24.4 linux/amd64); after updating the plugin, rebuild it with `CLAUDE_NVIM_BUILD=source " + install + "`",
		},
		{
			name:        "a record older than the binary is ignored",
			record:      "method=download\nurl=https://example.invalid/old\n",
			recordIsOld: true,
			want:        "set by vim.g.claude_nvim_binary; update it the way you installed it",
		},
		{
			name:        "a stale binary built from source is to be rebuilt from source",
			record:      "method=source\n",
			staleBinary: true,
			level:       "ERROR",
			want:        "update it: run `CLAUDE_NVIM_BUILD=source " + install + "`",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "claude-nvim")
			content := []byte(stale)
			if !tc.staleBinary {
				var err error
				if content, err = os.ReadFile(binary); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(bin, content, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin+".source", []byte(tc.record), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.recordIsOld {
				old := time.Now().Add(-time.Hour)
				if err := os.Chtimes(bin+".source", old, old); err != nil {
					t.Fatal(err)
				}
			}
			nv := nvimtest.New(t)
			nv.Lua(nil, `vim.g.claude_nvim_binary = ...; require('claude').setup({})`, bin)
			reports, text := checkhealth(t, nv)
			if tc.level != "" {
				expect(t, reports, text, tc.level, bin+" is version 0.0.1")
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf(":checkhealth claude does not say %q:\n%s", tc.want, text)
			}
		})
	}
}

// The README's lazy.nvim spec installs the binary with the installer, which
// lazy.nvim runs as a shell command in the plugin directory.
func TestTheREADMEsLazySpecBuildsWithTheInstaller(t *testing.T) {
	nv := nvimtest.New(t)
	var build string
	nv.Lua(&build, `return assert(loadstring("return " .. ...))().build`, readmeLazySpec(t))
	if build != "scripts/install-binary" {
		t.Errorf("the README's spec has build = %q; want \"scripts/install-binary\"", build)
	}
	fi, err := os.Stat(filepath.Join(nvimtest.RepoRoot(), build))
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("%s must be an executable file in the checkout (lazy.nvim runs it): %v", build, err)
	}
}
