package chat

import "encoding/json"

// What the CLI tells the user beside the conversation (2.1.332, and 2.1.197 where said):
// its notices (system/informational), the tools a mode refused without asking
// (system/permission_denied) and a permission check that takes long
// (system/permission_check_status). Without them a refusal in auto mode looks like a tool
// that failed, and a slow check like a tool that hangs.

// Informational is the CLI's system/informational line: Text in its own words, Level
// ("warning", …) and Tag naming the case. 2.1.332 sends one with Tag NoAutoCheck when auto
// mode's safety check cannot run in the session (the API is reached through a server that
// does not pass it on, as the stand-in does).
type Informational struct {
	Text  string
	Level string
	Tag   string
}

// NoAutoCheck is the Informational tag of auto mode without its server-side safety check: every
// action that needs the check is refused.
const NoAutoCheck = "auto_mode_no_server_check"

// Denied is a tool the CLI refused without asking (system/permission_denied): in auto mode
// the safety check's verdict (ReasonType "classifier"), in dontAsk a tool no rule allows.
// Reason is the CLI's short reason ("Classifier unavailable"), Message what the model is
// told; Code (2.1.332) names the case: "auto_mode_no_check_in_session" when the check does
// not run in this session. 2.1.197 runs the check itself (a side request to the API) and,
// when it gets no verdict, denies with the reason "Auto mode could not evaluate this action
// and is blocking it for safety".
type Denied struct {
	ToolName   string
	ToolUseID  string
	Reason     string
	ReasonType string
	Code       string
	Message    string
}

// Checking says a tool call waits on its automatic permission check (auto mode's safety
// check) longer than usual, about four seconds (Waiting true), or no longer (false).
type Checking struct {
	ToolUseID string
	Waiting   bool
}

func (Informational) event() {}
func (Denied) event()        {}
func (Checking) event()      {}

// notice handles the system lines of this file; it reports whether l was one.
func (p *parser) notice(l *inLine) bool {
	switch l.Subtype {
	case "informational":
		var text string
		if json.Unmarshal(l.Content, &text) != nil || text == "" {
			return true
		}
		p.emit(Informational{Text: text, Level: l.Level, Tag: l.Tag})
	case "permission_denied":
		var msg string
		json.Unmarshal(l.Message, &msg)
		p.emit(Denied{
			ToolName: l.ToolName, ToolUseID: l.ToolUseID, Reason: l.DecisionReason,
			ReasonType: l.DecisionReasonType, Code: l.DecisionReasonCode, Message: msg,
		})
	case "permission_check_status":
		p.emit(Checking{ToolUseID: l.ToolUseID, Waiting: l.Status != nil && *l.Status == "checking"})
	default:
		return false
	}
	return true
}
