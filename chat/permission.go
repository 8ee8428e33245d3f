package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrNoSuchRequest is an answer to a permission request that is not pending (answered
// already, withdrawn, or never asked).
var ErrNoSuchRequest = errors.New("no such permission request")

// refusedMessage is what the CLI (and through it the model) is told of a permission request
// refused because another one with its request_id is pending.
const refusedMessage = "Refused: another permission request with this request_id is still waiting for the user's answer."

// maxPending bounds the permission requests waiting for the user at once: far more than a
// user answers (the CLI asks one at a time, a few with parallel tool calls), few enough that
// a CLI flooding requests holds bounded memory. Past it a request is refused.
const maxPending = 1000

// tooManyMessage is what the CLI is told of a request refused past maxPending.
const tooManyMessage = "Refused: too many permission requests are waiting for the user's answer."

// refuseTimeout bounds the write of a refusal: a CLI that stopped reading must not keep the
// goroutine that answers it.
const refuseTimeout = 10 * time.Second

// maxRefusing bounds the refusals being written at once. A CLI that floods duplicates while
// it does not read its stdin gets the rest shown but not written: it would not read them.
const maxRefusing = 16

// permissions holds the permission requests not answered yet. It is the one store of them:
// the editor side keeps none, so an answer finds the request the user was shown in one
// lookup, here.
type permissions struct {
	mu       sync.Mutex
	pending  map[string]PermissionRequest // by RequestID
	stored   uint64                       // requests stored so far: numbers the tickets
	refusing chan struct{}                // a slot per refusal being written (maxRefusing)
}

func newPermissions() *permissions {
	return &permissions{pending: map[string]PermissionRequest{}, refusing: make(chan struct{}, maxRefusing)}
}

// add stores r, with its Ticket set, unless a request with its id is pending or maxPending
// are; else it says why not, for the user, and what the CLI is told. A second request under
// a pending id is refused: stored, it would make the user's answer to the first one carry
// its input.
func (p *permissions) add(r PermissionRequest) (_ PermissionRequest, why, message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, dup := p.pending[r.RequestID]; dup {
		return r, "its request_id is still waiting for your answer to another request", refusedMessage
	}
	if len(p.pending) >= maxPending {
		return r, fmt.Sprintf("%d requests are waiting for your answer already", maxPending), tooManyMessage
	}
	p.stored++
	r.Ticket = r.RequestID + "#" + strconv.FormatUint(p.stored, 10)
	p.pending[r.RequestID] = r
	return r, "", ""
}

// take removes the pending request ticket names and returns it, if check (nil for none)
// accepts it; a request check refuses stays pending. A ticket of an earlier request under
// the same RequestID (answered or withdrawn since) names nothing.
func (p *permissions) take(ticket string, check func(PermissionRequest) error) (PermissionRequest, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := strings.LastIndexByte(ticket, '#')
	if i < 0 {
		return PermissionRequest{}, ErrNoSuchRequest
	}
	r, ok := p.pending[ticket[:i]]
	if !ok || r.Ticket != ticket {
		return PermissionRequest{}, ErrNoSuchRequest
	}
	if check != nil {
		if err := check(r); err != nil {
			return r, err
		}
	}
	delete(p.pending, r.RequestID)
	return r, nil
}

// withdraw removes the pending request id, which the CLI withdrew, and returns its ticket
// ("" when none was pending).
func (p *permissions) withdraw(id string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.pending[id]
	delete(p.pending, id)
	return r.Ticket
}

// Allow lets the tool of the request ticket names (PermissionRequest.Ticket) run with
// updatedInput, which may differ from what the model asked for (the CLI then uses it: a
// user's edit of a proposed change reaches the file this way); nil means the input of that
// request, the one that was shown. suggestions are the indexes (from 0) of the request's
// Suggestions the user picked, e.g. setMode acceptEdits with the CLI's destination
// "session"; an index it does not have is an error and leaves the request pending.
func (s *Process) Allow(ctx context.Context, ticket string, updatedInput json.RawMessage, suggestions ...int) error {
	r, err := s.perms.take(ticket, func(r PermissionRequest) error {
		for _, i := range suggestions {
			if i < 0 || i >= len(r.Suggestions) {
				return fmt.Errorf("no suggestion %d: the request has %d", i+1, len(r.Suggestions))
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("allow %s: %w", ticket, err)
	}
	if updatedInput == nil {
		updatedInput = r.Input
	}
	if len(updatedInput) == 0 {
		// The CLI needs an object here: it replaces the tool's input with it.
		updatedInput = json.RawMessage("{}")
	}
	var perms []json.RawMessage
	for _, i := range suggestions {
		perms = append(perms, r.Suggestions[i])
	}
	return s.answer(ctx, r.RequestID, permissionAllow{Behavior: "allow", UpdatedInput: updatedInput, UpdatedPermissions: perms})
}

// Deny refuses the tool of the request ticket names; the model gets message as the tool's
// (error) result.
func (s *Process) Deny(ctx context.Context, ticket, message string) error {
	r, err := s.perms.take(ticket, nil)
	if err != nil {
		return fmt.Errorf("deny %s: %w", ticket, err)
	}
	if message == "" {
		message = "The user denied this tool use."
	}
	return s.answer(ctx, r.RequestID, permissionDeny{Behavior: "deny", Message: message})
}

// DenyAndStop refuses the tool of the request ticket names and ends the turn, as the
// terminal's "No" does: the CLI interrupts the turn and waits for the user's next message
// instead of asking the model again (doc.go). The model gets message with the next turn.
func (s *Process) DenyAndStop(ctx context.Context, ticket, message string) error {
	r, err := s.perms.take(ticket, nil)
	if err != nil {
		return fmt.Errorf("deny %s: %w", ticket, err)
	}
	if message == "" {
		message = "The user denied this tool use."
	}
	return s.answer(ctx, r.RequestID, permissionDeny{Behavior: "deny", Message: message, Interrupt: true})
}

// refuse denies r without asking anyone (why, for the user; message, for the CLI) and tells
// the editor (PermissionRefused). The write runs apart from the reader, which must go on.
func (s *Process) refuse(r PermissionRequest, why, message string) {
	s.log.Warn("claude: refused a permission request", "request", r.RequestID, "tool", r.ToolName, "why", why)
	s.batch.add(PermissionRefused{RequestID: r.RequestID, ToolName: r.ToolName, Reason: why})
	s.denyUnread(r.RequestID, message)
}

func (s *Process) answer(ctx context.Context, requestID string, v any) error {
	resp, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("answer %s: %w", requestID, err)
	}
	return s.in.writeJSON(ctx, controlResponseLine{Type: "control_response", Response: controlResponse{
		Subtype: "success", RequestID: requestID, Response: resp,
	}})
}
