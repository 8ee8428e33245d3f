package chat

import (
	"context"
	"testing"
)

// Tell writes the same user line as Send, but starts no turn: a CLI that exits after it,
// with no turn running, did not die mid-turn.
func TestTellWritesAUserLineAndStartsNoTurn(t *testing.T) {
	// The script hands our line back as a tool result, so the test sees exactly what was written.
	bin := fakeCLI(t, `
read line
printf '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":%s}]}}\n' "$(printf '%s' "$line" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
`)
	s, err := Start(Options{Bin: bin, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(context.Background(), ""); err == nil {
		t.Error("Tell of nothing succeeded")
	}
	if err := s.Tell(context.Background(), "The user modified your proposed changes."); err != nil {
		t.Fatal(err)
	}
	evs := drain(t, s)
	want := `{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"The user modified your proposed changes."}]},"parent_tool_use_id":null}`
	if got := evs[0].(ToolResult).Content; got != want {
		t.Errorf("line written =\n%s\nwant\n%s", got, want)
	}
	if ex := evs[len(evs)-1].(Exited); ex.MidTurn {
		t.Errorf("Exited = %+v, want not mid-turn: Tell starts no turn", ex)
	}
}
