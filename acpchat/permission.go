package acpchat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/chat"
)

// pending is a permission request waiting for the user.
type pending struct {
	req    *acp.PermissionRequest
	answer chan acp.PermissionOutcome // takes one answer
}

// RequestPermission serves acp.PermissionHandler: the request becomes the chat's own
// permission line (chat.PermissionRequest), answered by the user's keys (Allow, Deny,
// DenyAndStop); nothing is allowed without them. When ctx ends (the turn cancelled, the
// agent withdrawing it, the agent gone), the line is withdrawn.
func (b *Backend) RequestPermission(ctx context.Context, req *acp.PermissionRequest) (acp.PermissionOutcome, error) {
	tc := req.ToolCall
	var evs []chat.Event
	evs = append(evs, b.tool(tc.ToolCallID, func(c *acp.ToolCall) { fold(c, &tc) })...)
	p := &pending{req: req, answer: make(chan acp.PermissionOutcome, 1)}
	b.mu.Lock()
	b.tickets++
	ticket := fmt.Sprintf("acp-%d", b.tickets)
	b.perms[ticket] = p
	var call acp.ToolCall
	if t := b.tools[tc.ToolCallID]; t != nil {
		call = t.call
	} else {
		fold(&call, &tc)
	}
	b.mu.Unlock()
	pr := chat.PermissionRequest{
		RequestID: ticket, Ticket: ticket, ToolName: toolName(call), DisplayName: call.Title,
		Description: permissionText(call), ToolUseID: tc.ToolCallID, Input: call.RawInput,
	}
	if b.opts.Tools != nil && hasInput(call.RawInput) {
		// Before anyone can allow it: the ledger follows the file of a tool that may
		// write one (outside git it records only the files the tools named).
		b.opts.Tools(req.SessionID, pr.ToolName, tc.ToolCallID, call.RawInput)
	}
	if o, ok := req.Option(acp.AllowAlways); ok {
		s, _ := json.Marshal(o.Name)
		pr.Suggestions = []json.RawMessage{s}
	}
	b.q.put(append(evs, pr)...)
	defer func() {
		b.mu.Lock()
		delete(b.perms, ticket)
		b.mu.Unlock()
	}()
	select {
	case out := <-p.answer:
		return out, nil
	case <-ctx.Done():
		b.mu.Lock()
		_, unanswered := b.perms[ticket]
		b.mu.Unlock()
		if unanswered { // not the user's DenyAndStop, whose cancel ended it
			b.q.put(chat.PermissionCancelled{RequestID: ticket, Ticket: ticket})
		}
		return acp.Cancelled, nil
	}
}

// permissionText is what the permission line says the tool would do: its title, and for
// an edit the diff it would apply.
func permissionText(c acp.ToolCall) string {
	d := c.Title
	for _, cc := range c.Content {
		if cc.Type == "diff" {
			d += "\n" + diffText(cc)
		}
	}
	return d
}

// take removes the pending request of ticket.
func (b *Backend) take(ticket string) (*pending, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.perms[ticket]
	if p == nil {
		return nil, fmt.Errorf("%w: %s", chat.ErrNoSuchRequest, ticket)
	}
	delete(b.perms, ticket)
	return p, nil
}

// errEditedInput refuses an answer that changes the tool's input: ACP has no way to.
var errEditedInput = errors.New("this agent cannot run a tool with input you changed (the Agent Client Protocol has no such answer); allow or deny it as it is")

// Allow answers allow_once, or allow_always when the user picked the "always" choice (the
// one suggestion offered).
func (b *Backend) Allow(ctx context.Context, ticket string, updatedInput json.RawMessage, suggestions ...int) error {
	if len(updatedInput) > 0 {
		return errEditedInput
	}
	b.mu.Lock()
	p := b.perms[ticket]
	b.mu.Unlock()
	if p == nil {
		return fmt.Errorf("%w: %s", chat.ErrNoSuchRequest, ticket)
	}
	kinds := []string{acp.AllowOnce, acp.AllowAlways}
	if len(suggestions) > 0 {
		kinds = []string{acp.AllowAlways, acp.AllowOnce}
	}
	o, ok := p.req.Option(kinds...)
	if !ok {
		return errors.New("the agent offered no option that allows it")
	}
	if _, err := b.take(ticket); err != nil {
		return err
	}
	p.answer <- acp.Select(o)
	return nil
}

// Deny answers reject_once (reject_always when it is all the agent offers). The turn goes
// on: the agent hears the refusal and may try something else. message is not sent: ACP
// has no place for it.
func (b *Backend) Deny(ctx context.Context, ticket, message string) error {
	p, err := b.take(ticket)
	if err != nil {
		return err
	}
	if o, ok := p.req.Option(acp.RejectOnce, acp.RejectAlways); ok {
		p.answer <- acp.Select(o)
		return nil
	}
	// No refusal on offer: only cancelling the turn refuses.
	p.answer <- acp.Cancelled
	return b.Interrupt(ctx)
}

// DenyAndStop refuses and stops the turn: a refusal alone does not stop an ACP turn, only
// session/cancel does. The cancel goes first, so the agent cannot act on the refusal
// (try something else) before it hears the turn is over; the request is then answered
// "cancelled", as the protocol wants of a request of a cancelled turn.
func (b *Backend) DenyAndStop(ctx context.Context, ticket, message string) error {
	p, err := b.take(ticket)
	if err != nil {
		return err
	}
	err = b.Interrupt(ctx)
	p.answer <- acp.Cancelled
	return err
}

// failPermissions withdraws every request still waiting: the agent is gone.
func (b *Backend) failPermissions() {
	b.mu.Lock()
	perms := b.perms
	b.perms = map[string]*pending{}
	b.mu.Unlock()
	for t, p := range perms {
		p.answer <- acp.Cancelled
		b.q.put(chat.PermissionCancelled{RequestID: t, Ticket: t})
	}
}
