package chat

import (
	"context"
	"fmt"
	"regexp"
)

// A line over maxStreamLine is not decoded. If it is a permission request the CLI waits for
// its answer, so the request_id is read from the line's start (the CLI writes type and
// request_id before the request) and the request denied.
var (
	controlRequestHead = regexp.MustCompile(`^\s*\{\s*"type"\s*:\s*"control_request"\s*,`)
	requestIDHead      = regexp.MustCompile(`"request_id"\s*:\s*"([^"\\]{1,200})"`)
)

// skipped handles a line of n bytes that was over maxStreamLine; head is its start.
func (s *Process) skipped(n int, head []byte) {
	s.log.Warn("claude: skipped a line over the size limit", "bytes", n, "limit", maxStreamLine, "start", clip(head))
	ev := LineSkipped{Bytes: n, Limit: maxStreamLine}
	if controlRequestHead.Match(head) {
		if m := requestIDHead.FindSubmatch(head); m != nil {
			ev.Denied = string(m[1])
			s.denyUnread(ev.Denied, fmt.Sprintf("The editor refused this request unread: it was %.1f MiB, over its %d MiB limit for one line.", float64(n)/(1<<20), maxStreamLine>>20))
		}
	}
	s.batch.add(ev)
}

// denyUnread answers a request the process could not read with a denial, apart from the
// reader and bounded like refuse.
func (s *Process) denyUnread(id, message string) {
	select {
	case s.perms.refusing <- struct{}{}:
	default:
		s.log.Warn("claude: too many refusals unwritten; not writing this one", "request", id)
		return
	}
	go func() {
		defer func() { <-s.perms.refusing }()
		ctx, cancel := context.WithTimeout(context.Background(), refuseTimeout)
		defer cancel()
		if err := s.answer(ctx, id, permissionDeny{Behavior: "deny", Message: message}); err != nil {
			s.log.Warn("claude: deny an unread request", "request", id, "err", err)
		}
	}()
}
