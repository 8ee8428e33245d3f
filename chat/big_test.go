package chat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestUnquoteDecodesAsEncodingJSONDoes(t *testing.T) {
	for _, lit := range []string{
		`""`, `"plain"`, `"tab\there\nnewline"`, `"quote \" and backslash \\ and slash \/"`,
		`"\b\f\r"`, `"\u00e9t\u00e9"`, `"emoji \ud83d\ude00"`, `"lone \ud800 surrogate"`,
		`"ends in two backslashes \\\\"`, "\"invalid \xff byte\"", `"é raw"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("test literal %s: %v", lit, err)
		}
		if got, ok := unquote([]byte(lit)); !ok || got != want {
			t.Errorf("unquote(%s) = %q, %v; want %q", lit, got, ok, want)
		}
	}
	for _, bad := range []string{`"dangling \"`, `"bad \x escape"`, `no quotes`} {
		if got, ok := unquote([]byte(bad)); ok {
			t.Errorf("unquote(%s) = %q; want it refused", bad, got)
		}
	}
}

// events parses line with the parser and returns what it emitted.
func events(t *testing.T, line string, parse func(*parser, []byte) error) []Event {
	t.Helper()
	var out []Event
	p := newParser(func(e Event) { out = append(out, e) })
	if err := parse(p, []byte(line)); err != nil {
		t.Fatalf("parse: %v", err)
	}
	return out
}

func TestALongLineGivesTheEventsOfAnOrdinaryDecode(t *testing.T) {
	long := func(seed string) string {
		return strings.Repeat(seed+" line with \"quotes\", a tab\tand a backslash \\ in it\n", (bigLineMin/50)+1)
	}
	var many []string
	for i := range 12 { // placeholders :1 and :10 both occur
		many = append(many, fmt.Sprintf(`{"type":"tool_result","tool_use_id":"t%d","content":%q}`, i, long(fmt.Sprint(i))[:2*bigStringMin+i]))
	}
	user := func(content string) string {
		return `{"type":"user","message":{"role":"user","content":` + content + `},"session_id":"s"}`
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, tc := range []struct{ name, line string }{
		{"a tool result as one string", user(`[{"type":"tool_result","tool_use_id":"t1","content":` + q(long("a")) + `}]`)},
		{"a tool result as text blocks", user(`[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":` + q(long("b")) + `},{"type":"text","text":"short"}]}]`)},
		{"twelve long results in one line", user(`[` + strings.Join(many, ",") + `]`)},
		{"a long prompt", user(q(long("c")))},
		{"a long assistant line is decoded as it is", `{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":` + q(long("d")) + `}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.line) < bigLineMin {
				t.Fatalf("the line has %d bytes, under bigLineMin", len(tc.line))
			}
			got := events(t, tc.line, (*parser).parse)
			want := events(t, tc.line, (*parser).parseLine)
			if len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("parse gave %d events, parseLine %d; they differ", len(got), len(want))
			}
		})
	}
}

func TestShrinkFindsTheEndOfEachStringPastEscapedQuotes(t *testing.T) {
	body := strings.Repeat(`x\"\\`, bigStringMin/4+1)
	line := `{"a":"` + body + `","b":"\\","c":"` + body + `\\"}`
	small, big := shrink([]byte(line))
	want := `{"a":"\u0000claude.nvim:big:0","b":"\\","c":"\u0000claude.nvim:big:1"}`
	if string(small) != want || len(big) != 2 {
		t.Errorf("shrink gave %s and %d literals, want %s and 2", small, len(big), want)
	}
}
