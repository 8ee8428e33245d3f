package chat

import (
	"errors"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

func TestTheCLIReportsTheContextFillOfTheLastRequestAndTakesAnEffort(t *testing.T) {
	r := newCLIRun(t, fakeapi.Filled("first", 250_000), fakeapi.Say("second"))
	s := r.start(Options{})
	if err := s.Send(r.ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	r.until("the first turn's end", isTurnEnd)
	u, err := s.ContextUsage(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.Tokens != 250_000 || u.MaxTokens == 0 || u.Percent != 250_000*100/u.MaxTokens {
		t.Errorf("after an answer that used 250000 tokens of input, get_context_usage says %+v", u)
	}
	before, err := s.Effort(r.ctx)
	if err != nil || before == "" {
		t.Fatalf("get_settings' applied effort: %q, %v", before, err)
	}
	if err := s.SetEffort(r.ctx, "bogus"); !errors.Is(err, ErrUnknownEffort) {
		t.Errorf("SetEffort(bogus) = %v, want ErrUnknownEffort (the CLI takes any string without a word)", err)
	}
	if err := s.SetEffort(r.ctx, "max"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Effort(r.ctx); got != "max" || err != nil {
		t.Errorf("after SetEffort(max) the CLI applies %q (%v)", got, err)
	}
	if err := s.Send(r.ctx, "again"); err != nil {
		t.Fatal(err)
	}
	r.until("the second turn's end", isTurnEnd)
	if oc := r.api.Main()[1].Messages.OutputConfig; oc == nil || oc.Effort != "max" {
		t.Errorf("after SetEffort(max) the request's output_config is %+v, want effort max", oc)
	}
	if err := s.SetEffort(r.ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Effort(r.ctx); got != before || err != nil {
		t.Errorf("after SetEffort(\"\") the CLI applies %q (%v), want its default %q again", got, err, before)
	}
}
