package chatpeer

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/peerbench"
)

// BenchmarkChatColdFirstToken: a fresh Neovim, the chat opened and a message sent as soon as
// the chat takes one (ours at once: the message waits for the CLI; the peer's only once its
// agent has a session, sooner fails), timed from the key that opens the chat to the answer's
// first text in the chat buffer (cold-ms). Beside it, the floor in the same sitting: the same
// CLI started directly in stream-json mode, the message written at once, to the answer's
// first text on its stdout (floor-ms): the CLI's own start-up plus one API round trip. Run it
// with -benchtime 3x or more: each iteration is a new Neovim and a new CLI.
func BenchmarkChatColdFirstToken(b *testing.B) {
	for _, p := range plugins(b) {
		b.Run(p.name, func(b *testing.B) {
			var cold, floor []time.Duration
			for i := 0; i < b.N; i++ {
				floor = append(floor, cliFloor(b))
				e := start(b, p)
				mark := e.mark()
				e.api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
				opened := time.Now()
				e.openWatched()
				if p.name != "claude.nvim" {
					e.waitReady()
				}
				e.send("Say hello")
				cold = append(cold, e.waitMark(mark).got.Sub(opened))
			}
			b.ReportMetric(ms(median(cold)), "cold-ms")
			b.ReportMetric(ms(median(floor)), "floor-ms")
			b.ReportMetric(float64(median(cold))/float64(median(floor)), "cold/floor")
		})
	}
}

// cliFloor starts the CLI as the chat does, bare (no MCP server, no settings of ours), writes
// one message at once and returns how long until the scripted answer's text came out.
func cliFloor(b *testing.B) time.Duration {
	b.Helper()
	took, _ := cliFloorSplit(b)
	return took
}

// cliFloorSplit is cliFloor, and how long until the message reached the API.
func cliFloorSplit(b *testing.B) (took, atAPI time.Duration) {
	b.Helper()
	api := fakeapi.New(b)
	env := clienv.New(b, api.URL())
	const mark = "FLOORMARK"
	api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
	start := time.Now()
	cli := startBareCLI(b, env)
	defer cli.close()
	cli.send("Say hello")
	for cli.lines.Scan() {
		if strings.Contains(cli.lines.Text(), mark) {
			took := time.Since(start)
			if main := api.Main(); len(main) > 0 {
				atAPI = main[0].Time.Sub(start)
			}
			return took, atAPI
		}
	}
	b.Fatalf("the CLI ended without the answer: %v", cli.lines.Err())
	return 0, 0
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// coldMilestones are the debug log's lines on the way from :ClaudeChat to the first token,
// in the order they happen, with the metric each becomes (ms from the key that opened the
// chat): the Go host runs, the folder's trust is read, the CLI is asked for and started,
// the CLI connects to our editor tools (MCP initialize), answers the chat's initialize,
// takes the message, and its first text is read. at-api is when the message reached the
// API stand-in, at-shown when the text was in the transcript.
var coldMilestones = []struct{ msg, metric string }{
	{"host: registered", "at-host-ms"},
	{"chat: trust checked", "at-trust-ms"},
	{"chat: start asked", "at-start-ms"},
	{"claude started", "at-spawned-ms"},
	{"mcp http: initialize", "at-mcp-ms"},
	{"chat: initialize answered", "at-init-ms"},
	{"chat: message written", "at-written-ms"},
	{"chat: first text read", "at-text-read-ms"},
}

// BenchmarkChatColdBreakdown is BenchmarkChatColdFirstToken for our chat alone, with the
// time split at each milestone of the host's debug log (coldMilestones), medians of the
// runs. Beside them, the floor's own split: the CLI's start to its request reaching the API
// (floor-at-api-ms) and to the text on its stdout (floor-ms).
func BenchmarkChatColdBreakdown(b *testing.B) {
	p := plugins(b)[0]
	b.Run(p.name, func(b *testing.B) { coldBreakdown(b, p) })
}

func coldBreakdown(b *testing.B, p plugin) {
	at := map[string][]time.Duration{}
	var floor, floorAPI []time.Duration
	for i := 0; i < b.N; i++ {
		f, fAPI := cliFloorSplit(b)
		floor, floorAPI = append(floor, f), append(floorAPI, fAPI)
		e := start(b, p)
		logPath := filepath.Join(e.env.Home, "claude-nvim.log")
		e.lua(nil, `local cli, log = ...
			require('claude').setup({ terminal_cmd = { cli }, log = { file = log, level = 'debug' } })`, clienv.Bin(b), logPath)
		mark := e.mark()
		e.api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
		opened := time.Now()
		e.openWatched()
		e.send("Say hello")
		shown := e.waitMark(mark).got
		at["at-shown-ms"] = append(at["at-shown-ms"], shown.Sub(opened))
		if main := e.api.Main(); len(main) > 0 {
			at["at-api-ms"] = append(at["at-api-ms"], main[0].Time.Sub(opened))
		}
		stamps := logStamps(b, logPath)
		for _, m := range coldMilestones {
			if t, ok := stamps[m.msg]; ok {
				at[m.metric] = append(at[m.metric], t.Sub(opened))
			}
		}
	}
	for metric, ds := range at {
		b.ReportMetric(ms(median(ds)), metric)
	}
	b.ReportMetric(ms(median(floor)), "floor-ms")
	b.ReportMetric(ms(median(floorAPI)), "floor-at-api-ms")
}

// logStamps reads the first time each message appears in the host's log (slog's text
// lines: time=… level=… msg=…).
func logStamps(b *testing.B, path string) map[string]time.Time {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatalf("the host's log: %v", err)
	}
	out := map[string]time.Time{}
	if os.Getenv("CHATPEER_DUMP_LOG") != "" {
		b.Log(string(data))
	}
	for _, line := range strings.Split(string(data), "\n") {
		stamp, rest, ok := strings.Cut(strings.TrimPrefix(line, "time="), " ")
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, stamp)
		if err != nil {
			continue
		}
		_, msg, ok := strings.Cut(rest, "msg=")
		if !ok {
			continue
		}
		msg = strings.Trim(strings.SplitN(msg, `" `, 2)[0], `"`)
		if _, seen := out[msg]; !seen {
			out[msg] = t
		}
	}
	return out
}

// BenchmarkChatPrestartFirstToken is BenchmarkChatColdFirstToken for our chat with
// chat.prestart on: Neovim starts, the chat's CLI starts in the background, and once it is
// ready (a user takes longer than that to type :ClaudeChat) the chat is opened and a message
// sent, timed from the key that opens the chat to the answer's first text (cold-ms), beside
// the floor. cli-rss-MiB is what the prestarted CLI costs, resident, before any message.
func BenchmarkChatPrestartFirstToken(b *testing.B) {
	p := plugins(b)[0]
	b.Run(p.name, func(b *testing.B) { prestartFirstToken(b, p) })
}

func prestartFirstToken(b *testing.B, p plugin) {
	var cold, floor []time.Duration
	var rss []int64
	for i := 0; i < b.N; i++ {
		floor = append(floor, cliFloor(b))
		e := start(b, p)
		e.lua(nil, `local cli = ...
			require('claude').setup({ terminal_cmd = { cli }, chat = { prestart = true } })`, clienv.Bin(b))
		e.waitReady()
		rss = append(rss, peerbench.RSS(peerbench.ChildNamed(e.helperPID(), filepath.Base(clienv.Bin(b)))))
		mark := e.mark()
		e.api.Push(fakeapi.Say(mark + " Hello from the scripted model."))
		opened := time.Now()
		e.openWatched()
		e.send("Say hello")
		cold = append(cold, e.waitMark(mark).got.Sub(opened))
	}
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	b.ReportMetric(ms(median(cold)), "cold-ms")
	b.ReportMetric(ms(median(floor)), "floor-ms")
	b.ReportMetric(float64(median(cold))/float64(median(floor)), "cold/floor")
	b.ReportMetric(float64(rss[len(rss)/2])/(1<<20), "cli-rss-MiB")
}
