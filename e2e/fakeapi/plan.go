package fakeapi

import (
	"regexp"
	"strings"
)

// Questions and plans: the turns a model in plan mode writes. The CLI tells the model in
// plan mode where its plan file is ("You should create your plan at <path> using the Write
// tool."); the model writes the plan there and calls ExitPlanMode with no input, and the CLI
// reads the file into the permission request it sends.

// Question is one AskUserQuestion question as the tool's input_schema has it.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	MultiSelect bool     `json:"multiSelect"`
	Options     []Option `json:"options"`
}

// Option is one of a Question's choices.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

// Ask is a turn that asks the user questions with AskUserQuestion.
func Ask(questions ...Question) Turn {
	return Use("AskUserQuestion", map[string]any{"questions": questions})
}

// PlanWrite is the input of a Write to the plan file, whose path the stand-in takes from
// the request it answers.
type PlanWrite struct{ Content string }

// WritePlan is a turn that writes text to the plan file the CLI named in the request.
func WritePlan(text string) Turn { return Use("Write", PlanWrite{Content: text}) }

// ExitPlanMode is a turn that asks the user to approve the plan written (with WritePlan).
func ExitPlanMode() Turn { return Use("ExitPlanMode", map[string]any{}) }

var planFileRE = regexp.MustCompile(`create your plan at (\S+) using the Write tool`)

// PlanFile is the plan file the CLI named in this request, "" when it named none (not in
// plan mode, or the file exists already: then the request names it differently).
func (r Request) PlanFile() string {
	for _, text := range []string{r.SystemText(), r.UserText()} {
		if m := planFileRE.FindStringSubmatch(text); m != nil {
			return m[1]
		}
	}
	return ""
}

// withPlanFile fills in the path of t's PlanWrite inputs from rec.
func withPlanFile(t Turn, rec Request) Turn {
	tools := make([]ToolUse, len(t.Tools))
	for i, tu := range t.Tools {
		if w, ok := tu.Input.(PlanWrite); ok {
			tu.Input = map[string]any{"file_path": rec.PlanFile(), "content": w.Content}
		}
		tools[i] = tu
	}
	t.Tools = tools
	return t
}

// deferredByName reports whether rec tells the model that name is a deferred tool (2.1.332
// lists them, ExitPlanMode among them, one per line after "The following deferred tools
// are now available via ToolSearch").
func deferredByName(rec Request, name string) bool {
	_, list, ok := strings.Cut(rec.UserText(), "deferred tools are now available via ToolSearch")
	return ok && strings.Contains(list, "\n"+name+"\n")
}
