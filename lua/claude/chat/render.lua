-- The native chat's transcript (state.lua keeps the chats): how
-- each of the host's items is rendered, the folds under summary lines, and
-- the permission prompts. Each render function gets the chat and its
-- (modifiable) transcript.
local M = {}

local state = require("claude.chat.state")

-- What a summary line unfolds to (a tool's input and result, a thinking
-- block's text) starts with BODY.
local BODY = "  │ "

-- The transcript folds by hand ('foldmethod' manual: nothing is evaluated
-- per line): a tool's summary line with its input, a result line with its
-- lines, a thinking header with its text. The transcript only grows at its
-- end, so each chat keeps its folds' line ranges (c.folds) and a window
-- opened on it later gets them too (M.refold). Folds are made closed, so each
-- tool use reads as one line.

local function last_line(buf)
  local n = vim.api.nvim_buf_line_count(buf)
  return n, vim.api.nvim_buf_get_lines(buf, n - 1, n, false)[1]
end

local clean = state.clean

-- Adds whole lines at the end; blank first separates them from what is above.
local function add(c, buf, lines, blank)
  for i, l in ipairs(lines) do
    lines[i] = clean(l)
  end
  local n, last = last_line(buf)
  if n == 1 and last == "" then
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, lines)
    return
  end
  if blank and last ~= "" then
    table.insert(lines, 1, "")
  end
  vim.api.nvim_buf_set_lines(buf, n, n, false, lines)
  c.streaming = nil
end

-- Appends streamed text to the last line, splitting at newlines; each new
-- line starts with prefix, if given.
local function stream(buf, text, prefix)
  local n, last = last_line(buf)
  local parts = vim.split(text, "\n", { plain = true })
  for i, p in ipairs(parts) do
    parts[i] = clean(p)
  end
  parts[1] = last .. parts[1]
  if prefix then
    for i = 2, #parts do
      parts[i] = prefix .. parts[i]
    end
  end
  vim.api.nvim_buf_set_lines(buf, n - 1, n, false, parts)
end

-- lines as the folded body of the line above them.
local function body(lines)
  local out = {}
  for i, l in ipairs(lines or {}) do
    out[i] = BODY .. l
  end
  return out
end

local function write(c, fn)
  if not state.valid(c.tbuf) then
    return
  end
  vim.bo[c.tbuf].modifiable = true
  local ok, err = pcall(fn, c.tbuf)
  vim.bo[c.tbuf].modifiable = false
  if not ok then
    require("claude.notify").error("chat: " .. tostring(err))
  end
  require("claude.chat.highlight").update(c.tbuf)
  require("claude.chat.queue").draw(c)
end

local function first_line(s)
  return (tostring(s or ""):gsub("\n.*", ""))
end

-- What a tool call is about, from its input: the command, the path
-- (relative to the chat's directory when inside it), ….
local function about(c, item)
  local input = type(item.input) == "table" and item.input or {}
  local path = input.file_path or input.notebook_path
  local cwd = c.cwd or c.dir
  if type(path) == "string" and vim.startswith(path, cwd .. "/") then
    path = path:sub(#cwd + 2)
  end
  return first_line(input.command or path or input.url or input.pattern or input.query or item.description or "")
end

local function where(dest)
  return ({
    session = "for this session",
    localSettings = "always, in .claude/settings.local.json",
    projectSettings = "always, in .claude/settings.json",
    userSettings = "always, in your user settings",
  })[dest or "session"] or ("in " .. tostring(dest))
end

-- A permission_suggestions entry as a choice the user can read.
local function describe(s)
  if type(s) ~= "table" then
    return "Allow (" .. tostring(s) .. ")"
  end
  if s.type == "setMode" then
    return string.format("Allow, and switch to mode %s %s", s.mode, where(s.destination))
  elseif s.type == "addRules" or s.type == "replaceRules" then
    local rules = {}
    for _, r in ipairs(s.rules or {}) do
      table.insert(rules, r.ruleContent and (r.toolName .. "(" .. r.ruleContent .. ")") or r.toolName)
    end
    return string.format("Allow, and allow %s %s", table.concat(rules, ", "), where(s.destination))
  elseif s.type == "addDirectories" then
    return string.format("Allow, and add %s to the workspace %s", table.concat(s.directories or {}, ", "), where(s.destination))
  end
  return "Allow, and " .. vim.json.encode(s)
end

-- The oldest permission request still waiting for the user, or nil.
local waiting = state.waiting

local function answer(c, item, reply, line)
  for i, it in ipairs(c.queue) do
    if it == item then
      table.remove(c.queue, i)
      break
    end
  end
  reply.dir, reply.request_id = c.dir, item.id
  if not c.withdrawn[item.id] then
    require("claude.host").answer_chat(reply)
    write(c, function(buf)
      add(c, buf, { "  ⎿  " .. line })
    end)
    state.follow(c)
  end
  state.update_status(c)
end

-- A plain deny stops the turn, as the terminal's "No" does: Claude waits
-- for the user's next message instead of trying something else at once.
-- "Deny, and tell Claude why" goes on, with the reason (chat/doc.go).
local DENIED = "denied; the turn stops"
local function deny()
  return { allow = false, message = "", stop = true }
end

-- The picker the user opens for one request. Allow once and deny are one
-- choice each; allowing for good (a permission_suggestions entry) also
-- asks for a typed "yes", so that no stray digit and Enter grants it.
local function pick(c, item)
  local choices = {
    { label = "Allow once", allow = true },
    { label = "Deny" },
    { label = "Deny, and tell Claude why", reason = true },
  }
  for i, s in ipairs(item.suggestions or {}) do
    table.insert(choices, { label = describe(s), allow = true, suggestion = i })
  end
  vim.ui.select(choices, {
    prompt = clean(string.format("Claude wants to use %s: %s", item.name, about(c, item))),
    kind = "claude_permission",
    format_item = function(ch)
      return ch.suggestion and (ch.label .. " (asks you to type yes)") or ch.label
    end,
  }, function(choice)
    if not choice or c.withdrawn[item.id] or waiting(c) ~= item then
      return -- dismissed (it still waits), or answered meanwhile
    end
    if choice.suggestion then
      vim.ui.input({ prompt = choice.label .. "? Type yes to confirm: " }, function(text)
        if text and vim.trim(text):lower() == "yes" then
          answer(c, item, { allow = true, suggestion = choice.suggestion }, "allowed: " .. choice.label)
        else
          require("claude.notify").info("nothing allowed: Claude's request still waits")
        end
      end)
    elseif choice.allow then
      answer(c, item, { allow = true, suggestion = 0 }, "allowed: Allow once")
    elseif choice.reason then
      vim.ui.input({ prompt = "Reason for denying (Claude sees it): " }, function(reason)
        if reason == nil then
          return -- cancelled: it still waits
        end
        reason = vim.trim(reason)
        if reason == "" then
          answer(c, item, deny(), DENIED)
        else
          answer(c, item, { allow = false, message = reason }, "denied: " .. reason)
        end
      end)
    else
      answer(c, item, deny(), DENIED)
    end
  end)
end

-- Claude's questions and plans (AskUserQuestion, ExitPlanMode) are answered
-- in chat/ask.lua: "allow" alone cannot answer a question, so it opens them
-- too; on a plan it approves it as shown, in the CLI's mode after a plan.
local function ask_or_plan(c, item, how)
  local ask = require("claude.chat.ask")
  local function send(reply, line)
    answer(c, item, reply, line)
  end
  if how == "deny" then
    answer(c, item, { allow = false, message = "" }, "denied")
  elseif item.questions then
    ask.questions(c, item, send)
  elseif how == "allow" then
    answer(c, item, { allow = true, approve = true }, "approved")
  else
    ask.open_plan(c, item, send)
  end
end

--- Answers the oldest request waiting in chat c: how "allow" (once),
--- "deny", or nil to open the picker. Returns whether one waited.
function M.answer(c, how)
  local item = waiting(c)
  if not item then
    return false
  end
  if item.questions or item.name == "ExitPlanMode" then
    ask_or_plan(c, item, how)
  elseif how == "allow" then
    answer(c, item, { allow = true, suggestion = 0 }, "allowed: Allow once")
  elseif how == "deny" then
    answer(c, item, deny(), DENIED)
  else
    pick(c, item)
  end
  return true
end

local function duration(ms)
  if ms < 1000 then
    return string.format("%d ms", ms)
  end
  return string.format("%.1f s", ms / 1000)
end

local render = {}

function render.commands(c, _, it)
  c.commands = it.commands
end

function render.init(c, _, it)
  c.model, c.mode = it.model, it.mode
  if it.session_id and it.session_id ~= "" then
    if c.conversation ~= it.session_id then
      c.title = nil -- another conversation's
    end
    c.conversation = it.session_id
  end
end

-- The conversation's title, as the CLI holds it (a rename in the history
-- list goes through it: chatctl/history.go), in the winbar too.
function render.title(c, buf, it)
  c.title = it.text
  add(c, buf, { "_Title: " .. it.text .. "_" }, true)
end

function render.model(c, buf, it)
  c.model = it.model
  add(c, buf, { "_Model: " .. it.model .. "_" }, true)
end

-- How full the context window is and the effort the CLI applies, asked
-- when the CLI starts and after each turn (chatctl/context.go): for the
-- winbar only.
function render.context(c, _, it)
  c.context = { percent = it.percent or 0, tokens = it.tokens or 0, max = it.max_tokens or 0 }
  -- The usage so far (chatctl/usage.go), when the CLI told it.
  if it.cost_usd or it.tokens_in then
    c.usage = { cost = it.cost_usd or 0, tokens = (it.tokens_in or 0) + (it.tokens_out or 0), plan = it.summary }
  end
  if it.effort and it.effort ~= "" then
    c.effort_applied = it.effort
  end
end

function render.effort(c, buf, it)
  add(c, buf, { "_Effort: " .. (it.effort ~= nil and it.effort ~= "" and it.effort or "the CLI's default") .. "_" }, true)
end

-- A compaction: the model goes on from a summary of what is above.
function render.compact(c, buf, it)
  local how = it.subtype == "auto" and "automatically" or "on request"
  local figures = ""
  if (it.tokens or 0) > 0 then
    figures = string.format(" (%d tokens before, %d after)", it.tokens, it.post_tokens or 0)
  end
  add(c, buf, { string.format("─── Conversation compacted %s%s", how, figures) }, true)
  c.last = "end"
end

function render.status(c, buf, it)
  -- The API failed and the CLI tries again (chat/parse.go): say so, or the
  -- turn looks stuck for as long as the retries last.
  if it.text and vim.startswith(it.text, "retrying: ") then
    add(c, buf, { "_" .. it.text:gsub("^retrying: ", "Retrying: ", 1) .. "_" }, true)
  end
  if it.mode and it.mode ~= "" then
    c.mode_wanted = nil
  end
  if it.mode and it.mode ~= "" and it.mode ~= c.mode then
    c.mode, c.auto_unchecked = it.mode, nil
    -- What the mode means for the review, where it was chosen.
    local meaning = require("claude.chat.modes").meaning[it.mode]
    add(c, buf, { "_Mode: " .. it.mode .. "_", meaning and ("  " .. meaning) or nil }, true)
  end
end

function render.text(c, buf, it)
  if c.streaming ~= "text" then
    add(c, buf, { "" }, true)
    c.streaming = "text"
  end
  stream(buf, it.text)
  c.last = "text"
end

local fold = state.fold

function render.thinking(c, buf, it)
  if c.streaming ~= "thinking" then
    add(c, buf, { "_∴ Thinking…_", BODY }, true)
    c.streaming = "thinking"
    c.thinking_at = vim.api.nvim_buf_line_count(buf) - 1
  end
  stream(buf, it.text, BODY)
end

function render.block_end(c, buf)
  if c.streaming == "thinking" and c.thinking_at then
    -- Folded once complete: a fold made by hand does not grow.
    fold(c, c.thinking_at, vim.api.nvim_buf_line_count(buf))
  end
  c.thinking_at, c.streaming = nil, nil
end

function render.tool(c, buf, it)
  -- A subagent's tool lines go under the Agent line that started it
  -- (chat/agents.lua).
  local agents = require("claude.chat.agents")
  if agents.starts(it) then
    return agents.start(c, buf, it, add)
  end
  if it.parent and it.parent ~= "" and agents.line(c, buf, it) then
    c.last = "tool"
    return
  end
  local lines = body(it.body)
  table.insert(lines, 1, string.format("● %s(%s)", it.name, first_line(it.summary)))
  add(c, buf, lines, c.last ~= "tool")
  local n = vim.api.nvim_buf_line_count(buf)
  fold(c, n - #(it.body or {}), n)
  c.last = "tool"
end

-- The chat's CLI writes files itself (acceptEdits, auto mode, Bash): its
-- buffers are reloaded as the terminal's are (reload.lua: never over unsaved
-- edits, which get one warning instead), or the user's next :w overwrites
-- Claude's edit. Go names the file a file tool wrote (it.wrote) or asks for
-- all file buffers (it.check_files, after Bash); a turn's end checks all
-- once more, for anything written outside a tool result.
local function reload_after(it)
  if not require("claude.config").get().auto_reload then
    return
  end
  local reload = require("claude.reload")
  if it.wrote and it.wrote ~= "" then
    local b = require("claude.buffers").find_buf(it.wrote)
    if b and vim.api.nvim_buf_is_loaded(b) then
      reload.check(b)
    end
  elseif it.check_files or it.kind == "end" then
    reload.check_all()
  end
end

function render.result(c, buf, it)
  if require("claude.chat.agents").line(c, buf, it) then
    reload_after(it)
    return
  end
  local text
  if (it.lines or 0) <= 1 then
    text = it.text or ""
  else
    text = string.format("%s … (%d lines)", it.text or "", it.lines)
  end
  local lines = body(it.body)
  table.insert(lines, 1, "  ⎿  " .. (it.is_error and "Error: " or "") .. text)
  add(c, buf, lines)
  local n = vim.api.nvim_buf_line_count(buf)
  fold(c, n - #(it.body or {}), n)
  c.last = "tool"
  reload_after(it)
end

-- Adds a prompt's quoted lines, marked for [[ and ]] (chat/keys.lua). A
-- prompt with an id (the host's name for it; sent in this chat, or stored
-- in a resumed conversation) and its text can be rewound to
-- (chat/rewind.lua).
local function add_prompt(c, buf, quoted, id, text)
  local n = #quoted
  add(c, buf, quoted, true)
  local mark = require("claude.chat.keys").mark_prompt(buf, vim.api.nvim_buf_line_count(buf) - n)
  if id then
    c.prompts = c.prompts or {}
    c.prompts[mark] = { id = id, text = text }
  end
end

-- An earlier prompt of a resumed conversation: its id (the host's, from
-- the uuid the conversation stored it under) makes it rewindable too.
function render.prompt(c, buf, it)
  local quoted = {}
  for _, l in ipairs(vim.split(it.text, "\n", { plain = true })) do
    table.insert(quoted, "> " .. l)
  end
  add_prompt(c, buf, quoted, it.id, it.text)
  c.last = "user"
end

function render.user(c, buf, it)
  add(c, buf, { "_" .. first_line(it.text) .. "_" }, true)
  c.last = "user"
end

function render.permission(c, buf, it)
  if it.review then
    -- An edit: the host shows it in the diff review and answers it.
    c.reviews = c.reviews or {}
    c.reviews[it.id] = it
    add(c, buf, { string.format("? %s(%s): review the proposed change in the diff", it.name, about(c, it)) }, c.last ~= "tool")
    c.last = "tool"
    return
  end
  -- Never asked in a prompt of its own: one popping up takes the keys the
  -- user types (the half-typed message was lost, the next Enter denied).
  -- It waits here, and in the winbar, until the user answers. Queued
  -- first: even if its lines cannot be drawn, it can still be answered.
  table.insert(c.queue, it)
  state.update_status(c)
  local lines = { string.format("? %s(%s) asks for permission", it.name, about(c, it)) }
  if it.questions or it.name == "ExitPlanMode" then
    lines = require("claude.chat.ask").lines(it)
  end
  table.insert(lines, "  ⎿  waiting for you: <CR> here or :Claude chat answer")
  add(c, buf, lines, c.last ~= "tool")
  c.last = "tool"
end

-- The host found the folder untrusted (chatctl/trust.go): the question
-- waits here, and in the winbar, until the user answers it
-- (chat/trust.lua); asked once while it waits.
function render.trust(c, buf, it)
  if c.trust then
    return
  end
  c.trust = { folder = it.text, config = it.summary }
  state.update_status(c)
  add(c, buf, {
    "? Do you trust the files in this folder? " .. state.clean(it.text),
    -- One line each (the window wraps them): the CLI's own meaning.
    "  Claude Code will be able to read, edit and execute files here, and the folder's own settings apply: its hooks (.claude/settings.json) and MCP servers (.mcp.json) run as soon as Claude starts.",
    vim.startswith(it.summary or "", "remote ")
        and ("  Trust it only if it is your code or code you trust. Nothing of it has run yet; on " .. it.summary .. ".")
      or "  Trust it only if it is your code or code you trust. Nothing of it has run yet; the answer is kept where the CLI keeps it, for the terminal too.",
    "  ⎿  waiting for you: <CR> here or :Claude chat trust yes / no",
  }, true)
  c.last = "tool"
end

function render.answered(c, buf, it)
  if c.reviews then
    c.reviews[it.id] = nil
  end
  add(c, buf, { "  ⎿  " .. it.text })
end

-- What the host adds about a request: the file a link points to, an edit
-- that does not apply.
function render.note(c, buf, it)
  add(c, buf, { "  ⎿  " .. it.text })
end

function render.cancelled(c, buf, it)
  c.withdrawn[it.id] = true
  if c.reviews then
    c.reviews[it.id] = nil
  end
  add(c, buf, { "  ⎿  permission request withdrawn (the turn was interrupted)" })
  state.update_status(c)
end

-- What the CLI did with a message sent while Claude worked (chat/queue.lua):
-- taken in by a turn, its prompt lines go here, where the turn took it;
-- withdrawn, its text goes back to the input.
function render.message(c, buf, it)
  local queue = require("claude.chat.queue")
  if it.text == "queued" or it.text == "started" or it.text == "completed" then
    -- Only a CLI with command_lifecycle lines (2.1.332) says these; "cancelled"
    -- and "taken" may be the host's own word to an older one.
    c.lifecycle = true
  end
  if it.text == "started" then
    local q = queue.take(c, it.id)
    if q then
      add_prompt(c, buf, q.quoted, q.id, q.text)
      c.last, c.busy = "user", true
    end
  elseif it.text == "cancelled" then
    local q = queue.take(c, it.id)
    if q then
      queue.restore(c, { q })
    end
  elseif it.text == "taken" then
    require("claude.notify").info("too late to take that message back: Claude has it")
  end
end

function render.finish(c, buf, it)
  -- The host says what failed (an API error with its status and message,
  -- chat/events.go ErrorText); an interrupt is no error: the transcript
  -- already says "[Request interrupted by user]".
  if it.is_error and it.text and it.text ~= "" then
    add(c, buf, { "**Error:** " .. first_line(it.text) }, true)
  end
  -- The CLI's total_cost_usd counts from its start: a resumed conversation's
  -- earlier cost is not in it (the CLI does not give it), so it is labelled
  -- as this run's rather than the conversation's.
  add(c, buf, {
    string.format(
      "─── %s · %d tokens in, %d out · $%.4f (this run)",
      duration(it.duration_ms or 0),
      it.tokens_in or 0,
      it.tokens_out or 0,
      it.cost_usd or 0
    ),
  }, true)
  local still = require("claude.chat.background").note(c)
  if still then
    add(c, buf, { still })
  end
  c.busy, c.last, c.checking = false, "end", nil
  local queue = require("claude.chat.queue")
  if not c.lifecycle and queue.count(c) > 0 then
    -- A CLI that does not say when it takes a queued message (2.1.197)
    -- runs those waiting as the next turn, all in one.
    for _, q in ipairs(queue.take_all(c)) do
      add_prompt(c, buf, q.quoted, q.id, q.text)
    end
    c.last, c.busy = "user", true
  end
  reload_after(it)
end

function render.exited(c, buf, it)
  local how = it.signal and it.signal ~= "" and ("signal " .. it.signal) or ("code " .. tostring(it.code or 0))
  local who = c.agent or "Claude" -- an ACP agent by its name (lua/claude/agents.lua)
  if it.text and it.text ~= "" then
    how = how .. ": " .. first_line(it.text) -- the CLI's own word on why
  end
  if c.mode_wanted == "bypassPermissions" then
    -- Started again to allow bypassPermissions and refused (chat/modes.lua):
    -- the next start is a plain one.
    c.bypass_allowed, c.mode_wanted = nil, nil
  end
  if it.mid_turn then
    add(c, buf, { string.format("**%s exited mid-turn (%s).** Send again to resume the conversation.", who, how) }, true)
  else
    add(c, buf, { string.format("_%s exited (%s)._", who, how) }, true)
  end
  c.busy, c.last, c.queue = false, "end", {}
  c.running, c.reviews = false, nil
  require("claude.chat.queue").restore(c, require("claude.chat.queue").take_all(c))
  state.update_status(c)
end

function render.error(c, buf, it)
  add(c, buf, { "**Error:** " .. first_line(it.text) }, true)
end

-- A turn the host could not send (the CLI gone, an attachment that is no
-- image): the message goes back to the input, before anything typed since,
-- with its still good images attached again. Typed text is never lost.
function render.unsent(c, buf, it)
  local why = it.errors and it.errors[1] or "unknown error"
  add(c, buf, { "**Error:** not sent (" .. first_line(why) .. "); your message is back in the input" }, true)
  -- A message queued behind a running turn leaves the queue, and Claude
  -- still works; one sent as a turn of its own ends that turn.
  if not (it.id and require("claude.chat.queue").take(c, it.id)) then
    c.busy, c.last = false, "end"
  end
  if not (c.ibuf and vim.api.nvim_buf_is_valid(c.ibuf)) then
    return
  end
  local lines = vim.split(it.text or "", "\n", { plain = true })
  local typed = vim.api.nvim_buf_get_lines(c.ibuf, 0, -1, false)
  if #typed > 1 or typed[1] ~= "" then
    vim.list_extend(lines, typed)
  end
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, lines)
  if it.images and #it.images > 0 then
    c.attached = vim.list_extend(vim.list_slice(it.images), c.attached or {})
  end
end

-- A subagent's state, on its Agent line (chat/agents.lua).
function render.agent(c, buf, it)
  require("claude.chat.agents").state(c, buf, it)
  if require("claude.chat.background").track(c, it) then
    require("claude.chat.tasks").refresh(c)
  end
end

-- The task list, in its own view (chat/tasks.lua): not a transcript line.
function render.tasks(c, _, it)
  require("claude.chat.tasks").show(c, it.tasks or {})
end

render["end"] = render.finish

--- Makes c's folds in win, a window just opened on its transcript.
function M.refold(c, win)
  vim.api.nvim_win_call(win, function()
    vim.cmd("silent! normal! zE")
    -- The smallest first: a fold made inside a closed one would take it
    -- whole (a subagent's tool lines are folds within its group's,
    -- chat/agents.lua).
    local folds = vim.deepcopy(c.folds or {})
    table.sort(folds, function(a, b)
      return a[2] - a[1] < b[2] - b[1]
    end)
    for _, f in ipairs(folds) do
      vim.cmd(string.format("silent! %d,%dfold", f[1], f[2]))
    end
  end)
end

M.write, M.add, M.add_prompt, M.render, M.waiting = write, add, add_prompt, render, waiting

return M
