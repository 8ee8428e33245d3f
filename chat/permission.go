package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// ErrNoSuchRequest is an answer to a permission request that is not pending (answered
// already, withdrawn, or never asked).
var ErrNoSuchRequest = errors.New("no such permission request")

// permissions holds the permission requests not answered yet.
type permissions struct {
	mu      sync.Mutex
	pending map[string]PermissionRequest
}

func (p *permissions) add(r PermissionRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending[r.RequestID] = r
}

func (p *permissions) take(id string) (PermissionRequest, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.pending[id]
	delete(p.pending, id)
	return r, ok
}

// Allow lets the tool run with updatedInput, which may differ from what the model asked for
// (the CLI then uses it: a user's edit of a proposed change reaches the file this way); nil
// means the input as requested. updatedPermissions are any of the request's Suggestions the
// user picked, e.g. setMode acceptEdits for the session.
func (s *Session) Allow(ctx context.Context, requestID string, updatedInput json.RawMessage, updatedPermissions ...json.RawMessage) error {
	r, ok := s.perms.take(requestID)
	if !ok {
		return fmt.Errorf("allow %s: %w", requestID, ErrNoSuchRequest)
	}
	if updatedInput == nil {
		updatedInput = r.Input
	}
	if len(updatedInput) == 0 {
		// The CLI needs an object here: it replaces the tool's input with it.
		updatedInput = json.RawMessage("{}")
	}
	return s.answer(ctx, requestID, permissionAllow{Behavior: "allow", UpdatedInput: updatedInput, UpdatedPermissions: updatedPermissions})
}

// Deny refuses the tool; the model gets message as the tool's (error) result.
func (s *Session) Deny(ctx context.Context, requestID, message string) error {
	if _, ok := s.perms.take(requestID); !ok {
		return fmt.Errorf("deny %s: %w", requestID, ErrNoSuchRequest)
	}
	if message == "" {
		message = "The user denied this tool use."
	}
	return s.answer(ctx, requestID, permissionDeny{Behavior: "deny", Message: message})
}

func (s *Session) answer(ctx context.Context, requestID string, v any) error {
	resp, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("answer %s: %w", requestID, err)
	}
	return s.in.writeJSON(ctx, controlResponseLine{Type: "control_response", Response: controlResponse{
		Subtype: "success", RequestID: requestID, Response: resp,
	}})
}
