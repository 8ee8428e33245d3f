package host

import (
	"os"
	"strconv"
	"strings"
)

// processStart is when process pid started, in clock ticks since boot (field 22 of
// /proc/PID/stat): with the pid, it names one process, not whichever gets the pid next.
// "" when it cannot be read.
func processStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name, field 2, is in parentheses and may hold spaces or parentheses:
	// the fields after it follow the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:])
	const startField = 22 - 3 // fields counted from the state, field 3
	if len(fields) <= startField {
		return ""
	}
	return fields[startField]
}
