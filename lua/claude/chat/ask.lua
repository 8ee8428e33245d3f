-- Claude's questions (AskUserQuestion) and plans (ExitPlanMode) in the
-- native chat. Both arrive as permission requests and wait in the
-- transcript like the others (render.lua): nothing here opens by itself,
-- so no key the user types elsewhere is taken. When the user answers
-- (<CR> in the transcript, :Claude chat answer), questions are asked one by
-- one with vim.ui.select (vim.ui.input for an answer of their own) and a
-- plan opens in a markdown buffer of its own, to read, edit and approve.
-- Cancelling anything sends nothing: the request still waits.
--
-- Each function gets `send(reply, line)`, which answers the request (the
-- host's reply fields) and writes line under it in the transcript.
local M = {}

local state = require("claude.chat.state")

local OTHER = "Other: type an answer of your own"
local DONE = "Done"

-- The transcript's lines for a question or plan request (render.lua
-- writes them and the "waiting for you" line after them).
function M.lines(item)
  if item.questions then
    local n = #item.questions
    local lines = { string.format("? Claude asks you %s", n == 1 and "a question" or (n .. " questions")) }
    for _, q in ipairs(item.questions) do
      table.insert(lines, string.format("  [%s] %s%s", q.header or "", q.question or "", q.multi_select and " (choose any)" or ""))
      for _, o in ipairs(q.options or {}) do
        local d = o.description or ""
        table.insert(lines, "    - " .. (o.label or "") .. (d ~= "" and (": " .. d) or ""))
        -- A preview (a mockup, a snippet) is read here, before answering.
        for _, l in ipairs(o.preview and o.preview ~= "" and vim.split(o.preview, "\n", { plain = true }) or {}) do
          table.insert(lines, "      │ " .. l)
        end
      end
    end
    return lines
  end
  local plan = vim.split(item.plan or "", "\n", { plain = true })
  if plan[#plan] == "" then
    table.remove(plan)
  end
  local lines = { string.format("? Claude's plan waits for your approval (%d lines)", #plan) }
  for _, l in ipairs(plan) do
    table.insert(lines, "  │ " .. l)
  end
  return lines
end

local function still_waits(c, item)
  return not c.withdrawn[item.id] and state.waiting(c) == item
end

local function left_waiting()
  require("claude.notify").info("nothing sent: Claude's request still waits (<CR> in the chat's transcript)")
end

local function option_text(o)
  local d = o.description or ""
  return (o.label or "") .. (d ~= "" and (" — " .. d) or "")
end

-- One question's prompt: its header, text and place among the others.
local function prompt(q, i, n)
  return state.clean(string.format("[%s] %s (%d/%d)", q.header or "", q.question or "", i, n))
end

-- Asks for an answer of the user's own; done(text), or done(nil) when
-- cancelled or left empty.
local function own_answer(q, done)
  vim.ui.input({ prompt = state.clean("Your answer to: " .. (q.question or "")) .. " " }, function(text)
    text = text and vim.trim(text)
    done(text ~= "" and text or nil)
  end)
end

local function single(q, i, n, done)
  local items = vim.deepcopy(q.options or {})
  table.insert(items, { other = true })
  vim.ui.select(items, {
    prompt = prompt(q, i, n),
    kind = "claude_question",
    format_item = function(it)
      return it.other and OTHER or option_text(it)
    end,
  }, function(it)
    if not it then
      return done(nil)
    end
    if it.other then
      return own_answer(q, done)
    end
    done(it.label)
  end)
end

-- A multi-select question: each pick toggles an option and shows the list
-- again, Done ends it; the labels chosen go in the options' order, an
-- answer of the user's own last.
local function multi(q, i, n, done)
  local chosen, own = {}, nil
  local function again()
    local items = {}
    for _, o in ipairs(q.options or {}) do
      table.insert(items, { option = o })
    end
    table.insert(items, { other = true })
    table.insert(items, { done = true })
    vim.ui.select(items, {
      prompt = prompt(q, i, n) .. " (choose any, then Done)",
      kind = "claude_question",
      format_item = function(it)
        if it.other then
          return own and ("[x] " .. OTHER .. ": " .. own) or ("[ ] " .. OTHER)
        elseif it.done then
          return DONE
        end
        return (chosen[it.option.label] and "[x] " or "[ ] ") .. option_text(it.option)
      end,
    }, function(it)
      if not it then
        return done(nil)
      end
      if it.done then
        local labels = {}
        for _, o in ipairs(q.options or {}) do
          if chosen[o.label] then
            table.insert(labels, o.label)
          end
        end
        table.insert(labels, own)
        if #labels == 0 then
          require("claude.notify").info("choose at least one answer, or type one of your own")
          return again()
        end
        return done(table.concat(labels, ", "))
      end
      if it.other then
        if own then
          own = nil
          return again()
        end
        return own_answer(q, function(text)
          own = text
          again()
        end)
      end
      chosen[it.option.label] = not chosen[it.option.label] or nil
      again()
    end)
  end
  again()
end

--- Asks the user item's questions, one after the other, and sends the
--- answers once all have one. Cancelling any question sends nothing.
function M.questions(c, item, send)
  local qs, answers, shown = item.questions or {}, {}, {}
  local function ask(i)
    if not still_waits(c, item) then
      return -- answered or withdrawn meanwhile
    end
    local q = qs[i]
    if not q then
      return send({ allow = true, answers = answers }, "answered: " .. table.concat(shown, "; "))
    end
    local how = q.multi_select and multi or single
    how(q, i, #qs, function(answer)
      if not answer then
        return left_waiting()
      end
      answers[q.question] = answer
      table.insert(shown, string.format("%s: %s", q.header or q.question, answer))
      ask(i + 1)
    end)
  end
  ask(1)
end

-- The modes a plan may be approved into: the CLI offers none in its request
-- (print mode), so these are the terminal's choices.
M.plan_modes = {
  { mode = "acceptEdits", label = "acceptEdits: make the edits without asking" },
  { mode = "default", label = "default: ask me about each edit" },
}

-- The plan window's winbar: its keys as the user types them (claude.keys).
local function winbar()
  local keys = require("claude.keys")
  local parts = { "Claude's plan: edit it as you like" }
  for _, k in ipairs({ { "plan.comment", "comment a line" }, { "plan.approve", "approve" }, { "plan.keep_planning", "keep planning (feedback)" } }) do
    local lhs = keys.shown(k[1])
    if lhs then
      table.insert(parts, lhs .. " " .. k[2])
    end
  end
  table.insert(parts, ":q closes (it still waits)")
  return table.concat(parts, " · "):gsub("%%", "%%%%")
end

local function plan_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

--- Opens item's plan in a markdown buffer (the one open already, if any)
--- in a new window: readable, editable and yankable. Its keys answer.
function M.open_plan(c, item, send)
  c.plans = c.plans or {}
  local buf = c.plans[item.id]
  if buf and vim.api.nvim_buf_is_valid(buf) then
    local win = vim.fn.bufwinid(buf)
    if win ~= -1 then
      return vim.api.nvim_set_current_win(win)
    end
  else
    buf = vim.api.nvim_create_buf(false, true)
    c.plans[item.id] = buf
    local name = item.plan_file ~= nil and item.plan_file ~= "" and vim.fn.fnamemodify(item.plan_file, ":t") or item.id
    pcall(vim.api.nvim_buf_set_name, buf, "claude-plan://" .. name)
    vim.bo[buf].filetype = "markdown"
    local lines = vim.split(item.plan or "", "\n", { plain = true })
    if lines[#lines] == "" and #lines > 1 then
      table.remove(lines)
    end
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    vim.bo[buf].modified = false
    local shown = plan_text(buf)
    local function done(reply, line)
      if not still_waits(c, item) then
        return require("claude.notify").info("this plan no longer waits for an answer")
      end
      send(reply, line)
      require("claude.chat.plan_comments").forget(buf)
      c.plans[item.id] = nil
      if vim.api.nvim_buf_is_valid(buf) then
        vim.api.nvim_buf_delete(buf, { force = true })
      end
    end
    local keys = require("claude.keys")
    keys.map(buf, "plan.approve", function()
      vim.ui.select(M.plan_modes, {
        prompt = "Approve Claude's plan and go on in mode:",
        kind = "claude_plan",
        format_item = function(m)
          return m.label
        end,
      }, function(m)
        if not m then
          return left_waiting()
        end
        local text = plan_text(buf)
        local edited = text ~= shown
        local line = string.format("approved%s: going on in mode %s", edited and " with your edits" or "", m.mode)
        -- Line comments go with an approval too: the plan Claude goes on
        -- with carries them after its text (the CLI takes an approved plan
        -- as the user edited it, and nothing else).
        local comments = require("claude.chat.plan_comments")
        local n = #comments.list(buf)
        if n > 0 then
          text = text .. "\n\n" .. comments.feedback(buf, "")
          edited = true
          line = string.format("%s (%d line comment%s)", line, n, n == 1 and "" or "s")
        end
        done({ allow = true, approve = true, mode = m.mode, plan = edited and (text .. "\n") or "" }, line)
      end)
    end)
    keys.map(buf, "plan.keep_planning", function()
      vim.ui.input({ prompt = "What should Claude change in the plan? " }, function(text)
        if text == nil then
          return left_waiting()
        end
        text = vim.trim(text)
        local comments = #require("claude.chat.plan_comments").list(buf)
        local line = text == "" and "keep planning" or ("keep planning: " .. text)
        if comments > 0 then
          line = string.format("%s (%d line comment%s)", line, comments, comments == 1 and "" or "s")
        end
        done({ allow = false, message = require("claude.chat.plan_comments").feedback(buf, text) }, line)
      end)
    end)
    keys.map(buf, "plan.comment", function()
      require("claude.chat.plan_comments").comment(buf)
    end)
  end
  vim.cmd("botright split")
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_set_option_value("winbar", winbar(), { scope = "local", win = vim.api.nvim_get_current_win() })
end

return M
