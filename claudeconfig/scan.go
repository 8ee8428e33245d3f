package claudeconfig

import (
	"context"
	"fmt"
	"io"
)

// The CLI's config file can be large (users report 65 to 238 MiB: it once kept each
// project's history), and the plugin reads it at every chat start and writes one key of it
// at a yes. So it is read as a stream: a scanner checks the whole document is JSON (a file
// that does not parse is refused, as before) and notes the byte offsets of the few values
// the trust needs, holding one buffer and the keys it compares, whatever the file's size.
// The splice then copies the file's bytes around those offsets.

const (
	// scanBuffer is the scanner's read buffer.
	scanBuffer = 64 << 10
	// maxDepth bounds nesting, as encoding/json does.
	maxDepth = 10000
	// maxKey: a longer key is checked but not kept; it cannot name a folder (PATH_MAX is 4096
	// bytes, escapes at most six bytes for one) nor be one of the plugin's keys.
	maxKey = 32 << 10
	// ctxEvery: the scanner checks its context once per this many refills (4 MiB).
	ctxEvery = 64
)

// span is a value's bytes in the file, [start, end), and what it is: its first byte, and for
// an object how many members it has.
type span struct {
	start, end int64
	kind       byte
	members    int
}

// entry is a projects entry the caller wants, its last occurrence: trust is its last
// hasTrustDialogAccepted member's value, nil if none.
type entry struct {
	span
	trust *span
}

// doc is what a scan found: the top-level object and the last "projects" member's value, with
// the entries the caller asked for (the last of each name), by decoded name.
type doc struct {
	top      span
	projects *span
	entries  map[string]*entry
}

// scanner reads a JSON document from r through its own buffer, counting offsets.
type scanner struct {
	ctx   context.Context
	r     io.Reader
	buf   []byte
	pos   int   // the next byte, in buf[:end]
	end   int   // bytes in buf
	base  int64 // the file offset of buf[0]
	err   error // the reader's error once it failed; io.EOF at the end
	fills int
	key   []byte // the raw key being read
}

// scan reads the whole document, checking it is a JSON object, and notes the projects entries
// whose name want accepts. A document that is not one JSON object (only whitespace around it)
// is ErrUnreadable; a read error or ctx's end is returned as is.
func scan(ctx context.Context, r io.Reader, want func(folder string) bool) (*doc, error) {
	s := &scanner{ctx: ctx, r: r, buf: make([]byte, scanBuffer)}
	d := &doc{}
	s.ws()
	if c, ok := s.peek(); !ok || c != '{' {
		return nil, s.fail()
	}
	d.top.start, d.top.kind = s.offset(), '{'
	n, err := s.object(1, func(key string) error {
		if key != "projects" {
			return s.value(1)
		}
		// A later "projects" wins, as in JSON.parse: forget what the earlier one had.
		p := &span{start: s.offset()}
		d.projects, d.entries = p, map[string]*entry{}
		c, _ := s.peek()
		if p.kind = c; c != '{' {
			err := s.value(1)
			p.end = s.offset()
			return err
		}
		var err error
		p.members, err = s.object(2, func(folder string) error {
			if !want(folder) {
				return s.value(2)
			}
			e, err := s.entry()
			d.entries[folder] = e
			return err
		})
		p.end = s.offset()
		return err
	})
	if err != nil {
		return nil, err
	}
	d.top.members, d.top.end = n, s.offset()
	s.ws()
	if _, ok := s.peek(); ok || s.err != io.EOF {
		return nil, s.fail() // more after the object, or a read error
	}
	return d, nil
}

// entry reads a wanted projects entry's value.
func (s *scanner) entry() (*entry, error) {
	e := &entry{span: span{start: s.offset()}}
	c, _ := s.peek()
	if e.kind = c; c != '{' {
		err := s.value(2)
		e.end = s.offset()
		return e, err
	}
	var err error
	e.members, err = s.object(3, func(key string) error {
		if key != trustKey {
			return s.value(3)
		}
		v := &span{start: s.offset()}
		v.kind, _ = s.peek()
		err := s.value(3)
		v.end = s.offset()
		e.trust = v
		return err
	})
	e.end = s.offset()
	return e, err
}

// fail is the error for a document that stops parsing here: the reader's error if it
// failed, else ErrUnreadable with the offset.
func (s *scanner) fail() error {
	if s.err != nil && s.err != io.EOF {
		return s.err
	}
	return fmt.Errorf("%w (at byte %d)", ErrUnreadable, s.offset())
}

func (s *scanner) offset() int64 { return s.base + int64(s.pos) }

// fill reads more into the emptied buffer; false at the end or on an error (s.err).
func (s *scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.fills++; s.fills%ctxEvery == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return false
		}
	}
	s.base += int64(s.end)
	s.pos, s.end = 0, 0
	for {
		n, err := s.r.Read(s.buf)
		s.end = n
		if err != nil {
			s.err = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
}

func (s *scanner) peek() (byte, bool) {
	if s.pos == s.end && !s.fill() {
		return 0, false
	}
	return s.buf[s.pos], true
}

func (s *scanner) next() (byte, bool) {
	c, ok := s.peek()
	if ok {
		s.pos++
	}
	return c, ok
}

// ws skips whitespace.
func (s *scanner) ws() {
	for {
		for s.pos < s.end {
			switch s.buf[s.pos] {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return
			}
		}
		if !s.fill() {
			return
		}
	}
}
