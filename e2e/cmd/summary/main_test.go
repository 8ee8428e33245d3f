package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func run(t *testing.T, events ...event) (string, string, bool) {
	t.Helper()
	var out strings.Builder
	var failures strings.Builder
	r := newReport(&out)
	r.failures, r.heading = &failures, "== e2e\n"
	for _, e := range events {
		// Through JSON, as go test -json writes them.
		b, _ := json.Marshal(e)
		var back event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		r.add(back)
	}
	line, ok := r.summary("e2e", 0)
	// Every failure is written again to the failures file, under one heading.
	got := failures.String()
	if !strings.Contains(out.String(), "FAIL  ") && got != "" {
		t.Errorf("failures file holds\n%s\nfor a run without a failure", got)
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "FAIL  ") && (!strings.HasPrefix(got, "== e2e\n") || !strings.Contains(got, l)) {
			t.Errorf("failures file\n%s\nlacks %q under its heading", got, l)
		}
	}
	return out.String(), line, ok
}

const pkg = "github.com/claude-nvim/claude.nvim/e2e"

func TestSummary(t *testing.T) {
	tests := []struct {
		name     string
		events   []event
		wantOut  []string // substrings of the per-test lines
		wantLine string
		wantOK   bool
	}{
		{"all passing tests make a success",
			[]event{
				{Action: "run", Package: pkg, Test: "TestA"},
				{Action: "output", Package: pkg, Test: "TestA", Output: "noise\n"},
				{Action: "pass", Package: pkg, Test: "TestA", Elapsed: 1.23},
				{Action: "pass", Package: pkg, Test: "TestB", Elapsed: 2},
				{Action: "pass", Package: pkg, Elapsed: 3.2},
			},
			[]string{"PASS  TestA (1.2s)\n", "PASS  TestB (2s)\n"},
			"e2e: 2 passed, 0 failed, 0 skipped in 0s", true},
		{"a failed test prints its output, its subtests' too, and fails the run",
			[]event{
				{Action: "output", Package: pkg, Test: "TestA", Output: "=== RUN   TestA\n"},
				{Action: "output", Package: pkg, Test: "TestA/sub", Output: "    a_test.go:9: wanted x\n"},
				{Action: "fail", Package: pkg, Test: "TestA/sub", Elapsed: 1},
				{Action: "fail", Package: pkg, Test: "TestA", Elapsed: 1},
				{Action: "pass", Package: pkg, Test: "TestB", Elapsed: 1},
				{Action: "fail", Package: pkg, Elapsed: 2},
			},
			[]string{"FAIL  TestA (1s)\n    | TestA/sub failed:\n    |     a_test.go:9: wanted x\n", "PASS  TestB (1s)\n"},
			"e2e: 1 passed, 1 failed, 0 skipped in 0s (failed: TestA/sub) (package failed: " + pkg + ")", false},
		{"of a test with subtests only the failed ones are shown, a repeated line once",
			[]event{
				{Action: "output", Package: pkg, Test: "TestA/ok", Output: "    a_test.go:5: retrying\n"},
				{Action: "output", Package: pkg, Test: "TestA/ok", Output: "    --- PASS: TestA/ok (1s)\n"},
				{Action: "pass", Package: pkg, Test: "TestA/ok", Elapsed: 1},
				{Action: "output", Package: pkg, Test: "TestA/bad", Output: "    a_test.go:5: not yet\n"},
				{Action: "output", Package: pkg, Test: "TestA/bad", Output: "    a_test.go:5: not yet\n"},
				{Action: "output", Package: pkg, Test: "TestA/bad", Output: "    a_test.go:5: not yet\n"},
				{Action: "output", Package: pkg, Test: "TestA/bad", Output: "    a_test.go:9: gave up\n"},
				{Action: "fail", Package: pkg, Test: "TestA/bad", Elapsed: 1},
				{Action: "fail", Package: pkg, Test: "TestA", Elapsed: 1},
			},
			[]string{"FAIL  TestA (1s)\n    | TestA/bad failed:\n    |     a_test.go:5: not yet\n" +
				"    | (the line above 2 more times)\n    |     a_test.go:9: gave up\n"},
			"e2e: 0 passed, 1 failed, 0 skipped in 0s (failed: TestA/bad)", false},
		{"two failed subtests of a test name it once to be run again",
			[]event{
				{Action: "fail", Package: pkg, Test: "TestA/one", Elapsed: 1},
				{Action: "fail", Package: pkg, Test: "TestA/two", Elapsed: 1},
				{Action: "fail", Package: pkg, Test: "TestA", Elapsed: 1},
				{Action: "fail", Package: pkg, Test: "TestB", Elapsed: 1},
			},
			[]string{"FAIL  TestA (1s)\n", "FAIL  TestB (1s)\n"},
			"e2e: 0 passed, 3 failed, 0 skipped in 0s (failed: TestA/one, TestA/two, TestB)", false},
		{"a package that does not build fails the run",
			[]event{
				{Action: "build-output", ImportPath: pkg + " [" + pkg + ".test]", Output: "e2e/x.go:1: syntax error\n"},
				{Action: "build-fail", ImportPath: pkg + " [" + pkg + ".test]"},
				{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + " [build failed]\n"},
				{Action: "fail", Package: pkg},
			},
			[]string{"e2e/x.go:1: syntax error\n", "FAIL  package " + pkg + "\n    | FAIL\t" + pkg + " [build failed]\n"},
			"e2e: 0 passed, 0 failed, 0 skipped in 0s (package failed: " + pkg + ")", false},
		{"a run where everything skipped is no success",
			[]event{
				{Action: "skip", Package: pkg, Test: "TestA"},
				{Action: "pass", Package: pkg},
			},
			[]string{"SKIP  TestA\n"},
			"e2e: 0 passed, 0 failed, 1 skipped in 0s (no test passed: is CLAUDE_BIN set?)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, line, ok := run(t, tt.events...)
			if strings.Contains(out, "retrying") || strings.Contains(out, "--- PASS") {
				t.Errorf("report\n%s\nshows a passed subtest's output", out)
			}
			for _, want := range tt.wantOut {
				if !strings.Contains(out, want) {
					t.Errorf("report\n%s\nlacks %q", out, want)
				}
			}
			if line != tt.wantLine || ok != tt.wantOK {
				t.Errorf("summary = %q, ok %v; want %q, ok %v", line, ok, tt.wantLine, tt.wantOK)
			}
		})
	}
}

// What scripts/e2e-run runs again: each failed top-level test once, nothing when a package
// failed without a failed test.
func TestTheFailedTestsAreNamedOnceToRunAgain(t *testing.T) {
	r := newReport(&strings.Builder{})
	for _, e := range []event{
		{Action: "fail", Package: pkg, Test: "TestA/one"},
		{Action: "fail", Package: pkg, Test: "TestA/two"},
		{Action: "fail", Package: pkg, Test: "TestA"},
		{Action: "pass", Package: pkg, Test: "TestC"},
		{Action: "fail", Package: pkg, Test: "TestB"},
		{Action: "fail", Package: pkg},
	} {
		r.add(e)
	}
	if got, want := r.failedTops(), "TestA\nTestB\n"; got != want {
		t.Errorf("failed tests to run again = %q, want %q", got, want)
	}
	r = newReport(&strings.Builder{})
	r.add(event{Action: "fail", Package: pkg})
	if got := r.failedTops(); got != "" {
		t.Errorf("a package that failed alone names %q to run again, want nothing", got)
	}
}
