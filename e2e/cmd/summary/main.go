// Command summary turns `go test -json` output into the e2e report: one line per test as it
// ends (PASS, FAIL or SKIP with its time), the output of every failed test — of a test with
// subtests, only the failed subtests' — and a last line with the counts, e.g.
// "e2e (NVIM v0.12.1): 11 passed, 0 failed, 0 skipped in 31.6s".
//
//	go test -json ./e2e/ | go run ./e2e/cmd/summary -label "e2e (NVIM v0.12.1)"
//
// With -failures FILE it also appends each failure's report to FILE, so a long run can
// print them again at its very end, where a reader of only the log's tail sees them.
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

// report collects results. Output is kept per test, subtests apart from their parent: a
// subtest that passes or skips drops its own (a passing retry's log is noise beside the
// failure), one that fails hands it to its top-level test, which prints it when it ends.
type report struct {
	out      io.Writer
	failures io.Writer // where each failure's report is written again; nil for nowhere
	heading  string    // written to failures before the first of them, then cleared
	outputs  map[string]*strings.Builder
	passed   int
	failed   []string
	skipped  int
	pkgFail  []string
}

func newReport(out io.Writer) *report {
	return &report{out: out, outputs: map[string]*strings.Builder{}}
}

// key names a test's output: its package and its full name.
func key(e event) string { return e.Package + "\x00" + e.Test }

// parentKey names the output of the top-level test a subtest belongs to.
func parentKey(e event) string {
	top, _, _ := strings.Cut(e.Test, "/")
	return e.Package + "\x00" + top
}

func (r *report) buffer(k string) *strings.Builder {
	b := r.outputs[k]
	if b == nil {
		b = &strings.Builder{}
		r.outputs[k] = b
	}
	return b
}

func (r *report) add(e event) {
	k := key(e)
	switch e.Action {
	case "build-output": // compiler errors, before the package's own events
		fmt.Fprint(r.out, e.Output)
	case "output":
		r.buffer(k).WriteString(e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			if e.Action == "fail" {
				r.pkgFail = append(r.pkgFail, e.Package)
				r.printFailure(fmt.Sprintf("FAIL  package %s\n%s", e.Package, indent(r.outputs[k])))
			}
			return
		}
		if strings.Contains(e.Test, "/") {
			if e.Action == "fail" {
				// Named before its lines (go test's own "--- FAIL" line comes after
				// them, and is dropped), so a nested failure is easy to find.
				parent := r.buffer(parentKey(e))
				fmt.Fprintf(parent, "%s failed:\n", e.Test)
				if b := r.outputs[k]; b != nil {
					parent.WriteString(b.String())
				}
				r.failed = append(r.failed, e.Test)
			}
			delete(r.outputs, k)
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
			if !r.subtestFailed(e.Test) {
				r.failed = append(r.failed, e.Test)
			}
			r.printFailure(fmt.Sprintf("FAIL  %s (%v)\n%s", e.Test, elapsed, indent(r.outputs[k])))
		}
		delete(r.outputs, k)
	}
}

// failedTops is the failed top-level tests' names, each once, a line each; empty when a
// package failed without a failed test (it did not build, or died between tests): there
// is nothing to run again by name.
func (r *report) failedTops() string {
	if len(r.failed) == 0 {
		return ""
	}
	var out strings.Builder
	seen := map[string]bool{}
	for _, name := range r.failed {
		top, _, _ := strings.Cut(name, "/")
		if !seen[top] {
			seen[top] = true
			out.WriteString(top + "\n")
		}
	}
	return out.String()
}

// subtestFailed says whether a failed subtest of top is already counted.
func (r *report) subtestFailed(top string) bool {
	for _, name := range r.failed {
		if strings.HasPrefix(name, top+"/") {
			return true
		}
	}
	return false
}

func (r *report) printFailure(text string) {
	fmt.Fprint(r.out, text)
	if r.failures != nil {
		fmt.Fprint(r.failures, r.heading+text)
		r.heading = ""
	}
}

// indent returns a test's output for the report, each line indented, without go test's
// "=== RUN" and "--- PASS/SKIP/FAIL" lines (the report names a failure itself), and a line repeated many times in a row
// (a wait's "not yet" log) said once with its count.
func indent(b *strings.Builder) string {
	if b == nil {
		return ""
	}
	var out strings.Builder
	var last string
	repeats := 0
	flush := func() {
		if repeats > 0 {
			fmt.Fprintf(&out, "    | (the line above %d more times)\n", repeats)
			repeats = 0
		}
	}
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		trimmed := strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "=== ") ||
			strings.HasPrefix(trimmed, "--- PASS: ") || strings.HasPrefix(trimmed, "--- SKIP: ") ||
			strings.HasPrefix(trimmed, "--- FAIL: ") { // our own line names it, before its output
			continue
		}
		if line == last {
			repeats++
			continue
		}
		flush()
		last = line
		out.WriteString("    | " + line)
	}
	flush()
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
	failures := flag.String("failures", "", "a file to append each failure's report to")
	failedNames := flag.String("failed-names", "", "a file to write the failed top-level tests' names to, a line each")
	flag.Parse()
	start := time.Now()
	r := newReport(os.Stdout)
	if *failures != "" {
		f, err := os.OpenFile(*failures, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "summary:", err)
			os.Exit(1)
		}
		defer f.Close()
		r.failures, r.heading = f, "== "+*label+"\n"
	}
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
	if *failedNames != "" {
		if err := os.WriteFile(*failedNames, []byte(r.failedTops()), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "summary:", err)
			os.Exit(1)
		}
	}
	if !ok {
		os.Exit(1)
	}
}
