package claudeconfig

import "encoding/json"

// The JSON grammar (RFC 8259) as scanner reads it: each function reads one kind of value
// from the scanner's position, checking it, without keeping it.

// value reads one value at depth (the depth of the container it is in).
func (s *scanner) value(depth int) error {
	c, ok := s.peek()
	if !ok {
		return s.fail()
	}
	switch {
	case c == '{':
		_, err := s.object(depth+1, nil)
		return err
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		_, err := s.str(false)
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return s.fail()
}

// object reads an object whose "{" is next; member reads each member's value (the
// scanner after the colon and whitespace), given its decoded name; without member, names and
// values are only checked. It returns how many members there were.
func (s *scanner) object(depth int, member func(key string) error) (int, error) {
	if depth > maxDepth {
		return 0, s.fail()
	}
	s.pos++ // the "{"
	s.ws()
	if c, ok := s.peek(); ok && c == '}' {
		s.pos++
		return 0, nil
	}
	for n := 1; ; n++ {
		if c, ok := s.peek(); !ok || c != '"' {
			return 0, s.fail()
		}
		raw, err := s.str(member != nil)
		if err != nil {
			return 0, err
		}
		s.ws()
		if c, ok := s.next(); !ok || c != ':' {
			return 0, s.fail()
		}
		s.ws()
		if member == nil {
			err = s.value(depth)
		} else {
			err = member(decodeKey(raw))
		}
		if err != nil {
			return 0, err
		}
		s.ws()
		c, ok := s.next()
		switch {
		case ok && c == '}':
			return n, nil
		case !ok || c != ',':
			return 0, s.fail()
		}
		s.ws()
	}
}

func (s *scanner) array(depth int) error {
	if depth > maxDepth {
		return s.fail()
	}
	s.pos++ // the "["
	s.ws()
	if c, ok := s.peek(); ok && c == ']' {
		s.pos++
		return nil
	}
	for {
		if err := s.value(depth); err != nil {
			return err
		}
		s.ws()
		c, ok := s.next()
		switch {
		case ok && c == ']':
			return nil
		case !ok || c != ',':
			return s.fail()
		}
		s.ws()
	}
}

// str reads a string whose opening quote is next, checking its escapes; with keep it returns
// its raw bytes, quotes included (nil past maxKey).
func (s *scanner) str(keep bool) ([]byte, error) {
	var raw []byte
	if keep {
		raw = append(s.key[:0], '"') // reused: decodeKey copies what it keeps
	}
	s.pos++ // the opening quote
	for {
		start := s.pos
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			s.pos++
		}
		if raw != nil {
			if len(raw)+s.pos-start > maxKey {
				raw = nil
			} else {
				raw = append(raw, s.buf[start:s.pos]...)
			}
		}
		if s.pos == s.end {
			if !s.fill() {
				return nil, s.fail()
			}
			continue
		}
		c := s.buf[s.pos]
		s.pos++
		switch {
		case c == '"':
			if raw != nil {
				raw = append(raw, '"')
				s.key = raw
			}
			return raw, nil
		case c < 0x20:
			return nil, s.fail()
		}
		// An escape: \" \\ \/ \b \f \n \r \t or \u and four hex digits.
		e, ok := s.next()
		if raw != nil {
			raw = append(raw, '\\', e)
		}
		switch {
		case !ok:
			return nil, s.fail()
		case e == 'u':
			for range 4 {
				h, ok := s.next()
				if !ok || !isHex(h) {
					return nil, s.fail()
				}
				if raw != nil {
					raw = append(raw, h)
				}
			}
		case e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't':
			return nil, s.fail()
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (s *scanner) literal(word string) error {
	for i := range len(word) {
		if c, ok := s.next(); !ok || c != word[i] {
			return s.fail()
		}
	}
	return s.delimited()
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	if c, _ := s.peek(); c == '-' {
		s.pos++
	}
	c, ok := s.next()
	switch {
	case !ok || c < '0' || c > '9':
		return s.fail()
	case c != '0':
		s.digits()
	}
	if c, ok := s.peek(); ok && c == '.' {
		s.pos++
		if s.digits() == 0 {
			return s.fail()
		}
	}
	if c, ok := s.peek(); ok && (c == 'e' || c == 'E') {
		s.pos++
		if c, ok := s.peek(); ok && (c == '+' || c == '-') {
			s.pos++
		}
		if s.digits() == 0 {
			return s.fail()
		}
	}
	return s.delimited()
}

func (s *scanner) digits() int {
	n := 0
	for {
		c, ok := s.peek()
		if !ok || c < '0' || c > '9' {
			return n
		}
		s.pos++
		n++
	}
}

// delimited checks that a literal or number ends here (not "truex" nor "01").
func (s *scanner) delimited() error {
	c, ok := s.peek()
	if !ok {
		return nil // the caller sees the end
	}
	switch c {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return nil
	}
	return s.fail()
}

// decodeKey is a key's value from its raw bytes (quotes included, as str checked them); ""
// for a key past maxKey, which names nothing the plugin looks for.
func decodeKey(raw []byte) string {
	if raw == nil {
		return ""
	}
	plain := true
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(raw[1 : len(raw)-1])
	}
	// Escapes, or bytes past ASCII: as encoding/json reads them (bad UTF-8 becomes U+FFFD).
	var key string
	_ = json.Unmarshal(raw, &key)
	return key
}
