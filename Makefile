# claude.nvim — see README.md. `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := build

GO       ?= go
DEPS     := $(CURDIR)/.deps
NVIM_010 := $(DEPS)/nvim-0.10/bin/nvim
NVIM_012 := $(DEPS)/nvim-0.12/bin/nvim
BIN      := bin/claude-nvim
# Neovim versions the test suite runs on (the floor and the newest).
TEST_NVIMS := $(NVIM_010) $(NVIM_012)
# The Claude Code CLI make e2e runs: the pinned one (the newest supported, set in
# scripts/install-claude-cli) unless CLAUDE_CLI_VERSION names another, e.g. the oldest
# supported: make e2e CLAUDE_CLI_VERSION=2.1.197. Each version has its own directory.
CLAUDE_CLI_PINNED := $(shell sed -n 's/^pinned=//p' scripts/install-claude-cli)
CLAUDE_CLI_OLDEST := 2.1.197
CLAUDE_CLI_VERSION ?= $(CLAUDE_CLI_PINNED)
CLI_DEPS ?= $(DEPS)/claude-cli
CLAUDE_CLI_DIR = $(CLI_DEPS)/$(CLAUDE_CLI_VERSION)
# The ACP agent the acp/ tests run (scripts/install-acp-agent pins it).
ACP_AGENT_PINNED := $(shell sed -n 's/^pinned=//p' scripts/install-acp-agent)
ACP_AGENT := $(DEPS)/acp-agent/$(ACP_AGENT_PINNED)/bin/claude-agent-acp

.PHONY: nvim-0.10 nvim-0.12 help build helptags test lint bench bench-peer bench-chat-peer fuzz e2e e2e-range deps nvim claude-cli acp-agent gopls trees manifest demo clean dist release-check

help: ## List the targets.
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# Without cgo the binary is static: no dynamic loader or libc pages in its
# memory, about 1.4 MiB less resident (issue 15); it needs nothing of cgo.
build: helptags ## Build the remote-plugin binary into bin/claude-nvim (from source, with Go), and doc/tags.
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) .
	@printf '# Written by make build; read by :checkhealth claude.\nmethod=source\ngo=%s\n' "$$($(GO) version)" >$(BIN).source

# doc/tags, so that :help claude works right after a manual install (lazy.nvim writes its
# own). With the nvim on PATH, else the one make deps fetched; without either, it says so
# and the build goes on: :helptags doc/ does the same by hand.
helptags: ## Generate doc/tags (:helptags doc/).
	@nvim=$$(command -v nvim || true); [ -n "$$nvim" ] || nvim=$(NVIM_012); \
	if [ -x "$$nvim" ]; then "$$nvim" -es -u NONE -i NONE -c 'helptags doc' -c 'qa!' && echo "doc/tags written"; \
	else echo "no nvim to write doc/tags with: run :helptags $(CURDIR)/doc in Neovim"; fi

# The release assets scripts/install-binary downloads, in its layout
# (dist/v<version>/claude-nvim-<version>-<os>-<arch> and SHA256SUMS), so dist/ served
# over HTTP is a mirror; the same source and Go version give the same bytes.
dist: ## Release binaries for linux and darwin (amd64, arm64) and SHA256SUMS, in dist/v<version>/.
	GO=$(GO) scripts/dist dist

# Not in make test: it builds four platforms (minutes on a 2-core machine).
release-check: ## Build what a v<version> tag publishes and install it through scripts/install-binary from a local server.
	GO=$(GO) scripts/release-check

nvim-0.10:
	scripts/install-neovim 0.10 $(DEPS)/nvim-0.10
nvim-0.12:
	scripts/install-neovim 0.12 $(DEPS)/nvim-0.12

nvim: nvim-0.10 nvim-0.12 ## Install Neovim 0.10 and 0.12 under .deps/ (no root, nothing system-wide).

claude-cli: ## Install the pinned Claude Code CLI (or CLAUDE_CLI_VERSION) under .deps/claude-cli/ (for make e2e).
	CLAUDE_CLI_VERSION=$(CLAUDE_CLI_VERSION) scripts/install-claude-cli $(CLAUDE_CLI_DIR)

acp-agent: ## Install the pinned ACP agent (claude-agent-acp, npm) under .deps/acp-agent/ (for make e2e).
	scripts/install-acp-agent $(DEPS)/acp-agent/$(ACP_AGENT_PINNED)

# The language server the tests of the language-server tools (issue 40) run: the pinned gopls,
# built from the Go module proxy (a few minutes the first time; idempotent after).
GOPLS_VERSION := $(shell sed -n 's/^pinned=//p' scripts/install-gopls)
gopls: ## Build the pinned gopls into .deps/gopls/ (for the language-server tools' tests).
	scripts/install-gopls $(DEPS)/gopls/$(GOPLS_VERSION)

# Not in deps: the explorer tests skip without them (and say so). Set
# CLAUDE_NVIM_TREES_MIRROR to clone from local mirrors instead of GitHub.
trees: ## The file explorers (oil, nvim-tree, neo-tree, mini.files, snacks) the :ClaudeAdd tests use, pinned, under .deps/trees.
	scripts/install-trees $(DEPS)/trees

deps: nvim gopls ## Everything make test needs (Neovim, gopls; Go modules come with go build).
	$(GO) mod download

# Tests that start a Neovim run in parallel (nvimtest.New). Each spends most
# of its time waiting on its child, so four at a time on 2 cores took the host
# package from 22 to 15 s (57 to 29 s at a higher load) against two, go
# test's default there; eight made timing-bound tests fail.
TEST_PARALLEL ?= 4
test: deps build lint ## Run every test, on Neovim 0.10 and on 0.12.
	@set -e; for nvim in $(TEST_NVIMS); do \
		echo "== go test with NVIM=$$nvim"; \
		NVIM=$$nvim $(GO) test -count=1 -parallel $(TEST_PARALLEL) ./...; \
	done

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.6.1
lint: ## gofmt, go vet and staticcheck must be clean.
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
		if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Each benchmark reports per-operation medians and tails (p50/p99/max) as
# custom metrics; the Neovim ones run a fixed number of times (see -benchtime).
GO_BENCH := NVIM=$(NVIM_012) $(GO) test -run '^$$' -count 1
bench: deps build ## Benchmarks: protocol on loopback, then a real Neovim 0.12.
	$(GO_BENCH) -bench . ./mcp/
	$(GO_BENCH) -bench 'SelectionLatency' -benchtime 50x ./host/
	$(GO_BENCH) -bench 'CursorMovedCost' -benchtime 5x ./host/
	$(GO_BENCH) -bench 'Startup' -benchtime 30x ./host/
	$(GO_BENCH) -bench 'OpenDiff' -benchtime 10x ./host/
	$(GO_BENCH) -bench 'CloseTab' -benchtime 40x ./host/
	$(GO_BENCH) -bench . ./chat/
	$(GO_BENCH) -bench 'ChatRender' -benchtime 3x ./host/

# claude.nvim and coder/claudecode.nvim side by side, medians of 3 runs. The
# peer is a checkout in .deps/peer/claudecode.nvim (or $CLAUDE_PEER); without
# one the script says how to get it and skips. Not part of make test.
bench-peer: deps build ## Benchmarks beside coder/claudecode.nvim (scripts/bench-peer).
	NVIM=$(NVIM_012) scripts/bench-peer

# claude.nvim's chat and codecompanion.nvim's ACP chat (claude-agent-acp), both
# on the pinned CLI against the API stand-in, medians of 3 runs. The peer is
# installed by scripts/install-peer-chat into .deps/peer (or $CLAUDE_CHAT_PEER);
# without it the script says how and skips. Not part of make test or e2e.
bench-chat-peer: deps build claude-cli ## Chat benchmarks beside codecompanion.nvim's ACP chat (scripts/bench-peer-chat).
	NVIM=$(NVIM_012) CLAUDE_BIN=$(CLI_DEPS)/$(CLAUDE_CLI_PINNED)/bin/claude scripts/bench-peer-chat

# Every fuzz target in the repository (func FuzzXxx in a _test.go file), one after
# another, each for FUZZTIME; the first failure stops the run and leaves its input
# under the package's testdata/fuzz/. Not part of make test: it runs for minutes.
FUZZTIME ?= 30s
fuzz: ## Run each fuzz target for FUZZTIME (default 30s).
	@set -eo pipefail; grep -rHo --include='*_test.go' --exclude-dir=.deps --exclude-dir=.git \
		'^func Fuzz[A-Za-z0-9_]*' . | sed 's/:func / /' | sort | while read -r file fn; do \
		pkg=$$(dirname "$$file"); \
		echo "== $$fn in $$pkg for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) "$$pkg"; \
	done

# The e2e scenarios build the plugin binary themselves. They run two at a time, one per
# core of CI's 2-core machine (four at a time is no faster there). Each Neovim version gets
# one PASS/FAIL line per scenario and a summary line; scripts/e2e-run runs one to three
# failed scenarios once more, alone, and says FLAKY when they pass then; any other failure
# fails the target. What failed is printed again at the end.
E2E_PARALLEL ?= 2
e2e: deps claude-cli acp-agent ## End-to-end tests: the real Claude Code CLI (CLAUDE_CLI_VERSION, default the pinned) in Neovim 0.10 and 0.12, and the ACP client with claude-agent-acp (no network).
	@$(GO) build -o bin/e2e-summary ./e2e/cmd/summary
	@rm -f bin/e2e-failures.txt
	@status=0; for nvim in $(TEST_NVIMS); do \
		version=$$($$nvim --version | head -n 1); \
		echo "== e2e with $$version and Claude Code $(CLAUDE_CLI_VERSION)"; \
		NVIM=$$nvim CLAUDE_BIN=$(CLAUDE_CLI_DIR)/bin/claude CLAUDE_ACP_AGENT=$(ACP_AGENT) GO=$(GO) \
			scripts/e2e-run "e2e ($$version)" -count=1 -timeout 20m -parallel $(E2E_PARALLEL) ./e2e/ || status=1; \
	done; \
	echo "== the chat core with the real CLI (no Neovim)"; \
	CLAUDE_BIN=$(CLAUDE_CLI_DIR)/bin/claude GO=$(GO) scripts/e2e-run "chat" -count=1 -timeout 10m ./chat/ || status=1; \
	echo "== the ACP client with the real claude-agent-acp on the CLI (no Neovim)"; \
	CLAUDE_BIN=$(CLAUDE_CLI_DIR)/bin/claude CLAUDE_ACP_AGENT=$(ACP_AGENT) GO=$(GO) \
		scripts/e2e-run "acp" -count=1 -timeout 10m ./acp/ ./acpchat/ || status=1; \
	if [ -s bin/e2e-failures.txt ]; then echo "== what failed, again"; cat bin/e2e-failures.txt; fi; \
	exit $$status

# Both ends of the supported range, one after the other (each on both Neovim versions).
e2e-range: ## make e2e on the pinned CLI and on the oldest supported one (CLAUDE_CLI_OLDEST).
	$(MAKE) e2e CLAUDE_CLI_VERSION=$(CLAUDE_CLI_PINNED)
	$(MAKE) e2e CLAUDE_CLI_VERSION=$(CLAUDE_CLI_OLDEST)

manifest: ## Regenerate rplugin/claude-nvim.vim from the Go handlers.
	$(GO) test ./host -run 'Manifest|LuaCalls' -update >/dev/null

# scripts/demo provisions what it lacks itself (one Neovim, the CLI).
demo: build ## Start a throwaway Neovim with the plugin loaded and Claude open.
	scripts/demo

clean: ## Remove build output (keeps .deps/).
	rm -rf bin dist bench.out
