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

.PHONY: nvim-0.10 nvim-0.12 help build test lint bench e2e deps nvim claude-cli manifest demo clean

help: ## List the targets.
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

build: ## Build the remote-plugin binary into bin/claude-nvim.
	$(GO) build -trimpath -o $(BIN) .

nvim-0.10:
	scripts/install-neovim 0.10 $(DEPS)/nvim-0.10
nvim-0.12:
	scripts/install-neovim 0.12 $(DEPS)/nvim-0.12

nvim: nvim-0.10 nvim-0.12 ## Install Neovim 0.10 and 0.12 under .deps/ (no root, nothing system-wide).

claude-cli: ## Install the pinned Claude Code CLI under .deps/ (for make e2e).
	scripts/install-claude-cli $(DEPS)/claude-code

deps: nvim ## Everything make test needs (Neovim; Go modules come with go build).
	$(GO) mod download

test: deps build lint ## Run every test, on Neovim 0.10 and on 0.12.
	@set -e; for nvim in $(TEST_NVIMS); do \
		echo "== go test with NVIM=$$nvim"; \
		NVIM=$$nvim $(GO) test -count=1 ./...; \
	done

lint: ## gofmt and go vet must be clean.
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
		if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi
	$(GO) vet ./...

bench: deps build ## Benchmarks (medians over several runs) on Neovim 0.12.
	NVIM=$(NVIM_012) $(GO) test -run '^$$' -bench . -benchtime 1x -count 1 ./... >/dev/null
	NVIM=$(NVIM_012) $(GO) test -run '^$$' -bench . -count 5 ./... | tee bench.out
	@echo "raw results in bench.out; medians: go run golang.org/x/perf/cmd/benchstat@v0.0.0-20250515181824-8e3ba7d1b8b4 bench.out"

e2e: deps build claude-cli ## End-to-end tests with the real Claude Code CLI (no network).
	NVIM=$(NVIM_012) CLAUDE_BIN=$(DEPS)/claude-code/bin/claude $(GO) test -count=1 -v ./e2e/...

manifest: build ## Regenerate rplugin/claude-nvim.vim from the Go handlers.
	$(BIN) -manifest claude-nvim > rplugin/claude-nvim.vim

demo: deps build ## Start a throwaway Neovim with the plugin loaded and Claude open.
	scripts/demo

clean: ## Remove build output (keeps .deps/).
	rm -rf bin bench.out
