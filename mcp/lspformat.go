package mcp

import (
	"fmt"
	"strings"
)

// The answers of the language-server tools are text a model reads: one
// place per line as compilers and grep print them (path:line:column: the
// line), so a model can go on with Read or Edit at once; counts where a
// list was capped; one line per server that failed or was slow.

// maxContextLine bounds a line quoted after a location: a minified file's
// one line must not fill the answer.
const maxContextLine = 240

var opNames = map[string]string{
	LSPOpDefinition: "Definition", LSPOpTypeDefinition: "Type definition", LSPOpImplementation: "Implementations",
	LSPOpDeclaration: "Declaration", LSPOpReferences: "References",
}

// place is path:line:column.
func place(l LSPLocation) string { return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Column) }

// placeLine is path:line:column, then the line when it was read.
func placeLine(l LSPLocation) string {
	text := strings.TrimRight(l.Text, " \t\r\n")
	if text == "" {
		return place(l)
	}
	if len(text) > maxContextLine {
		text = cutUTF8(text, maxContextLine) + " …"
	}
	return place(l) + ": " + text
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// subject names what was asked about: `Greet` at path:line:column.
func subject(ans LSPAnswer) string {
	if ans.Target == nil {
		return ""
	}
	if ans.Symbol != "" {
		return fmt.Sprintf("`%s` at %s", ans.Symbol, place(*ans.Target))
	}
	return place(*ans.Target)
}

// from names the servers that answered: "from gopls".
func from(ans LSPAnswer) string {
	if len(ans.Servers) == 0 {
		return "from the language server"
	}
	return "from " + strings.Join(ans.Servers, ", ")
}

// failuresNote is one line per server that failed, after a blank line.
func failuresNote(ans LSPAnswer) string {
	if len(ans.Failures) == 0 {
		return ""
	}
	return "\n\nNot answered: " + strings.Join(ans.Failures, "; ") + "."
}

// moreNote says how many were left out, and how to see more.
func moreNote(shown, total int, what string) string {
	if total <= shown {
		return ""
	}
	return fmt.Sprintf("\n… and %d more %s (max_results, up to %d, lists more).", total-shown, what, maxLSPLimit)
}

func formatLocations(q LSPQuery, ans LSPAnswer) string {
	name := opNames[q.Op]
	var b strings.Builder
	if len(ans.Locations) == 0 {
		fmt.Fprintf(&b, "%s of %s: none found, %s.", name, subject(ans), from(ans))
		b.WriteString(failuresNote(ans))
		return b.String()
	}
	total := max(ans.Total, len(ans.Locations))
	fmt.Fprintf(&b, "%s of %s, %s (%d):\n", name, subject(ans), from(ans), total)
	for _, l := range ans.Locations {
		b.WriteString(placeLine(l))
		b.WriteByte('\n')
	}
	b.WriteString(strings.TrimPrefix(moreNote(len(ans.Locations), total, "places"), "\n"))
	return strings.TrimRight(b.String(), "\n") + failuresNote(ans)
}

func formatHover(ans LSPAnswer) string {
	text := strings.TrimSpace(ans.Hover)
	if text == "" {
		return fmt.Sprintf("No hover information for %s, %s.", subject(ans), from(ans)) + failuresNote(ans)
	}
	return fmt.Sprintf("Hover for %s, %s:\n\n%s", subject(ans), from(ans), text) + failuresNote(ans)
}

func formatSymbols(q LSPQuery, ans LSPAnswer) string {
	var b strings.Builder
	workspace := q.Op == LSPOpWorkspaceSymbols
	switch {
	case workspace && len(ans.Symbols) == 0:
		return fmt.Sprintf("No symbols match %q in the workspace, %s.", q.Query, from(ans)) + failuresNote(ans)
	case workspace:
		fmt.Fprintf(&b, "Symbols matching %q, %s (%d):\n", q.Query, from(ans), max(ans.Total, len(ans.Symbols)))
	case len(ans.Symbols) == 0:
		return fmt.Sprintf("No symbols in %s, %s.", q.Path, from(ans)) + failuresNote(ans)
	default:
		fmt.Fprintf(&b, "Symbols of %s, %s (line:column):\n", ans.pathAsked(q), from(ans))
	}
	for _, s := range ans.Symbols {
		b.WriteString(strings.Repeat("  ", s.Depth))
		fmt.Fprintf(&b, "%s %s", s.Kind, s.Name)
		if s.Detail != "" {
			fmt.Fprintf(&b, " %s", oneLine(s.Detail))
		}
		if workspace {
			fmt.Fprintf(&b, "  %s", place(s.Location))
			if s.Container != "" {
				fmt.Fprintf(&b, " (in %s)", s.Container)
			}
		} else {
			fmt.Fprintf(&b, "  %d:%d", s.Location.Line, s.Location.Column)
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.TrimPrefix(moreNote(len(ans.Symbols), ans.Total, "symbols"), "\n"))
	return strings.TrimRight(b.String(), "\n") + failuresNote(ans)
}

// pathAsked is the file a question was about: as resolved, else as given.
func (a LSPAnswer) pathAsked(q LSPQuery) string {
	if a.Target != nil {
		return a.Target.Path
	}
	return q.Path
}

func formatCalls(q LSPQuery, ans LSPAnswer) string {
	incoming := q.Op == LSPOpIncomingCalls
	head, site := "Callers of", "calls it at"
	if !incoming {
		head, site = "Functions called by", "called at"
	}
	if len(ans.Calls) == 0 {
		return fmt.Sprintf("%s %s: none found, %s.", head, subject(ans), from(ans)) + failuresNote(ans)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s, %s (%d):\n", head, subject(ans), from(ans), max(ans.Total, len(ans.Calls)))
	for _, c := range ans.Calls {
		fmt.Fprintf(&b, "%s %s", c.Kind, c.Name)
		if c.Detail != "" {
			fmt.Fprintf(&b, " %s", oneLine(c.Detail))
		}
		fmt.Fprintf(&b, "  %s\n", place(c.Location))
		for _, s := range c.Sites {
			fmt.Fprintf(&b, "  %s %s\n", site, placeLine(s))
		}
	}
	b.WriteString(strings.TrimPrefix(moreNote(len(ans.Calls), ans.Total, "functions"), "\n"))
	return strings.TrimRight(b.String(), "\n") + failuresNote(ans)
}

func formatActions(ans LSPAnswer) string {
	if len(ans.Actions) == 0 {
		return fmt.Sprintf("No code actions for %s, %s.", subject(ans), from(ans)) + failuresNote(ans)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Code actions for %s, %s (listed only: none is applied):\n", subject(ans), from(ans))
	for _, a := range ans.Actions {
		fmt.Fprintf(&b, "- %s", oneLine(a.Title))
		if a.Kind != "" {
			fmt.Fprintf(&b, " [%s]", a.Kind)
		}
		if a.Preferred {
			b.WriteString(" (preferred)")
		}
		if a.Disabled != "" {
			fmt.Fprintf(&b, " (not available: %s)", oneLine(a.Disabled))
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n") + failuresNote(ans)
}

// oneLine joins a multi-line detail into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
