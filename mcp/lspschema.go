package mcp

import (
	"encoding/json"
	"strings"
)

// Input schemas of the language-server tools. A position is a path, a
// 1-based line and, on that line, a symbol's name or a 1-based column: a
// model names what it read more surely than it counts columns.

const (
	propPath   = `"path":{"type":"string","description":"The file: absolute, or relative to the workspace"}`
	propLine   = `"line":{"type":"integer","minimum":1,"description":"1-based line number"}`
	propSymbol = `"symbol":{"type":"string","description":"The name on that line to ask about (its first occurrence there); give this or column"}`
	propColumn = `"column":{"type":"integer","minimum":1,"description":"1-based column, in characters, on that line; not needed with symbol"}`
	propMax    = `"max_results":{"type":"integer","minimum":1,"maximum":500,"description":"At most this many are listed (default 50); the rest are counted"}`
)

// lspSchema is an object schema with these properties and required names.
func lspSchema(required []string, props ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	return json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":` + string(req) +
		`,"additionalProperties":false,` + schemaDialect + `}`)
}

var positionRequired = []string{"path", "line"}

var (
	schemaLSPPosition   = lspSchema(positionRequired, propPath, propLine, propSymbol, propColumn)
	schemaLSPDefinition = lspSchema(positionRequired, propPath, propLine, propSymbol, propColumn,
		`"kind":{"type":"string","enum":["definition","type_definition","implementation","declaration"],"description":"What to go to: the definition (default), the type's definition, the implementations (of an interface or abstract method), or the declaration"}`)
	schemaLSPReferences = lspSchema(positionRequired, propPath, propLine, propSymbol, propColumn,
		`"include_declaration":{"type":"boolean","description":"Count the declaration among the references (default false)"}`, propMax)
	schemaLSPFile             = lspSchema([]string{"path"}, propPath, propMax)
	schemaLSPWorkspaceSymbols = lspSchema([]string{"query"},
		`"query":{"type":"string","description":"The name, or part of it, to search for"}`,
		`"path":{"type":"string","description":"A file whose language server to ask (default: every running server)"}`, propMax)
	schemaLSPCalls = lspSchema(positionRequired, propPath, propLine, propSymbol, propColumn,
		`"direction":{"type":"string","enum":["incoming","outgoing"],"description":"incoming (default): who calls it; outgoing: what it calls"}`, propMax)
	schemaLSPCodeActions = lspSchema(positionRequired, propPath, propLine,
		`"end_line":{"type":"integer","minimum":1,"description":"Last line of the range (default: line)"}`, propSymbol, propColumn)
	schemaLSPRename = lspSchema([]string{"path", "line", "new_name"}, propPath, propLine, propSymbol, propColumn,
		`"new_name":{"type":"string","description":"The new name"}`)
)
