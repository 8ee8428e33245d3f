// Package procstat reads /proc/PID/stat, the kernel's one-line status of a process
// (Linux; elsewhere Read fails). Its second field, the command name, is in parentheses and
// may hold spaces and parentheses itself, so the fields after it are split after the last
// ')': the one parser the host's sweep, the benchmarks and the terminal tests share.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Stat is one /proc/PID/stat line.
type Stat struct {
	Comm   string   // field 2, the command name, without its parentheses
	fields []string // field 3 on
}

// Read reads pid's line.
func Read(pid int) (Stat, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return Stat{}, fmt.Errorf("procstat: no command name in /proc/%d/stat", pid)
	}
	return Stat{Comm: s[open+1 : end], fields: strings.Fields(s[end+1:])}, nil
}

// Field is field n as proc(5) numbers them (3, the state, and on); "" when the line has
// none.
func (s Stat) Field(n int) string {
	if i := n - 3; i >= 0 && i < len(s.fields) {
		return s.fields[i]
	}
	return ""
}

// Int is field n as a number; 0 when absent or not one.
func (s Stat) Int(n int) int64 {
	v, _ := strconv.ParseInt(s.Field(n), 10, 64)
	return v
}

// Fields is how many fields the line has in all, the pid and the command name counted.
func (s Stat) Fields() int { return len(s.fields) + 2 }
