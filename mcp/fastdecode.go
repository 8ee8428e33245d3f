package mcp

import (
	"bytes"
	"encoding/json"
)

// The plain request, read without reflection. Why (issue 15): encoding/json
// took about 4 µs and 26 allocations of a cheap tool call, most of what the
// host spends in user space on one. Only the shape the CLI sends takes this
// way: an object whose members are named exactly jsonrpc, id, method and
// params (tools/call: name, arguments and _meta), each at most once, keys
// without escapes, jsonrpc "2.0", an integer or unescaped string id, an
// unescaped method and an object for params. Everything else, and so every
// malformed message and every error answer, goes the general way (decode,
// startCall); FuzzFastDecodeAgrees holds the two to the same answers.

// fastDecode is decode for the plain request; ok is false when data is not
// one and decode must read it.
func fastDecode(data []byte) (m message, ok bool) {
	var jsonrpc, id, method, params []byte
	ok = objectMembers(data, func(key, val []byte) bool {
		var slot *[]byte
		switch string(key) {
		case "jsonrpc":
			slot = &jsonrpc
		case "id":
			slot = &id
		case "method":
			slot = &method
		case "params":
			slot = &params
		default:
			return false
		}
		if *slot != nil {
			return false // a duplicate: encoding/json keeps the last
		}
		*slot = val
		return true
	})
	if !ok || string(jsonrpc) != `"2.0"` || !plainString(method) || len(method) == 2 {
		return message{}, false
	}
	if id != nil && !plainString(id) && !plainInteger(id) {
		return message{}, false
	}
	if params != nil && (params[0] != '{' || !json.Valid(params)) {
		return message{}, false
	}
	m = message{kind: kindNotification, method: string(method[1 : len(method)-1]), params: params}
	if id != nil {
		m.kind, m.id = kindRequest, id
	}
	return m, true
}

// fastCallParams reads tools/call's params (an object fastDecode or decode
// accepted) when plain: the tool's name, unescaped, and its arguments (an
// object, or nil when absent, as callParams gives them). ok is false
// otherwise, and startCall reads them.
func fastCallParams(params []byte) (name string, args []byte, ok bool) {
	var rawName []byte
	seenMeta := false
	ok = objectMembers(params, func(key, val []byte) bool {
		switch string(key) {
		case "name":
			if rawName != nil {
				return false
			}
			rawName = val
		case "arguments":
			if args != nil || val[0] != '{' {
				return false
			}
			args = val
		case "_meta":
			if seenMeta {
				return false
			}
			seenMeta = true
		default:
			return false
		}
		return true
	})
	if !ok || !plainString(rawName) {
		return "", nil, false
	}
	return string(rawName[1 : len(rawName)-1]), args, true
}

// objectMembers calls member with each key (its text, which has no
// escapes) and raw value of the JSON object in data, in order, and reports
// whether data was such an object throughout, with only space around it,
// and member accepted every one. Values are delimited, not validated:
// callers check the ones they use.
func objectMembers(data []byte, member func(key, val []byte) bool) bool {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for {
		end, ok := stringEnd(data, i)
		if !ok || bytes.IndexByte(data[i:end], '\\') >= 0 {
			return false
		}
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		if i == len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		if end, ok = valueEnd(data, i); !ok || !member(key, data[i:end]) {
			return false
		}
		i = skipSpace(data, end)
		if i == len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
}

// isEmptyObject reports whether data is {} (space allowed around and in it).
func isEmptyObject(data []byte) bool {
	return objectMembers(data, func(_, _ []byte) bool { return false })
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string starting at data[i],
// skipping escaped characters; ok is false if there is none or it holds a
// control character (invalid JSON).
func stringEnd(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return 0, false
	}
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			i++
		case c < 0x20:
			return 0, false
		}
	}
	return 0, false
}

// valueEnd returns the index just past the value starting at data[i]:
// a string, an object or array (nesting and strings followed), or a run
// of other characters (a number or literal, checked by whoever uses it).
func valueEnd(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				end, ok := stringEnd(data, i)
				if !ok {
					return 0, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	}
	start := i
	for ; i < len(data); i++ {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i, i > start
		}
	}
	return i, i > start
}

// plainString reports whether raw is a JSON string of printable ASCII
// without escapes (so its text is raw without the quotes; encoding/json
// would turn bytes that are not UTF-8 into U+FFFD).
func plainString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// plainInteger reports whether raw is a JSON integer: -?(0|[1-9][0-9]*).
func plainInteger(raw []byte) bool {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
