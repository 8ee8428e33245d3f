package chatctl

import (
	"context"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
)

// The context window's fill, the effort and the usage, in the winbar: asked of the CLI when
// it starts and after each turn (get_context_usage, get_settings, get_usage), never per
// token; and :Claude effort.

// contextTimeout bounds the two control requests that refresh the winbar; the CLI answers
// them at once, even mid-turn.
const contextTimeout = 10 * time.Second

// contextQuiet is how long after a turn ends (or the CLI starts) the winbar's figures are
// asked for. The CLI works them out on the thread that takes the next message: asked at
// once, they held back a message sent right away (one queued during the turn, say) by about
// 20 ms of its first token (BenchmarkChatFirstToken: p50 77 against 60 ms without). A
// message sent within contextQuiet skips the refresh: its own turn's end asks again.
const contextQuiet = 300 * time.Millisecond

// refreshContextSoon runs refreshContext for dc's proc after contextQuiet, unless a message
// was sent to the CLI meanwhile or a later refresh was asked for.
func (c *Controller) refreshContextSoon(dc *dirChat, proc Backend) {
	asked := time.Now()
	c.mu.Lock()
	dc.contextAsks++
	ask := dc.contextAsks
	c.mu.Unlock()
	c.after(contextQuiet, func() {
		c.mu.Lock()
		skip := dc.contextAsks != ask || dc.lastSent.After(asked) || dc.proc != proc
		c.mu.Unlock()
		if !skip {
			c.refreshContext(dc.dir, proc)
		}
	})
}

// noteSent records that a message is being written to dir's CLI (see refreshContextSoon).
func (c *Controller) noteSent(dir string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dc := c.chats[dir]; dc != nil {
		dc.lastSent = time.Now()
	}
}

// refreshContext asks proc how full its context window is and which effort it applies, and
// hands both to dir's winbar as a "context" item. It runs in a goroutine of its own: the run
// loop must not wait on the CLI. A CLI that does not answer (gone, or too old) leaves the
// winbar as it was; the failure is logged.
func (c *Controller) refreshContext(dir string, proc Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), contextTimeout)
	defer cancel()
	it, err := contextItem(ctx, proc)
	if err != nil {
		c.log.Warn("chat: context usage", "dir", dir, "err", err)
		return
	}
	if c.running(dir) != proc {
		return // replaced meanwhile: its figures are not the chat's
	}
	c.show(ctx, dir, it)
}

// contextItem is the "context" item of proc: its window's fill and its effort.
func contextItem(ctx context.Context, proc Backend) (Item, error) {
	u, err := proc.ContextUsage(ctx)
	if err != nil {
		return Item{}, err
	}
	effort, err := proc.Effort(ctx)
	if err != nil {
		return Item{}, err
	}
	it := Item{Kind: "context", Tokens: u.Tokens, MaxTokens: u.MaxTokens, Percent: u.Percent, Effort: effort}
	// The cost and tokens so far beside the fill; a CLI that cannot tell leaves them out.
	if r, ok := proc.(UsageReporter); ok {
		if usage, err := r.Usage(ctx); err == nil {
			it.CostUSD, it.Summary = usage.CostUSD, meter(usage)
			it.TokensIn, it.TokensOut = usage.Tokens()
		}
	}
	return it, nil
}

// compactItem is the transcript's line for a compaction.
func compactItem(e chat.Compacted) Item {
	return Item{Kind: "compact", Subtype: e.Trigger, Tokens: e.PreTokens, PostTokens: e.PostTokens}
}

// EffortArgs are ClaudeHostChatEffort's: the chat's directory and an effort level
// (chat.EffortLevels), "" for the CLI's default.
type EffortArgs struct {
	Dir    string `msgpack:",array"`
	Effort string
}

// Effort serves ClaudeHostChatEffort (async): the running CLI's effort for its next
// requests, set with a control request (the conversation goes on in the same CLI). The
// transcript says so and the winbar shows what the CLI then applies.
func (c *Controller) Effort(args EffortArgs) {
	c.withRunning(args.Dir, "effort", func(ctx context.Context, proc Backend) error {
		if err := proc.SetEffort(ctx, args.Effort); err != nil {
			return err
		}
		it, err := contextItem(ctx, proc)
		if err != nil {
			return err
		}
		c.show(ctx, args.Dir, Item{Kind: "effort", Effort: it.Effort}, it)
		return nil
	})
}
