package mcp

import "encoding/json"

// Input schemas of the IDE tools, in the draft-07 dialect the VS Code
// extension publishes. Property names are the wire names the CLI sends.

const schemaDialect = `"$schema":"http://json-schema.org/draft-07/schema#"`

var (
	schemaOpenDiff = json.RawMessage(`{"type":"object","properties":{` +
		`"old_file_path":{"type":"string","description":"Absolute path of the file being changed"},` +
		`"new_file_path":{"type":"string","description":"Absolute path the proposal is for (usually the same file)"},` +
		`"new_file_contents":{"type":"string","description":"The whole proposed file"},` +
		`"tab_name":{"type":"string","description":"Unique name of the diff view; close_tab refers to it"}},` +
		`"required":["old_file_path","new_file_path","new_file_contents","tab_name"],` +
		`"additionalProperties":false,` + schemaDialect + `}`)

	schemaCloseTab = json.RawMessage(`{"type":"object","properties":{` +
		`"tab_name":{"type":"string","description":"Name of the diff view to close"}},` +
		`"required":["tab_name"],"additionalProperties":false,` + schemaDialect + `}`)

	schemaGetDiagnostics = json.RawMessage(`{"type":"object","properties":{` +
		`"uri":{"type":"string","description":"file:// URI of one file; omit for every file"}},` +
		`"additionalProperties":false,` + schemaDialect + `}`)

	schemaOpenFile = json.RawMessage(`{"type":"object","properties":{` +
		`"filePath":{"type":"string","description":"Path of the file to open"},` +
		`"preview":{"type":"boolean","description":"Open as a preview","default":false},` +
		`"startText":{"type":"string","description":"Select from the first match of this text"},` +
		`"endText":{"type":"string","description":"Select to the end of the first later match of this text"},` +
		`"selectToEndOfLine":{"type":"boolean","description":"Extend the selection to the end of its last line","default":false},` +
		`"startLine":{"type":"integer","description":"First line to select, 1-based"},` +
		`"endLine":{"type":"integer","description":"Last line to select, 1-based"},` +
		`"makeFrontmost":{"type":"boolean","description":"Focus the file; false only reports on it","default":true}},` +
		`"required":["filePath"],"additionalProperties":false,` + schemaDialect + `}`)

	schemaFilePath = json.RawMessage(`{"type":"object","properties":{` +
		`"filePath":{"type":"string","description":"Absolute path of the file"}},` +
		`"required":["filePath"],"additionalProperties":false,` + schemaDialect + `}`)

	schemaNoArgs = json.RawMessage(`{"type":"object","properties":{},` +
		`"additionalProperties":false,` + schemaDialect + `}`)
)
