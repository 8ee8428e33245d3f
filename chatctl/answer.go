package chatctl

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/claude-nvim/claude.nvim/chat"
)

// AnswerArgs are ClaudeHostChatAnswer's: the user's answer to a permission request.
type AnswerArgs struct {
	Dir string `msgpack:"dir"`
	// RequestID names the request as the transcript's item did (Item.ID: the request's
	// chat.PermissionRequest.Ticket, not the CLI's id alone).
	RequestID string `msgpack:"request_id"`
	Allow     bool   `msgpack:"allow"`
	// Suggestion is the 1-based index of the request's permission_suggestions entry the user
	// picked with the allow; 0 for none.
	Suggestion int    `msgpack:"suggestion"`
	Message    string `msgpack:"message"` // deny: what the model is told
	// Stop ends the turn with the denial (a plain deny, as the terminal's "No"); without it
	// the model goes on, told Message (deny and tell Claude why).
	Stop bool `msgpack:"stop"`
	// Input replaces the tool's input on allow (the user's edit of a proposal); nil keeps the
	// input of the request as it was shown.
	Input map[string]any `msgpack:"input"`
	// Answers answer an AskUserQuestion request (with Allow): each question's text to the
	// label chosen, labels joined with ", " for a multi-select one, or the user's own text.
	Answers map[string]string `msgpack:"answers"`
	// Approve approves an ExitPlanMode request (with Allow): Plan, when not "", is the plan
	// as the user edited it; Mode the permission mode to go on in ("" leaves the CLI's,
	// default). Keeping on planning is a deny whose Message is the user's feedback.
	Approve bool   `msgpack:"approve"`
	Plan    string `msgpack:"plan"`
	Mode    string `msgpack:"mode"`
}

// Answer serves ClaudeHostChatAnswer (async). The request is looked up once, by the running
// CLI's chat process (chat.Process keeps the pending requests), when the answer is written.
func (c *Controller) Answer(all []AnswerArgs) {
	if len(all) == 0 {
		return
	}
	a := all[0]
	proc := c.running(a.Dir)
	if proc == nil {
		c.log.Info("chat: answer with no CLI running", "dir", a.Dir, "request", a.RequestID)
		return
	}
	c.observe(a.Dir, []Item{{Kind: "answered", ID: a.RequestID}})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		defer cancel()
		err := answer(ctx, proc, a)
		if errors.Is(err, chat.ErrNoSuchRequest) {
			c.log.Info("chat: answer to a request no longer pending", "dir", a.Dir, "request", a.RequestID)
			return
		}
		if err != nil {
			c.fail(a.Dir, "answer", err)
		}
	}()
}

func answer(ctx context.Context, proc Backend, a AnswerArgs) error {
	switch {
	case !a.Allow && a.Stop:
		return proc.DenyAndStop(ctx, a.RequestID, a.Message)
	case !a.Allow:
		return proc.Deny(ctx, a.RequestID, a.Message)
	case a.Answers != nil:
		asker, err := capable[Asker](proc, "answer the questions")
		if err != nil {
			return err
		}
		return asker.AnswerQuestions(ctx, a.RequestID, a.Answers)
	case a.Approve:
		asker, err := capable[Asker](proc, "approve the plan")
		if err != nil {
			return err
		}
		return asker.ApprovePlan(ctx, a.RequestID, a.Plan, a.Mode)
	}
	var input json.RawMessage
	if a.Input != nil {
		var err error
		if input, err = json.Marshal(a.Input); err != nil {
			return err
		}
	}
	var picked []int
	if a.Suggestion > 0 {
		picked = append(picked, a.Suggestion-1)
	}
	return proc.Allow(ctx, a.RequestID, input, picked...)
}
