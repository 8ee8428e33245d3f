package chatctl

import (
	"context"
	"strconv"
	"time"
)

// @-completion as the CLI's own (issue 39 item 6): the chat's input asks the CLI which files
// an @-mention completes to (file_suggestions), so the chat and the terminal suggest the same.

// suggestWarm bounds the wait for the CLI's file index on a chat's first @: the CLI answers
// the request that makes it build the index with no files, so it is asked again, every
// suggestPoll, until files come or this has passed.
const (
	suggestWarm = 3 * time.Second
	suggestPoll = 150 * time.Millisecond
)

// Suggester completes @-mentions as the agent's own typeahead does: the Claude CLI
// (chat.Process).
type Suggester interface {
	FileSuggestions(ctx context.Context, query string) ([]string, error)
}

// SuggestArgs are ClaudeHostChatSuggest's: the chat, the text after the @, and Lua's number
// for the request (an answer to an older one is dropped).
type SuggestArgs struct {
	Dir   string `msgpack:",array"`
	Query string
	Seq   int
}

// Suggest serves ClaudeHostChatSuggest (async): the CLI's completions for an @-mention, as a
// "suggestions" item (Files, ID the request's number; Text what failed).
func (c *Controller) Suggest(a SuggestArgs) {
	running := c.running(a.Dir)
	proc, _ := running.(Suggester)
	c.mu.Lock()
	dc := c.chats[a.Dir]
	warm := dc != nil && dc.suggested
	if dc != nil {
		dc.suggested = true
	}
	c.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), contextTimeout)
		defer cancel()
		it := Item{Kind: "suggestions", ID: strconv.Itoa(a.Seq), Files: []string{}}
		if proc == nil {
			it.Text = "no chat CLI runs"
			if running != nil {
				it.Text = "this chat's agent offers no @ completions"
			}
			c.show(ctx, a.Dir, it)
			return
		}
		files, err := proc.FileSuggestions(ctx, a.Query)
		if err == nil && len(files) == 0 && !warm {
			files, err = c.suggestWarming(ctx, proc, a.Query)
		}
		if err != nil {
			it.Text = err.Error()
		} else {
			it.Files = files
		}
		c.show(ctx, a.Dir, it)
	}()
}

// suggestWarming asks proc again while it builds its file index (nothing says when that is
// done), for suggestWarm at most.
func (c *Controller) suggestWarming(ctx context.Context, proc Suggester, query string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, suggestWarm)
	defer cancel()
	tick := time.NewTicker(suggestPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, nil
		case <-tick.C:
		}
		files, err := proc.FileSuggestions(ctx, query)
		if err != nil || len(files) > 0 {
			return files, err
		}
	}
}
