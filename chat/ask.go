package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// The two tools whose "permission" request is really a question for the user: the CLI asks
// can_use_tool for them like for any tool, and the user's answer travels in the allow's
// updatedInput (see doc.go). ToolAskUserQuestion carries questions; ToolExitPlanMode the plan
// the model wants approved.
const (
	ToolAskUserQuestion = "AskUserQuestion"
	ToolExitPlanMode    = "ExitPlanMode"
)

// ErrWrongTool is an answer meant for another kind of request (answers to a request that
// is no AskUserQuestion, a plan approval of one that is no ExitPlanMode).
var ErrWrongTool = errors.New("the request is for another tool")

// Question is one of AskUserQuestion's questions, as its input_schema names the fields.
type Question struct {
	Question    string   `json:"question" msgpack:"question"`
	Header      string   `json:"header" msgpack:"header"` // a short label, e.g. "Colour"
	MultiSelect bool     `json:"multiSelect" msgpack:"multi_select"`
	Options     []Option `json:"options" msgpack:"options"`
}

// Option is one choice of a Question. The user may also type an answer of their own.
type Option struct {
	Label       string `json:"label" msgpack:"label"`
	Description string `json:"description" msgpack:"description"`
	// Preview is optional content to compare options by (a mockup, a code snippet), which
	// the CLI's dialog shows for the option under the cursor.
	Preview string `json:"preview,omitempty" msgpack:"preview,omitempty"`
}

// Questions reads AskUserQuestion's input.
func Questions(input json.RawMessage) ([]Question, error) {
	var in struct {
		Questions []Question `json:"questions"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("read the questions: %w", err)
	}
	return in.Questions, nil
}

// Plan reads ExitPlanMode's input: the plan (the CLI puts the plan file's text there) and
// that file's path ("" when the model wrote none).
func Plan(input json.RawMessage) (plan, file string) {
	var in struct {
		Plan         string `json:"plan"`
		PlanFilePath string `json:"planFilePath"`
	}
	json.Unmarshal(input, &in)
	return in.Plan, in.PlanFilePath
}

// AnswerQuestions answers the AskUserQuestion request ticket names: answers maps each
// question's text to the chosen label, labels joined with ", " for a multi-select one, or
// the user's own text. The CLI expects them so: the request's input plus an "answers" map,
// as allow's updatedInput; the model then gets `"question"="answer"` pairs. Every question
// must be answered and no other; else the request stays pending.
func (s *Process) AnswerQuestions(ctx context.Context, ticket string, answers map[string]string) error {
	var updated json.RawMessage
	r, err := s.perms.take(ticket, func(r PermissionRequest) error {
		if r.ToolName != ToolAskUserQuestion {
			return fmt.Errorf("%w: %s", ErrWrongTool, r.ToolName)
		}
		var err error
		updated, err = withAnswers(r.Input, answers)
		return err
	})
	if err != nil {
		return fmt.Errorf("answer %s: %w", ticket, err)
	}
	return s.answer(ctx, r.RequestID, permissionAllow{Behavior: "allow", UpdatedInput: updated})
}

// withAnswers is input with answers added, once each of input's questions has one.
func withAnswers(input json.RawMessage, answers map[string]string) (json.RawMessage, error) {
	qs, err := Questions(input)
	if err != nil {
		return nil, err
	}
	for _, q := range qs {
		if _, ok := answers[q.Question]; !ok {
			return nil, fmt.Errorf("no answer to %q", q.Question)
		}
	}
	for text := range answers {
		if !slices.ContainsFunc(qs, func(q Question) bool { return q.Question == text }) {
			return nil, fmt.Errorf("an answer to %q, which was not asked", text)
		}
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	if in["answers"], err = json.Marshal(answers); err != nil {
		return nil, err
	}
	return json.Marshal(in)
}

// ApprovePlan approves the ExitPlanMode request ticket names. plan, when not "", replaces
// the plan the model wrote (the user's edit: the CLI tells the model it was edited and uses
// it); mode, when not "", is the permission mode to go on in (one of PermissionModes but
// "plan"): without it the CLI leaves plan mode for "default". To keep planning, Deny with
// the user's feedback: the model gets it and plan mode stays.
func (s *Process) ApprovePlan(ctx context.Context, ticket, plan, mode string) error {
	if mode != "" && (mode == "plan" || !slices.Contains(PermissionModes, mode)) {
		return fmt.Errorf("approve %s: cannot go on in mode %q", ticket, mode)
	}
	r, err := s.perms.take(ticket, func(r PermissionRequest) error {
		if r.ToolName != ToolExitPlanMode {
			return fmt.Errorf("%w: %s", ErrWrongTool, r.ToolName)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("approve %s: %w", ticket, err)
	}
	updated := r.Input
	if plan != "" {
		var in map[string]json.RawMessage
		if json.Unmarshal(r.Input, &in) != nil || in == nil {
			in = map[string]json.RawMessage{}
		}
		in["plan"], _ = json.Marshal(plan)
		if updated, err = json.Marshal(in); err != nil {
			return fmt.Errorf("approve %s: %w", ticket, err)
		}
	}
	if len(updated) == 0 {
		updated = json.RawMessage("{}")
	}
	var perms []json.RawMessage
	if mode != "" {
		perms = append(perms, json.RawMessage(fmt.Sprintf(`{"type":"setMode","mode":%q,"destination":"session"}`, mode)))
	}
	return s.answer(ctx, r.RequestID, permissionAllow{Behavior: "allow", UpdatedInput: updated, UpdatedPermissions: perms})
}
