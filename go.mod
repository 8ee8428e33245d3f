module github.com/claude-nvim/claude.nvim

go 1.25

require (
	github.com/google/uuid v1.6.0
	github.com/gorilla/websocket v1.5.3
	github.com/neovim/go-client v1.2.1
)
