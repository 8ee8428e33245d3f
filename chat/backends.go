package chat

// Events only other chat backends (package acpchat: an ACP agent) send: the Claude CLI
// says these things in its initialize answer or not at all, but an ACP agent says them as
// they change, in the stream.

// Commands is the agent's whole list of slash commands, for the input's / completion.
type Commands struct{ List []Command }

// Notice is a line the transcript shows about the chat itself, not the conversation: what
// the agent cannot do, an update it sent that is not understood. IsError makes it an
// error line.
type Notice struct {
	Text    string
	IsError bool
}

func (Commands) event() {}
func (Notice) event()   {}
