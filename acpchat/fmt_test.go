package acpchat_test

import (
	"fmt"

	"github.com/claude-nvim/claude.nvim/chat"
)

func fmtEvent(ev chat.Event) string { return fmt.Sprintf("%T %+v", ev, ev) }
