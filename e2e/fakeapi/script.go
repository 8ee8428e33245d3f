package fakeapi

import "time"

// Turn is one scripted assistant message, the answer to one main-conversation request.
// A turn with tool uses ends with stop_reason "tool_use" (the CLI runs the tools and asks
// again); a turn without ends the model's turn with "end_turn".
type Turn struct {
	// Text, when not empty, is a text block sent before the tool uses.
	Text string
	// Tools are tool_use blocks, in order. IDs are generated when empty.
	Tools []ToolUse
	// Thinking, when not empty, is a thinking block sent first (with a made-up signature), as
	// a model with extended thinking answers.
	Thinking string
	// Chunk, when above 0, streams Text and Thinking as deltas of at most Chunk bytes (cut
	// on UTF-8 boundaries) instead of one delta each.
	Chunk int
	// Fail, when not 0, answers the request with this HTTP status and an API error instead
	// of a message (529: overloaded), as the real API does when it is in trouble; the CLI
	// retries some statuses (5xx, 429, 529), and the retry takes the next turn.
	Fail int
	// ErrorType and ErrorMessage are the failing answer's error.type and error.message;
	// empty takes the API's for the status (see apiError).
	ErrorType, ErrorMessage string
	// RetryAfter, when not empty, is the failing answer's retry-after header (seconds).
	RetryAfter string
	// Delay is a pause before every streamed delta but the first: a slow model, to interrupt
	// mid-stream. The pause ends early, and the answer with it, when the client goes away.
	Delay time.Duration
	// Gate, when set, holds the answer until it is closed (or the client goes away): the
	// test looks at the editor while the CLI waits for the model, mid-turn.
	Gate <-chan struct{}
	// Sent, when set, is called with each text delta right after it is flushed to the
	// client: a benchmark times the text's way from the API to the editor from here.
	Sent func(delta string)
	// Usage, when set, is the token count the answer claims instead of the default (10 in,
	// 5 out): the CLI takes the context window's fill from it, so a test scripts a full one.
	Usage *Usage
}

// Usage is what an answer claims to have cost, as the API's usage object counts it.
type Usage struct {
	Input, Output, CacheRead, CacheCreation int
}

// Filled is a turn that answers with text and claims usage: in tokens of input (the
// conversation so far as the API counted it) and 5 out.
func Filled(text string, in int) Turn {
	return Turn{Text: text, Usage: &Usage{Input: in, Output: 5}}
}

// ToolUse is one tool call the scripted model makes, e.g. Read {"file_path": "/abs/f"}.
type ToolUse struct {
	ID    string
	Name  string
	Input any // marshalled to JSON; a map or a struct with json tags
}

// Say is a turn that answers with text and ends the model's turn.
func Say(text string) Turn { return Turn{Text: text} }

// Overloaded is a turn that fails with 529 overloaded_error.
func Overloaded() Turn { return Turn{Fail: 529} }

// Failure is a turn that fails with status and the API's error of that type and message;
// empty ones take the API's for the status.
func Failure(status int, errorType, message string) Turn {
	return Turn{Fail: status, ErrorType: errorType, ErrorMessage: message}
}

// Failures is n copies of t: enough of a retried failure (n above the CLI's retries) make
// the CLI give up on the request.
func Failures(n int, t Turn) []Turn {
	out := make([]Turn, n)
	for i := range out {
		out[i] = t
	}
	return out
}

// Use is a turn that calls one tool.
func Use(name string, input any) Turn {
	return Turn{Tools: []ToolUse{{Name: name, Input: input}}}
}

// Stream is a turn that answers with text sent in deltas of chunk bytes, pausing delay before
// each delta but the first, and ends the model's turn.
func Stream(text string, chunk int, delay time.Duration) Turn {
	return Turn{Text: text, Chunk: chunk, Delay: delay}
}

// Read, Edit and Write are the file tools' inputs as the CLI's tool schemas name them.
func Read(path string) Turn { return Use("Read", map[string]any{"file_path": path}) }

// Edit replaces oldString by newString in path; the CLI refuses unless path was Read first.
func Edit(path, oldString, newString string) Turn {
	return Use("Edit", map[string]any{"file_path": path, "old_string": oldString, "new_string": newString})
}

// Write creates or overwrites path with content.
func Write(path, content string) Turn {
	return Use("Write", map[string]any{"file_path": path, "content": content})
}
