package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// TooLongError is a message longer than the connection's limit (Options.MaxLine). It was
// skipped, not held in memory: a request is answered with it (-32600), a call it answered
// returns it, an update becomes an *UnknownUpdate carrying it.
type TooLongError struct {
	Size, Limit int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("a message of %d bytes from the agent exceeds the %d-byte limit and was skipped", e.Size, e.Limit)
}

// lineHead is what the start of a message says about it, read as far as it goes.
type lineHead struct {
	id         json.RawMessage
	method     string
	sessionID  string // params.sessionId
	updateKind string // params.update.sessionUpdate
}

// tooLong handles a skipped line by what its start says it was.
func (c *Conn) tooLong(n int, head []byte) {
	e := &TooLongError{Size: n, Limit: c.maxLine}
	h := readHead(head)
	c.log.Warn("acp: "+e.Error(), "method", h.method, "id", string(h.id), "head", clip(head))
	switch {
	case h.method != "" && h.id != nil:
		c.answerLater(encodeError(h.id, &RPCError{Code: CodeInvalidRequest, Message: e.Error()}))
	case h.method == "" && h.id != nil:
		key, _ := idKey(h.id)
		c.mu.Lock()
		p := c.pending[key]
		delete(c.pending, key)
		c.mu.Unlock()
		if p != nil {
			p.err = e
			close(p.done)
		}
	case h.method == "session/update":
		c.safely(h.method, func() {
			c.client.SessionUpdate(SessionNotification{SessionID: h.sessionID,
				Update: &UnknownUpdate{SessionUpdate: h.updateKind, Err: e}})
		})
	}
}

// readHead reads the members of a message that come before the one cut off: the SDKs
// write id and method before params, and sessionId before update.
func readHead(head []byte) lineHead {
	var h lineHead
	dec := json.NewDecoder(bytes.NewReader(head))
	walkObject(dec, func(key string) bool {
		switch key {
		case "id":
			var raw json.RawMessage
			if dec.Decode(&raw) != nil || !validID(raw) {
				return false
			}
			h.id = raw
		case "method":
			if dec.Decode(&h.method) != nil {
				return false
			}
		case "params":
			return walkObject(dec, func(key string) bool {
				switch key {
				case "sessionId":
					return dec.Decode(&h.sessionID) == nil
				case "update":
					return walkObject(dec, func(key string) bool {
						if key == "sessionUpdate" {
							return dec.Decode(&h.updateKind) == nil
						}
						return skipValue(dec)
					})
				}
				return skipValue(dec)
			})
		default:
			return skipValue(dec)
		}
		return true
	})
	return h
}

// walkObject reads an object's keys and calls member after each, which must read the
// value; it stops at the first false or error and reports whether the object was read to
// its end.
func walkObject(dec *json.Decoder, member func(key string) bool) bool {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		key, ok := t.(string)
		if !ok || !member(key) {
			return false
		}
	}
	_, err := dec.Token()
	return err == nil
}

func skipValue(dec *json.Decoder) bool {
	var raw json.RawMessage
	return dec.Decode(&raw) == nil
}
