// Package attention keeps the state of every Claude session of one Neovim, terminal and
// chat alike, for the attention list (:ClaudeSessions, the statusline count, the
// ClaudeNeedsYou and ClaudeDone events): does it need the user, is it working, is its turn
// done, has it exited.
//
// It is pure logic, fed by the host: a terminal's CLI through its hooks (Hook, with the
// event's origin "terminal:N"), a chat through what its controller shows (the Chat*
// methods, keyed "chat:<dir>"), the user through Here (Lua says which session's window the
// cursor entered). Each change marks the session dirty and wakes Changes; the host's pusher
// then Takes the dirty sessions and hands them to Lua in one call, so nothing is polled and
// a burst of hooks costs one round trip.
//
// A wait is one stretch of needing the user (or one finished turn): Session.Wait counts them,
// so that Lua fires its User event once per wait however often the same wait is pushed again.
package attention
