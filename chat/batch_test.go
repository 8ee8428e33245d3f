package chat

import (
	"context"
	"errors"
	"io"
	"reflect"
	"testing"
	"time"
)

func nextBatch(t *testing.T, b *batcher) []Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	evs, err := b.next(ctx)
	if err != nil {
		t.Fatalf("next: %v", err)
	}
	return evs
}

func TestBatcherMergesDeltasAndHoldsThemForTheWindow(t *testing.T) {
	b := newBatcher(time.Hour) // the window never ends by itself here

	b.add(TextDelta{"a"})
	if got, want := nextBatch(t, b), []Event{TextDelta{"a"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("first event after a quiet window: got %v, want %v at once", got, want)
	}

	for _, e := range []Event{TextDelta{"b"}, TextDelta{"c"}, ThinkingDelta{"t1"}, ThinkingDelta{"t2"},
		ToolInputDelta{"x", `{"a":`}, ToolInputDelta{"x", `1}`}, ToolInputDelta{"y", `{}`}, BlockEnd{}, TextDelta{"d"}} {
		b.add(e)
	}
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if evs, err := b.next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("within the window next = %v, %v; want it to wait", evs, err)
	}

	b.add(TurnEnd{Subtype: "success"}) // urgent: the batch goes now
	want := []Event{TextDelta{"bc"}, ThinkingDelta{"t1t2"}, ToolInputDelta{"x", `{"a":1}`}, ToolInputDelta{"y", `{}`},
		BlockEnd{}, TextDelta{"d"}, TurnEnd{Subtype: "success"}}
	if got := nextBatch(t, b); !reflect.DeepEqual(got, want) {
		t.Errorf("batch = %#v\nwant %#v", got, want)
	}

	b.add(TextDelta{"e"})
	b.close()
	b.add(TextDelta{"after close"})
	if got, want := nextBatch(t, b), []Event{TextDelta{"e"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after close got %v, want what was pending, %v", got, want)
	}
	if _, err := b.next(context.Background()); err != io.EOF {
		t.Errorf("next after the last batch: %v, want io.EOF", err)
	}
}

func TestBatcherWindowEnds(t *testing.T) {
	b := newBatcher(time.Millisecond)
	b.add(TextDelta{"a"})
	nextBatch(t, b)
	b.add(TextDelta{"b"})
	b.add(TextDelta{"c"})
	if got, want := nextBatch(t, b), []Event{TextDelta{"bc"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v once the window ended", got, want)
	}
}
