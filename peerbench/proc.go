package peerbench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/procstat"
)

// What the benchmarks read of a process from /proc: its CPU time, its
// resident memory, its children. Shared by this package's benchmarks and
// peerbench/chatpeer's.

// ChildNamed is the pid of parent's child process whose command is name, 0
// when there is none.
func ChildNamed(parent int, name string) int {
	found := 0
	eachProcess(func(pid int, st stat) bool {
		if st.ppid == parent && st.comm == name {
			found = pid
			return false
		}
		return true
	})
	return found
}

// eachProcess calls fn with every process /proc lists, until fn returns false.
func eachProcess(fn func(pid int, st stat) bool) {
	entries, _ := os.ReadDir("/proc")
	for _, ent := range entries {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if st, err := procStat(pid); err == nil && !fn(pid, st) {
			return
		}
	}
}

// DescendantsRSS is the resident memory of every process under pid (its
// children, theirs, …), in bytes: what a plugin adds in processes of its
// own, whatever they are named.
func DescendantsRSS(pid int) int64 { return sumDescendants(pid, RSS) }

// DescendantsAnon is the anonymous part of DescendantsRSS: what no other
// process and no file holds (an executable's pages stay in the page cache
// whether a process maps them or not).
func DescendantsAnon(pid int) int64 { return sumDescendants(pid, RSSAnon) }

func sumDescendants(pid int, of func(int) int64) int64 {
	children := map[int][]int{}
	eachProcess(func(child int, st stat) bool {
		children[st.ppid] = append(children[st.ppid], child)
		return true
	})
	var total int64
	queue := children[pid]
	for len(queue) > 0 {
		p := queue[0]
		queue = append(queue[1:], children[p]...)
		total += of(p)
	}
	return total
}

type stat struct {
	comm string
	ppid int
	cpu  time.Duration // user + system, every thread
}

// clockTick is USER_HZ: /proc's CPU times count in these on every Linux.
const clockTick = 10 * time.Millisecond

func procStat(pid int) (stat, error) {
	st, err := procstat.Read(pid)
	if err != nil {
		return stat{}, err
	}
	// Fields 4, 14 and 15: ppid, utime and stime.
	return stat{comm: st.Comm, ppid: int(st.Int(4)), cpu: time.Duration(st.Int(14)+st.Int(15)) * clockTick}, nil
}

// CPU is the CPU time pid has used; 0 for no process.
func CPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	st, _ := procStat(pid)
	return st.cpu
}

// RSS is pid's resident memory in bytes; 0 for no process.
func RSS(pid int) int64 { return status(pid, "VmRSS:") }

// RSSAnon is the part of rss that is not file pages (heap, stacks).
func RSSAnon(pid int) int64 { return status(pid, "RssAnon:") }

// status reads a kB field of /proc/pid/status, in bytes.
func status(pid int, field string) int64 {
	if pid == 0 {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
