package acp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// hasChildren says whether process pid has a child process, from the children lists of
// its threads (/proc/PID/task/TID/children; a node agent forks from any thread). known is
// false where the kernel does not keep those lists.
func hasChildren(pid int) (has, known bool) {
	lists, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	if err != nil || len(lists) == 0 {
		return false, false
	}
	for _, list := range lists {
		b, err := os.ReadFile(list)
		if err != nil {
			continue // the thread ended meanwhile
		}
		if strings.TrimSpace(string(b)) != "" {
			return true, true
		}
	}
	return false, true
}
