package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// streamedText builds the CLI's output for an answer of n bytes streamed in deltas of chunk
// bytes, each line as the CLI writes it (envelope with session id and uuid included).
func streamedText(n, chunk int) []byte {
	var buf bytes.Buffer
	env := func(event string, i int) {
		fmt.Fprintf(&buf, `{"type":"stream_event","event":%s,"session_id":"685c925a-c3c2-4c5f-ba7f-5a4e657ca088","parent_tool_use_id":null,"uuid":"f70f0449-c1ff-4c84-a492-%012d"}`+"\n", event, i)
	}
	env(`{"message":{"content":[],"id":"msg_1","model":"m","role":"assistant","type":"message"},"type":"message_start"}`, 0)
	env(`{"content_block":{"text":"","type":"text"},"index":0,"type":"content_block_start"}`, 1)
	words := strings.Repeat("Streaming text, word by word. ", n/30+1)[:n]
	for i := 0; i < n; i += chunk {
		b, _ := json.Marshal(words[i:min(i+chunk, n)])
		env(`{"delta":{"text":`+string(b)+`,"type":"text_delta"},"index":0,"type":"content_block_delta"}`, i+2)
	}
	env(`{"index":0,"type":"content_block_stop"}`, n+3)
	return buf.Bytes()
}

// BenchmarkStream1MiB pushes 1 MiB of streamed assistant text (deltas of 24 bytes, the size of a
// few tokens) through the line reader, the parser and the batcher, with a consumer taking
// batches as fast as it can. ns/op is per MiB.
func BenchmarkStream1MiB(b *testing.B) {
	const size, chunk = 1 << 20, 24
	input := streamedText(size, chunk)
	b.SetBytes(size)
	b.ReportAllocs()
	batches := 0
	for b.Loop() {
		bt := newBatcher(DefaultBatchWindow)
		got := make(chan int)
		go func() {
			n, total := 0, 0
			for {
				evs, err := bt.next(context.Background())
				if err == io.EOF {
					got <- total
					batches += n
					return
				}
				n++
				for _, e := range evs {
					if d, ok := e.(TextDelta); ok {
						total += len(d.Text)
					}
				}
			}
		}()
		p := newParser(bt.add)
		readLines(bytes.NewReader(input), maxLine, func(l []byte) bool {
			if err := p.parse(l); err != nil {
				b.Fatal(err)
			}
			return true
		}, func(int, []byte) { b.Fatal("line too long") })
		bt.close()
		if total := <-got; total != size {
			b.Fatalf("consumer got %d bytes of text, want %d", total, size)
		}
	}
	b.ReportMetric(float64(len(input))/float64(size), "wire-bytes/text-byte")
	b.ReportMetric(float64(batches)/float64(b.N), "batches/op")
}

// BenchmarkToolResult10MiB parses the user line of a Read whose result is 10 MiB, as the CLI
// prints it: one JSON line. ns/op is the parser's share of the delay before the transcript
// shows the result.
func BenchmarkToolResult10MiB(b *testing.B) {
	const size = 10 << 20
	var content strings.Builder
	for n := 1; content.Len() < size; n++ {
		fmt.Fprintf(&content, "%6d\tfunc generated%d() int { return %d } // \"filler\" to look like code\n", n, n, n)
	}
	line, err := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": content.String()},
	}}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		var got int
		p := newParser(func(e Event) {
			if r, ok := e.(ToolResult); ok {
				got = len(r.Content)
			}
		})
		if err := p.parse(line); err != nil {
			b.Fatal(err)
		}
		if got != content.Len() {
			b.Fatalf("got a result of %d bytes, want %d", got, content.Len())
		}
	}
}
