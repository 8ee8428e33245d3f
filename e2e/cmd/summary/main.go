// Command summary turns `go test -json` output into the e2e report: one line per test as it
// ends (PASS, FAIL or SKIP with its time), the full output of every failed test, and a last
// line with the counts, e.g. "e2e (NVIM v0.12.1): 11 passed, 0 failed, 0 skipped in 31.6s".
//
//	go test -json ./e2e/ | go run ./e2e/cmd/summary -label "e2e (NVIM v0.12.1)"
//
// It exits 1 when a test or a package failed, or when no test passed at all (every test
// skipped: CLAUDE_BIN unset), so a pipeline with `set -o pipefail` fails either way.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build events name the package here
	Test       string
	Elapsed    float64
	Output     string
}

// report collects results; tests are keyed by package and top-level test name, so the
// output of subtests lands with their parent.
type report struct {
	out     io.Writer
	outputs map[string]*strings.Builder
	passed  int
	failed  []string
	skipped int
	pkgFail []string
}

func newReport(out io.Writer) *report {
	return &report{out: out, outputs: map[string]*strings.Builder{}}
}

func key(e event) string {
	top, _, _ := strings.Cut(e.Test, "/")
	return e.Package + "\x00" + top
}

func (r *report) add(e event) {
	k := key(e)
	switch e.Action {
	case "build-output": // compiler errors, before the package's own events
		fmt.Fprint(r.out, e.Output)
	case "output":
		b := r.outputs[k]
		if b == nil {
			b = &strings.Builder{}
			r.outputs[k] = b
		}
		b.WriteString(e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			if e.Action == "fail" {
				r.pkgFail = append(r.pkgFail, e.Package)
				fmt.Fprintf(r.out, "FAIL  package %s\n%s", e.Package, indent(r.outputs[k]))
			}
			return
		}
		if strings.Contains(e.Test, "/") {
			return // counted with its parent
		}
		elapsed := time.Duration(e.Elapsed * float64(time.Second)).Round(100 * time.Millisecond)
		switch e.Action {
		case "pass":
			r.passed++
			fmt.Fprintf(r.out, "PASS  %s (%v)\n", e.Test, elapsed)
		case "skip":
			r.skipped++
			fmt.Fprintf(r.out, "SKIP  %s\n", e.Test)
		case "fail":
			r.failed = append(r.failed, e.Test)
			fmt.Fprintf(r.out, "FAIL  %s (%v)\n%s", e.Test, elapsed, indent(r.outputs[k]))
		}
		delete(r.outputs, k)
	}
}

// indent returns a test's output for the report, each line indented.
func indent(b *strings.Builder) string {
	if b == nil {
		return ""
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line == "" || strings.HasPrefix(line, "=== ") {
			continue
		}
		out.WriteString("    | " + line)
	}
	if s := out.String(); s != "" && !strings.HasSuffix(s, "\n") {
		out.WriteString("\n")
	}
	return out.String()
}

// summary is the last line; ok says whether the run counts as a success.
func (r *report) summary(label string, took time.Duration) (string, bool) {
	line := fmt.Sprintf("%s: %d passed, %d failed, %d skipped in %v", label, r.passed, len(r.failed), r.skipped, took.Round(100*time.Millisecond))
	if len(r.failed) > 0 {
		line += " (failed: " + strings.Join(r.failed, ", ") + ")"
	}
	if len(r.pkgFail) > 0 {
		line += " (package failed: " + strings.Join(r.pkgFail, ", ") + ")"
	}
	ok := len(r.failed) == 0 && len(r.pkgFail) == 0 && r.passed > 0
	if r.passed == 0 && len(r.failed) == 0 && len(r.pkgFail) == 0 {
		line += " (no test passed: is CLAUDE_BIN set?)"
	}
	return line, ok
}

func main() {
	label := flag.String("label", "e2e", "what the last line calls this run")
	flag.Parse()
	start := time.Now()
	r := newReport(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Println(sc.Text()) // not test2json: a build error printed by go itself
			continue
		}
		r.add(e)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "summary: reading go test -json:", err)
		os.Exit(1)
	}
	line, ok := r.summary(*label, time.Since(start))
	fmt.Println(line)
	if !ok {
		os.Exit(1)
	}
}
