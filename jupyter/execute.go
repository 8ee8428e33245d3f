package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Limits of one call's answer, which goes to the model: enough for a
// table or a traceback, not a 10 MiB dump that would fill its context.
const (
	MaxText   = 100 << 10 // bytes of text kept
	MaxImages = 8         // images kept
	MaxImage  = 4 << 20   // base64 bytes of one image kept
)

// interruptGrace is how long an interrupted execution has to end before
// the call gives up on it (the kernel stays, busy, and is reported so).
// The signal is repeated every interruptAgain meanwhile: one that lands
// before the code runs, or that the code catches, is not the last. An
// attached kernel's interrupt_request is sent once: the kernel's control
// thread may take a second one late, into the next execution (seen: it
// swallowed another client's output).
const (
	interruptGrace = 20 * time.Second
	interruptAgain = 2 * time.Second
)

// Image is one image/png output, base64 as the kernel sent it.
type Image struct {
	Data     string
	MimeType string
}

// Result is what one execution produced.
type Result struct {
	Text        string  // streams, results, tracebacks, in order; cut at MaxText
	Images      []Image // image/png outputs
	Error       bool    // the code raised (Text holds the traceback)
	Interrupted bool    // the timeout interrupted it
	Aborted     bool    // the kernel did not run it (an earlier run failed and stopped its queue)
	Cut         int     // bytes of text left out
	CutImages   int     // images left out
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// StripANSI removes terminal colour codes, which tracebacks are full of.
func StripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

func (r *Result) add(s string) {
	if room := MaxText - len(r.Text); room < len(s) {
		if room < 0 {
			room = 0
		}
		// Cut on a rune boundary so the answer stays valid UTF-8.
		for room > 0 && room < len(s) && s[room]&0xC0 == 0x80 {
			room--
		}
		r.Cut += len(s) - room
		s = s[:room]
	}
	r.Text += s
}

func (r *Result) image(data string) {
	data = strings.TrimSpace(data)
	if len(r.Images) >= MaxImages || len(data) > MaxImage {
		r.CutImages++
		return
	}
	r.Images = append(r.Images, Image{Data: data, MimeType: "image/png"})
}

// Execute runs code and collects its outputs until the kernel is idle
// again. When timeout passes it interrupts the kernel and returns what
// came. It returns ErrDied (with what came before) when the kernel exits.
func (k *Kernel) Execute(ctx context.Context, code string, timeout time.Duration) (*Result, error) {
	k.run.Lock()
	defer k.run.Unlock()
	res := &Result{}
	select {
	case <-k.dead:
		return res, fmt.Errorf("%w: %v", ErrDied, k.exitErr)
	default:
	}
	id, err := k.request(k.shell, "execute_request", map[string]any{
		"code": code, "silent": false, "store_history": true,
		// stop_on_error false: our error (or interrupt) must not abort the
		// requests queued behind it, another client's included (seen: an
		// attached kernel's owner lost its next run).
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": false,
	})
	if err != nil {
		return res, err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var giveUp, again <-chan time.Time
	replies := k.replies
	for {
		select {
		case m, ok := <-k.iopub:
			if !ok {
				<-k.dead
				return res, fmt.Errorf("%w: %v", ErrDied, k.exitErr)
			}
			if m.Parent.MsgID != id {
				continue
			}
			if done := res.collect(m); done {
				return res, nil
			}
		case m, ok := <-replies: // the execute_reply; the idle status ends the call
			if !ok {
				replies = nil // the kernel is going; dead will say so
			} else if m.Parent.MsgID == id {
				var c struct {
					Status string `json:"status"`
				}
				_ = json.Unmarshal(m.Content, &c)
				res.Aborted = c.Status == "aborted"
			}
		case <-k.dead:
			k.drain(res, id)
			return res, fmt.Errorf("%w: %v", ErrDied, k.exitErr)
		case <-timer.C:
			res.Interrupted = true
			_ = k.Interrupt()
			giveUp = time.After(interruptGrace)
			if !k.attached {
				tick := time.NewTicker(interruptAgain)
				defer tick.Stop()
				again = tick.C
			}
		case <-again:
			_ = k.Interrupt()
		case <-giveUp:
			return res, fmt.Errorf("the kernel did not stop within %s of an interrupt", interruptGrace)
		case <-ctx.Done():
			_ = k.Interrupt()
			return res, ctx.Err()
		}
	}
}

// drain takes the outputs already read when the kernel died: what it
// printed before dying helps the model see why.
func (k *Kernel) drain(res *Result, id string) {
	for {
		select {
		case m, ok := <-k.iopub:
			if !ok {
				return
			}
			if m.Parent.MsgID == id {
				res.collect(m)
			}
		default:
			return
		}
	}
}

// collect adds one iopub message to res; true when the kernel went idle.
func (r *Result) collect(m message) bool {
	switch m.Header.MsgType {
	case "status":
		var c struct {
			State string `json:"execution_state"`
		}
		_ = json.Unmarshal(m.Content, &c)
		return c.State == "idle"
	case "stream":
		var c struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &c)
		r.add(c.Text)
	case "execute_result", "display_data":
		var c struct {
			Data map[string]json.RawMessage `json:"data"`
		}
		_ = json.Unmarshal(m.Content, &c)
		var png, text string
		_ = json.Unmarshal(c.Data["image/png"], &png)
		_ = json.Unmarshal(c.Data["text/plain"], &text)
		if png != "" {
			r.image(png)
		} else if text != "" {
			r.add(text + "\n")
		}
	case "error":
		var c struct {
			Name      string   `json:"ename"`
			Value     string   `json:"evalue"`
			Traceback []string `json:"traceback"`
		}
		_ = json.Unmarshal(m.Content, &c)
		r.Error = true
		if len(c.Traceback) > 0 {
			r.add(StripANSI(strings.Join(c.Traceback, "\n")) + "\n")
		} else {
			r.add(c.Name + ": " + c.Value + "\n")
		}
	}
	return false
}
