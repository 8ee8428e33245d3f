package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Claude's questions (AskUserQuestion) and plans (ExitPlanMode) in the chat, with the real
// CLI: they wait in the transcript, the user answers them in the editor, and the stand-in
// sees what the model got.

// pickInOrder makes vim.ui.select and vim.ui.input answer from one queue, in order: a
// select picks the item shown as the next entry (no item shown so: cancel, which an entry
// "" asks for), an input answers the next entry ("\x00" cancels). Each prompt is kept in
// _G.asked.
func (s *session) pickInOrder(answers ...string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		_G.answers, _G.asked = {...}, {}
		local function next_answer(prompt)
			table.insert(_G.asked, prompt)
			return table.remove(_G.answers, 1)
		end
		vim.ui.select = function(items, opts, on_choice)
			local want = next_answer(opts.prompt)
			for i, it in ipairs(items) do
				if (opts.format_item or tostring)(it) == want then
					return on_choice(it, i)
				end
			end
			on_choice(nil, nil)
		end
		vim.ui.input = function(opts, on_confirm)
			local want = next_answer(opts.prompt)
			on_confirm(want ~= "\0" and want or nil)
		end`, toAny(answers)...)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// chatStatus is the chat's winbar text.
func (s *session) chatStatus() string {
	var status string
	s.nv.Lua(&status, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
	return status
}

// toolResult waits for the model to get the result of the scripted call of tool.
func (s *session) toolResult(tool string) fakeapi.Block {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	b, err := s.api.ToolResult(ctx, tool)
	if err != nil {
		s.t.Fatalf("%v; transcript:\n%s", err, s.chatTranscript())
	}
	return b
}

var chatQuestions = []fakeapi.Question{
	{Question: "Which colour?", Header: "Colour", Options: []fakeapi.Option{{Label: "Red", Description: "warm"}, {Label: "Blue", Description: "cold", Preview: "#0000ff"}}},
	{Question: "Which fruits?", Header: "Fruit", MultiSelect: true, Options: []fakeapi.Option{{Label: "Apple", Description: "crisp"}, {Label: "Pear"}, {Label: "Fig"}}},
	{Question: "Anything else?", Header: "Else", Options: []fakeapi.Option{{Label: "No"}, {Label: "Yes"}}},
}

func TestAChatQuestionIsAnsweredInTheEditorAndTheModelGetsTheAnswers(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Ask(chatQuestions...), fakeapi.Say("Red, apples and figs it is."))
	t.Cleanup(s.logTranscript)
	s.pickInOrder()
	s.openChat()
	s.chatSend("Ask me what I like")
	for _, want := range []string{"? Claude asks you 3 questions", "  [Colour] Which colour?", "    - Red: warm", "    - Blue: cold", "      │ #0000ff",
		"  [Fruit] Which fruits? (choose any)", "    - Apple: crisp", "    - Pear", "  [Else] Anything else?"} {
		s.waitChat(want)
	}
	s.waitChat("  ⎿  waiting for you: <CR> here or :Claude chat answer")
	if asked := s.asked(); len(asked) != 0 || !strings.Contains(s.chatStatus(), "waits for you") {
		t.Errorf("before the user answered: asked %q, winbar %q; want nothing asked, the winbar saying Claude waits", asked, s.chatStatus())
	}

	// Cancelled at the second question: nothing is sent, the questions still wait.
	s.pickInOrder("Red — warm", "")
	s.goToTranscript()
	s.nv.Keys("<CR>")
	nvimtest.Wait(t, "both questions asked", turnTimeout, func() bool { return len(s.asked()) == 2 })
	if strings.Contains(s.chatTranscript(), "answered:") || !strings.Contains(s.chatStatus(), "waits for you") {
		t.Errorf("after a cancel the transcript says %q, the winbar %q; want the questions still waiting", s.chatTranscript(), s.chatStatus())
	}

	// Apple and Pear ticked, Pear unticked, Fig ticked; then an answer of the user's own.
	s.pickInOrder("Red — warm", "[ ] Apple — crisp", "[ ] Pear", "[x] Pear", "[ ] Fig", "Done",
		"Other: type an answer of your own", "make it quick")
	s.nv.Cmd("ClaudeChatAnswer")
	s.waitChat("  ⎿  answered: Colour: Red; Fruit: Apple, Fig; Else: make it quick")
	s.waitChat("Red, apples and figs it is.")
	wantPrompts := []string{"[Colour] Which colour? (1/3)", "[Fruit] Which fruits? (2/3) (choose any, then Done)"}
	if asked := s.asked(); len(asked) != 8 || asked[0] != wantPrompts[0] || asked[1] != wantPrompts[1] || asked[6] != "[Else] Anything else? (3/3)" {
		t.Errorf("the user was asked %q, want each question's header, text and place", asked)
	}
	got := strings.Join(s.toolResult("AskUserQuestion").Texts(), "")
	const want = `: "Which colour?"="Red", "Which fruits?"="Apple, Fig", "Anything else?"="make it quick". `
	if !strings.Contains(got, want) {
		t.Errorf("the model got %q, want the answers %q", got, want)
	}
}

const chatPlan = "# Plan\n\n1. Make the second line of greet.txt louder\n"

// startChatPlan opens a chat in plan mode whose model writes chatPlan and asks to approve it,
// then the rest of script; it returns once the plan waits in the transcript.
func startChatPlan(t *testing.T, script ...fakeapi.Turn) *session {
	t.Helper()
	s := newSession(t, fakeapi.WritePlan(chatPlan), fakeapi.ExitPlanMode())
	t.Cleanup(s.logTranscript)
	s.api.Push(script...)
	s.openChat()
	s.nv.Cmd("ClaudeChatMode plan")
	s.waitChat("_Mode: plan_")
	s.chatSend("Plan how to make greet.txt louder")
	s.waitChat("? Claude's plan waits for your approval (3 lines)")
	s.waitChat("  │ 1. Make the second line of greet.txt louder")
	s.waitChat("  ⎿  waiting for you: <CR> here or :Claude chat answer")
	return s
}

// openPlan opens the plan waiting, as the user does with Enter in the transcript, and
// checks the buffer it opens in.
func (s *session) openPlan() {
	s.t.Helper()
	s.goToTranscript()
	s.nv.Keys("<CR>")
	var plan struct {
		Name     string   `msgpack:"name"`
		Winbar   string   `msgpack:"winbar"`
		Filetype string   `msgpack:"filetype"`
		Lines    []string `msgpack:"lines"`
	}
	nvimtest.Wait(s.t, "the plan's buffer", turnTimeout, func() bool {
		s.nv.Lua(&plan, `return { name = vim.api.nvim_buf_get_name(0), winbar = vim.wo.winbar, filetype = vim.bo.filetype,
			lines = vim.api.nvim_buf_get_lines(0, 0, -1, false) }`)
		return strings.HasPrefix(plan.Name, "claude-plan://")
	})
	if got := strings.Join(plan.Lines, "\n") + "\n"; got != chatPlan || plan.Filetype != "markdown" {
		s.t.Errorf("the plan's buffer holds %q (filetype %q), want the plan %q in markdown", got, plan.Filetype, chatPlan)
	}
	if !strings.Contains(plan.Winbar, `\a approve`) || !strings.Contains(plan.Winbar, `\k keep planning`) {
		s.t.Errorf("the plan's winbar says %q, want its keys", plan.Winbar)
	}
}

func TestAChatPlanEditedAndApprovedInAcceptEditsModeGoesOnWithoutReviews(t *testing.T) {
	t.Parallel()
	s := startChatPlan(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Done, as planned."))
	s.openPlan()
	s.nv.Keys("Go2. Keep the other lines<Esc>")
	s.pickInOrder("acceptEdits: make the edits without asking")
	s.nv.Keys(`\a`)
	s.waitChat("  ⎿  approved with your edits: going on in mode acceptEdits")
	s.waitChat("Done, as planned.")
	if st := s.chatStatus(); !strings.Contains(st, "acceptEdits") {
		t.Errorf("after approving in acceptEdits the winbar says %q", st)
	}
	if strings.Contains(s.chatTranscript(), "review the proposed change") {
		t.Errorf("after approving in acceptEdits mode the edit was still sent to review")
	}
	if got := s.fileContent(path); got != proposed {
		t.Errorf("after the approved plan's edit %s holds %q, want %q", path, got, proposed)
	}
	got := strings.Join(s.toolResult("ExitPlanMode").Texts(), "")
	if !strings.Contains(got, "User has approved your plan.") || !strings.Contains(got, "## Approved Plan (edited by user):\n"+strings.TrimSpace(chatPlan)+"\n2. Keep the other lines") {
		t.Errorf("the model got %q, want the approval with the plan as the user edited it", got)
	}
	var plans int
	s.nv.Lua(&plans, `local n = 0; for _, b in ipairs(vim.api.nvim_list_bufs()) do
		if vim.api.nvim_buf_get_name(b):match('^claude%-plan://') then n = n + 1 end end; return n`)
	if plans != 0 {
		t.Errorf("%d plan buffers left after the answer, want none", plans)
	}
}

func TestAChatPlanKeptWithFeedbackTellsTheModelAndStaysInPlanMode(t *testing.T) {
	t.Parallel()
	const feedback = "Add a test first."
	s := startChatPlan(t, fakeapi.Say("I will add a test to the plan."))
	s.openPlan()
	s.pickInOrder("\x00") // the feedback prompt cancelled: the plan still waits
	s.nv.Keys(`\k`)
	nvimtest.Wait(t, "the feedback prompt", turnTimeout, func() bool { return len(s.asked()) == 1 })
	if strings.Contains(s.chatTranscript(), "keep planning") || !strings.Contains(s.chatStatus(), "waits for you") {
		t.Errorf("after a cancelled feedback: winbar %q; want the plan still waiting", s.chatStatus())
	}
	s.pickInOrder(feedback)
	s.nv.Keys(`\k`)
	s.waitChat("  ⎿  keep planning: " + feedback)
	s.waitChat("I will add a test to the plan.")
	result := s.toolResult("ExitPlanMode")
	if got := strings.Join(result.Texts(), ""); !result.IsError || got != feedback {
		t.Errorf("the model got %q (error %v), want the feedback %q", got, result.IsError, feedback)
	}
	if st := s.chatStatus(); !strings.Contains(st, "plan") {
		t.Errorf("after keeping on planning the winbar says %q, want mode plan", st)
	}
}

// Plan review with line comments (issue 36): comments on lines of the plan (gl), then keep
// planning (gk) with a word on the whole: the model gets them as one feedback, each comment
// after the line it is on.
func TestAChatPlansLineCommentsReachTheModelAsOneFeedback(t *testing.T) {
	t.Parallel()
	const comment, overall = "louder than what? say by how much", "Otherwise fine."
	s := startChatPlan(t, fakeapi.Say("I will say by how much."))
	s.openPlan()
	s.pickInOrder(comment, overall)
	s.nv.Keys("3Ggl")
	var shown []string
	s.nv.Lua(&shown, `local out = {}
		for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, vim.api.nvim_get_namespaces().claude_plan_comments, 0, -1, { details = true })) do
			table.insert(out, m[2] .. ":" .. m[4].virt_lines[1][1][1])
		end
		return out`)
	if len(shown) != 1 || shown[0] != "2:  ✎ "+comment {
		t.Errorf("after gl the plan shows the comments %q, want %q under line 3", shown, comment)
	}
	s.nv.Keys(`\k`)
	s.waitChat("  ⎿  keep planning: " + overall + " (1 line comment)")
	s.waitChat("I will say by how much.")
	result := s.toolResult("ExitPlanMode")
	want := "The user commented on 1 line of your plan:\n- line 3, \"1. Make the second line of greet.txt louder\": " + comment + "\nAnd on the whole plan: " + overall
	if got := strings.Join(result.Texts(), ""); !result.IsError || got != want {
		t.Errorf("the model got %q (error %v), want the comments as one feedback %q", got, result.IsError, want)
	}
}

// Comments go with an approval too: in the plan Claude goes on with.
func TestAChatPlanApprovedWithLineCommentsGoesOnWithThem(t *testing.T) {
	t.Parallel()
	const comment = "say LOUDER in capitals"
	s := startChatPlan(t, fakeapi.Say("Going on with your notes."))
	s.openPlan()
	s.pickInOrder(comment)
	s.nv.Keys("3Ggl")
	s.pickInOrder("default: ask me about each edit")
	s.nv.Keys(`\a`)
	s.waitChat("  ⎿  approved: going on in mode default (1 line comment)")
	s.waitChat("Going on with your notes.")
	got := strings.Join(s.toolResult("ExitPlanMode").Texts(), "")
	want := strings.TrimSpace(chatPlan) + "\n\nThe user commented on 1 line of your plan:\n- line 3, \"1. Make the second line of greet.txt louder\": " + comment
	if !strings.Contains(got, "User has approved your plan.") || !strings.Contains(got, want) {
		t.Errorf("the model got %q, want the approval with the comment after the plan %q", got, want)
	}
}
