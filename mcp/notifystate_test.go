package mcp

import (
	"testing"
	"time"
)

func TestNotifyStateTransitions(t *testing.T) {
	// outcome is where one event leaves a client, and whether the
	// server's selection goes to it now.
	type outcome struct {
		to   notifyStage
		send bool
	}
	// Each event starts afresh from the row's stage.
	tests := []struct {
		name                          string
		from                          notifyStage
		haveSelection                 bool // the server has a selection to send
		initialize, selection, listen outcome
	}{
		{"a connected client gets the selection on initializing or on listening first", stageConnected, true, outcome{stageOwesSelection, true}, outcome{stageConnected, false}, outcome{stageListening, true}},
		{"a connected client is sent no selection while the server has none", stageConnected, false, outcome{stageInitialized, false}, outcome{stageConnected, false}, outcome{stageListening, false}},
		{"an initialized client owes a new selection but has missed none on listening", stageInitialized, true, outcome{stageInitialized, false}, outcome{stageOwesSelection, true}, outcome{stageListening, false}},
		{"a client that owes the selection gets each new one and it again on listening", stageOwesSelection, true, outcome{stageOwesSelection, false}, outcome{stageOwesSelection, true}, outcome{stageListening, true}},
		{"a listening client gets each new selection and stays listening", stageListening, true, outcome{stageListening, false}, outcome{stageListening, true}, outcome{stageListening, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(event string, n notifyState, send bool, want outcome) {
				t.Helper()
				if n.stage != want.to || send != want.send {
					t.Errorf("%s from %v: stage %v, send selection %v; want %v, %v", event, tt.from, n.stage, send, want.to, want.send)
				}
			}
			n := notifyState{stage: tt.from}
			send := n.initialize(tt.haveSelection)
			check("initialize", n, send, tt.initialize)

			n = notifyState{stage: tt.from}
			send = n.selection()
			check("selection", n, send, tt.selection)

			n = notifyState{stage: tt.from}
			began, send := n.listen(tt.haveSelection)
			check("listen", n, send, tt.listen)
			if want := tt.from != stageListening; began != want {
				t.Errorf("listen from %v: began %v, want %v", tt.from, began, want)
			}
		})
	}
}

func TestNotifyStateDecidesWhatReachesAClient(t *testing.T) {
	tests := []struct {
		stage                notifyStage
		broadcasts, mentions bool
	}{
		{stageConnected, false, false},
		{stageInitialized, true, false},
		{stageOwesSelection, true, false},
		{stageListening, true, true},
	}
	for _, tt := range tests {
		t.Run("a client "+tt.stage.String()+" gets broadcasts and mentions as listed", func(t *testing.T) {
			n := notifyState{stage: tt.stage}
			if got := n.broadcasts(); got != tt.broadcasts {
				t.Errorf("%v: broadcasts %v, want %v", tt.stage, got, tt.broadcasts)
			}
			if got := n.mentions(); got != tt.mentions {
				t.Errorf("%v: mentions %v, want %v", tt.stage, got, tt.mentions)
			}
		})
	}
}

func TestNotifyStateSchedulesListening(t *testing.T) {
	never := func() { t.Error("a timer that should not exist fired") }

	t.Run("no delay means listen now", func(t *testing.T) {
		var n notifyState
		if now := n.scheduleListen(0, never); !now || n.timer != nil {
			t.Errorf("scheduleListen(0): now %v, timer %v; want now and no timer", now, n.timer)
		}
	})
	t.Run("a delay sets a timer and listening is pending", func(t *testing.T) {
		var n notifyState
		if now := n.scheduleListen(time.Hour, never); now || !n.listenPending() {
			t.Errorf("scheduleListen(1h): now %v, pending %v; want later, pending", now, n.listenPending())
		}
		n.stop()
		if n.listenPending() {
			t.Error("stop left listening pending")
		}
	})
	t.Run("a later schedule replaces a pending one", func(t *testing.T) {
		var n notifyState
		n.scheduleListen(time.Hour, never)
		first := n.timer
		n.scheduleListen(time.Hour, never)
		if n.timer == first || first.Stop() {
			t.Error("the first timer is still pending after a second schedule")
		}
		n.stop()
	})
	t.Run("a listening client needs no schedule", func(t *testing.T) {
		n := notifyState{stage: stageListening}
		if now := n.scheduleListen(0, never); now || n.timer != nil {
			t.Errorf("scheduleListen on a listening client: now %v, timer %v; want neither", now, n.timer)
		}
	})
	t.Run("listening cancels a pending timer", func(t *testing.T) {
		n := notifyState{stage: stageInitialized}
		n.scheduleListen(time.Hour, never)
		first := n.timer
		n.listen(false)
		if n.timer != nil || first.Stop() {
			t.Error("the timer is still pending after listening")
		}
	})
}
