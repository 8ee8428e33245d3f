package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// errUnknownLine marks a line of a type the parser does not know; the reader logs and skips it.
var errUnknownLine = errors.New("unknown line type")

// parser turns the CLI's lines into events. It keeps what it needs across lines: the blocks
// of the message being streamed, so that the complete assistant line that follows the
// deltas does not show the same text twice. One goroutine uses it.
type parser struct {
	emit func(Event)
	// control is called for control_request (other than can_use_tool) and control_response
	// lines; nil ignores them.
	control func(l *inLine)
	cwd     string

	msgID    string         // the message being streamed
	streamed map[int]int    // block index → bytes of text/thinking streamed so far
	kinds    map[int]string // block index → block type
	toolIDs  map[int]string // block index → tool use id
	seen     int            // assistant lines of msgID so far: the next one is block #seen
	tasks    todoList       // the task list the model keeps (todo.go)
	// compacted is set by a compact_boundary until the next user line: the summary the
	// CLI writes there is no prompt of the user's.
	compacted bool
}

func newParser(emit func(Event)) *parser {
	return &parser{emit: emit, streamed: map[int]int{}, kinds: map[int]string{}, toolIDs: map[int]string{}}
}

// parse handles one line (without its newline). An error means the line was skipped.
func (p *parser) parse(line []byte) error {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if len(line) >= bigLineMin {
		return p.parseBig(line)
	}
	return p.parseLine(line)
}

func (p *parser) parseLine(line []byte) error {
	var l inLine
	if err := json.Unmarshal(line, &l); err != nil {
		return fmt.Errorf("decode line: %w", err)
	}
	switch l.Type {
	case "stream_event":
		return p.streamEvent(&l)
	case "assistant":
		return p.assistant(&l)
	case "user":
		return p.user(&l)
	case "system":
		p.system(&l)
	case "result":
		p.result(&l)
	case "control_request":
		return p.controlRequest(&l)
	case "control_response":
		if p.control != nil {
			p.control(&l)
		}
	case "control_cancel_request":
		p.emit(PermissionCancelled{RequestID: l.RequestID})
	case "command_lifecycle":
		p.emit(MessageState{ID: l.CommandUUID, State: l.State})
	default:
		return fmt.Errorf("%w %q", errUnknownLine, l.Type)
	}
	return nil
}

func (p *parser) streamEvent(l *inLine) error {
	if l.ParentToolUseID != "" {
		return nil // a subagent's partial output: its tool use and result are shown instead
	}
	e := &l.Event
	switch e.Type {
	case "message_start":
		p.msgID, p.seen = e.Message.ID, 0
		clear(p.streamed)
		clear(p.kinds)
		clear(p.toolIDs)
	case "content_block_start":
		p.kinds[e.Index] = e.ContentBlock.Type
		if e.ContentBlock.Type == "tool_use" {
			p.toolIDs[e.Index] = e.ContentBlock.ID
		}
	case "content_block_delta":
		switch e.Delta.Type {
		case "text_delta":
			p.streamed[e.Index] += len(e.Delta.Text)
			p.emit(TextDelta{Text: e.Delta.Text})
		case "thinking_delta":
			p.streamed[e.Index] += len(e.Delta.Thinking)
			p.emit(ThinkingDelta{Text: e.Delta.Thinking})
		case "input_json_delta":
			p.emit(ToolInputDelta{ID: p.toolIDs[e.Index], JSON: e.Delta.PartialJSON})
		}
	case "content_block_stop":
		if k := p.kinds[e.Index]; k == "text" || k == "thinking" {
			p.emit(BlockEnd{})
		}
	}
	return nil
}

// assistant handles a complete assistant message line. The CLI writes one line per content
// block, in block order, right after the block's last delta.
func (p *parser) assistant(l *inLine) error {
	var m message
	blocks, err := p.message(l, &m)
	if err != nil {
		return err
	}
	if l.IsAPIErrorMessage || (l.Error != "" && m.Model == "<synthetic>") {
		// The CLI's stand-in for an answer that failed ("API Error: 500 …"): the result
		// that follows says the same, with its status, and is shown as an error, not as
		// the model's text.
		return nil
	}
	for _, b := range blocks {
		idx := -1
		if m.ID != "" && m.ID == p.msgID {
			idx = p.seen
			p.seen++
		}
		switch b.Type {
		case "text", "thinking":
			if l.ParentToolUseID != "" {
				continue
			}
			text := b.Text
			if b.Type == "thinking" {
				text = b.Thinking
			}
			// Only what the deltas did not already bring: all of it without partial
			// messages, nothing (usually) with them.
			done := 0
			if idx >= 0 {
				done = min(p.streamed[idx], len(text))
			}
			if rest := text[done:]; rest != "" {
				if b.Type == "text" {
					p.emit(TextDelta{Text: rest})
				} else {
					p.emit(ThinkingDelta{Text: rest})
				}
				if done == 0 {
					p.emit(BlockEnd{}) // no content_block_stop will come for it
				}
			}
		case "tool_use":
			p.emit(ToolUse{ID: b.ID, Name: b.Name, Summary: summarize(b.Name, b.Input, p.cwd), Input: b.Input, Parent: l.ParentToolUseID})
			p.tasks.use(b.ID, b.Name, b.Input)
		}
	}
	return nil
}

func (p *parser) user(l *inLine) error {
	summary := p.compacted && l.IsSynthetic
	p.compacted = false
	if summary {
		return nil // the Compacted line stands for it
	}
	var m message
	blocks, err := p.message(l, &m)
	if err != nil {
		return err
	}
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			text := contentText(b.Content)
			p.emit(ToolResult{ID: b.ToolUseID, Content: text, IsError: b.IsError, Parent: l.ParentToolUseID})
			if list, changed := p.tasks.result(b.ToolUseID, b.IsError, l.ToolUseResult, func() string { return text }); changed {
				p.emit(TaskList{Items: list})
			}
		case "text":
			if l.ParentToolUseID == "" {
				p.emit(UserText{Text: b.Text, Replay: l.IsReplay})
			}
		}
	}
	return nil
}

// message decodes a line's message and its content, which may be a string (one text block).
func (p *parser) message(l *inLine, m *message) ([]block, error) {
	if err := json.Unmarshal(l.Message, m); err != nil {
		return nil, fmt.Errorf("decode %s message: %w", l.Type, err)
	}
	var blocks []block
	if len(m.Content) > 0 && m.Content[0] == '"' {
		var s string
		if err := json.Unmarshal(m.Content, &s); err != nil {
			return nil, fmt.Errorf("decode %s content: %w", l.Type, err)
		}
		return []block{{Type: "text", Text: s}}, nil
	}
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return nil, fmt.Errorf("decode %s content: %w", l.Type, err)
	}
	return blocks, nil
}

// contentText flattens a tool result's content: a string, or text and image blocks.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var sb strings.Builder
	for i, b := range blocks {
		if i > 0 {
			sb.WriteByte('\n')
		}
		switch b.Type {
		case "text":
			sb.WriteString(b.Text)
		case "image":
			sb.WriteString("[image]")
		default:
			sb.WriteString("[" + b.Type + "]")
		}
	}
	return sb.String()
}

func (p *parser) system(l *inLine) {
	if p.notice(l) || p.title(l) {
		return
	}
	switch l.Subtype {
	case "init":
		p.cwd = l.CWD
		p.emit(Init{
			SessionID: l.SessionID, Model: l.Model, PermissionMode: l.PermissionMode, CWD: l.CWD,
			Tools: l.Tools, MCPServers: l.MCPServers, SlashCommands: l.SlashCommands, Version: l.Version,
		})
	case "status":
		s := Status{PermissionMode: l.PermissionMode}
		if l.Status != nil {
			s.Status = *l.Status
		}
		p.emit(s)
	case "api_retry":
		p.emit(Status{Status: retryText(l)})
	case "task_started", "task_progress", "task_notification", "task_updated":
		p.task(l)
	case "compact_boundary":
		m := l.CompactMetadata
		p.compacted = true
		p.emit(Compacted{Trigger: m.Trigger, PreTokens: m.PreTokens, PostTokens: m.PostTokens})
	}
	// Other subtypes (thinking_tokens, hook output, …) are not shown.
}

// retryText says why the API request failed and when the CLI tries again:
// "retrying: API error 529 (overloaded), attempt 1 of 10 in 0.5 s".
func retryText(l *inLine) string {
	why := "API error"
	if l.ErrorStatus != 0 {
		why += " " + strconv.Itoa(l.ErrorStatus)
	}
	if l.Error != "" {
		why += " (" + l.Error + ")"
	}
	return fmt.Sprintf("%s%s, attempt %d of %d in %.1f s", RetryingPrefix, why, l.Attempt, l.MaxRetries, l.RetryDelayMS/1000)
}

func (p *parser) result(l *inLine) {
	t := TurnEnd{
		Subtype: l.Subtype, IsError: l.IsError, Result: l.Result,
		APIErrorStatus: l.APIErrorStatus, APIErrorType: l.APIErrorType,
		Interrupted: strings.HasPrefix(l.TerminalReason, "aborted"),
		Duration:    time.Duration(l.DurationMS * float64(time.Millisecond)),
		APIDuration: time.Duration(l.DurationAPIMS * float64(time.Millisecond)),
		NumTurns:    l.NumTurns, Tokens: l.Usage.Usage, CostUSD: l.TotalCostUSD, SessionID: l.SessionID,
	}
	for _, e := range l.Errors {
		if isDiagnostic(e) {
			t.Diagnostics = append(t.Diagnostics, e)
		} else {
			t.Errors = append(t.Errors, e)
		}
	}
	for _, d := range l.PermissionDenials {
		t.Denied = append(t.Denied, d.ToolName)
	}
	p.emit(t)
}

func (p *parser) controlRequest(l *inLine) error {
	var r canUseTool
	if err := json.Unmarshal(l.Request, &r); err != nil {
		return fmt.Errorf("decode control_request: %w", err)
	}
	if r.Subtype != "can_use_tool" {
		if p.control != nil {
			p.control(l) // answered with an error, so the CLI does not wait for ever
		}
		return nil
	}
	p.emit(PermissionRequest{
		RequestID: l.RequestID, ToolName: r.ToolName, DisplayName: r.DisplayName,
		Description: r.Description, ToolUseID: r.ToolUseID, Input: r.Input, Suggestions: r.Suggestions,
	})
	return nil
}

// isDiagnostic tells the CLI's internal diagnostics lines among a result's errors: every
// interrupted turn ends with "[ede_diagnostic] result_type=user last_content_type=n/a
// stop_reason=null" (2.1.197 and 2.1.332). They mean nothing to the user.
func isDiagnostic(e string) bool {
	return strings.HasPrefix(e, "[ede_diagnostic]") || strings.HasPrefix(e, "[session_crash]")
}
