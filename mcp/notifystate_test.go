package mcp

import (
	"testing"
	"time"
)

func TestNotifyStateTransitions(t *testing.T) {
	type event int
	const (
		initialize event = iota
		selection
		listen
	)
	tests := []struct {
		name          string
		from          notifyStage
		event         event
		haveSelection bool // the server has a selection to send
		want          notifyStage
		wantSend      bool // the selection goes to the client now
	}{
		{"initializing without a selection sends nothing", stageConnected, initialize, false, stageInitialized, false},
		{"initializing with a selection sends it and owes it", stageConnected, initialize, true, stageOwesSelection, true},
		{"initializing twice changes nothing", stageInitialized, initialize, true, stageInitialized, false},
		{"initializing after listening changes nothing", stageListening, initialize, true, stageListening, false},

		{"a selection skips a client that has not initialized", stageConnected, selection, true, stageConnected, false},
		{"a selection to an initialized client is sent and owed", stageInitialized, selection, true, stageOwesSelection, true},
		{"a selection to a client that owes one is sent", stageOwesSelection, selection, true, stageOwesSelection, true},
		{"a selection to a listening client is sent", stageListening, selection, true, stageListening, true},

		{"listening before initializing sends the selection", stageConnected, listen, true, stageListening, true},
		{"listening before initializing, with no selection, sends none", stageConnected, listen, false, stageListening, false},
		{"listening after initializing sends no selection it did not miss", stageInitialized, listen, true, stageListening, false},
		{"listening sends an owed selection again", stageOwesSelection, listen, true, stageListening, true},
		{"listening twice sends nothing", stageListening, listen, true, stageListening, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := notifyState{stage: tt.from}
			var send bool
			switch tt.event {
			case initialize:
				send = n.initialize(tt.haveSelection)
			case selection:
				send = n.selection()
			case listen:
				began, s := n.listen(tt.haveSelection)
				if want := tt.from != stageListening; began != want {
					t.Errorf("listen from %v: began %v, want %v", tt.from, began, want)
				}
				send = s
			}
			if n.stage != tt.want || send != tt.wantSend {
				t.Errorf("from %v: stage %v, send selection %v; want %v, %v", tt.from, n.stage, send, tt.want, tt.wantSend)
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
