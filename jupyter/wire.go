package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// delimiter separates the routing identities from a Jupyter message.
var delimiter = []byte("<IDS|MSG>")

// header is a Jupyter message header (messaging protocol 5.3).
type header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// message is a received Jupyter message, its content left to the caller.
type message struct {
	Header  header
	Parent  header
	Content json.RawMessage
}

// signer signs and checks messages with the connection file's key.
type signer struct{ key []byte }

func (s signer) sign(parts ...[]byte) []byte {
	m := hmac.New(sha256.New, s.key)
	for _, p := range parts {
		m.Write(p)
	}
	return []byte(hex.EncodeToString(m.Sum(nil)))
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// encode builds the frames of a request of msgType with content.
func (s signer) encode(session, msgType string, content any) (id string, frames [][]byte, err error) {
	h := header{MsgID: newID(), Session: session, Username: "claude.nvim",
		Date: time.Now().UTC().Format(time.RFC3339Nano), MsgType: msgType, Version: "5.3"}
	hb, err := json.Marshal(h)
	if err != nil {
		return "", nil, err
	}
	cb, err := json.Marshal(content)
	if err != nil {
		return "", nil, err
	}
	parent, meta := []byte("{}"), []byte("{}")
	return h.MsgID, [][]byte{delimiter, s.sign(hb, parent, meta, cb), hb, parent, meta, cb}, nil
}

// decode parses a received message, checking its signature: the key keeps
// another local process from feeding us outputs.
func (s signer) decode(frames [][]byte) (message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if len(frames) < i+6 {
		return message{}, errors.New("a message without its delimiter or parts")
	}
	sig, parts := frames[i+1], frames[i+2:i+6]
	if !hmac.Equal(sig, s.sign(parts...)) {
		return message{}, errors.New("a message with a bad signature")
	}
	var m message
	if err := json.Unmarshal(parts[0], &m.Header); err != nil {
		return message{}, fmt.Errorf("message header: %w", err)
	}
	// The parent of an unsolicited message is {}; an error here is not.
	_ = json.Unmarshal(parts[1], &m.Parent)
	m.Content = parts[3]
	return m, nil
}
