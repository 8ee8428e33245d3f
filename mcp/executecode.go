package mcp

import (
	"context"
	"encoding/json"
)

// CodeRunner runs the model's Python for the executeCode tool. It asks the
// user first and answers a refusal, like any failure, with an isError
// result saying why; it never runs code the user did not allow.
type CodeRunner interface {
	ExecuteCode(ctx context.Context, code string) (*ToolResult, error)
}

// ExecuteCodeTool is the executeCode tool the VS Code extension offers
// (Jupyter). The CLI shows an IDE tool to the model only when its name is
// one it knows (2.1.332: getDiagnostics and executeCode), as
// mcp__ide__executeCode with this description and schema; so it is listed
// only when the user turned it on (tools.execute_code).
func ExecuteCodeTool(r CodeRunner) Tool {
	return Tool{
		Name: "executeCode",
		Description: "Execute Python code in the Jupyter kernel of the notebook open in the user's editor. " +
			"The user sees the code and must allow each run. The kernel's state (variables, imports) persists " +
			"across calls until the kernel restarts; do not change it unless the user asks. Returns the output " +
			"text, errors with their traceback, and plots as images.",
		InputSchema: schemaExecuteCode,
		Handler: func(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
			var a struct {
				Code string `json:"code"`
			}
			if err := DecodeArgs(raw, &a); err != nil {
				return nil, err
			}
			return r.ExecuteCode(ctx, a.Code)
		},
	}
}

var schemaExecuteCode = json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":"The Python code to run in the kernel"}},"required":["code"],"additionalProperties":false}`)
