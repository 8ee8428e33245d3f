-- Every default key the plugin sets, declared once: the views map them
-- through M.map (never with a key of their own), :help claude-keys lists
-- them, and plugintest/keys_test.go checks each against Neovim's own index
-- of Normal-mode commands. setup({ keys = false }) turns them all off;
-- keys = { chat = false, ... } one area. The diff review's and the changes
-- diff's keys are options of their own (diff.keymaps, changes.keymaps) and
-- are listed here by option.
--
-- A key may replace a Vim command only where that command cannot act (one
-- that changes text, in a buffer that is not modifiable: "readonly" below)
-- or where it keeps its meaning, said in `same`.
local M = {}

-- The areas, each a kind of buffer; modifiable: whether the user edits
-- its text (then no key may take a Vim command's place).
M.areas = {
  chat = { what = "the chat's transcript", modifiable = false },
  input = { what = "the chat's input", modifiable = true },
  plan = { what = "a plan waiting for approval", modifiable = true },
  rewind = { what = "a prompt edited before a rewind", modifiable = true },
  history = { what = "the conversation list", modifiable = false },
  panels = { what = "the rules, MCP and usage panels", modifiable = false },
  tasks = { what = "the chat's task list", modifiable = false },
  changes = { what = "the :Claude changes list and diff", modifiable = false },
  review = { what = "a proposed edit under review (the proposal's buffer)", modifiable = true },
}

-- name -> { area, lhs, modes, desc, plug, same }. plug: the <Plug> map
-- that does the same, to bind elsewhere.
M.defaults = {
  -- The transcript.
  ["chat.interrupt"] = { "chat", "<C-c>", { "n" }, "interrupt Claude's turn", same = "interrupts, as CTRL-C does" },
  ["chat.mode"] = { "chat", "<S-Tab>", { "n" }, "switch the chat's permission mode" },
  ["chat.answer"] = { "chat", "<CR>", { "n" }, "answer the request waiting (pick)", same = "Enter acts on what is at hand, as in the quickfix list" },
  ["chat.input"] = { "chat", "i", { "n" }, "type in the chat's input", same = "starts typing, in the input" },
  ["chat.prev_prompt"] = { "chat", "[r", { "n" }, "previous prompt", plug = "ClaudeChatPrevPrompt" },
  ["chat.next_prompt"] = { "chat", "]r", { "n" }, "next prompt", plug = "ClaudeChatNextPrompt" },
  ["chat.tasks"] = { "chat", "gl", { "n" }, "show or hide Claude's task list" },
  ["chat.cancel_agent"] = { "chat", "gC", { "n" }, "stop the subagent under the cursor" },
  ["chat.rewind"] = { "chat", "R", { "n" }, "rewind, fork or edit from the prompt at the cursor", plug = "ClaudeChatRewind" },
  ["chat.help"] = { "chat", "g?", { "n" }, "show the chat's keys" },
  -- The input.
  ["input.submit"] = { "input", "<CR>", { "n" }, "send the chat input to Claude", same = "Enter sends the prompt, as on a command line" },
  ["input.send"] = { "input", "<C-s>", { "n", "i" }, "send the chat input to Claude" },
  ["input.interrupt"] = { "input", "<C-c>", { "n" }, "interrupt Claude's turn", same = "interrupts, as CTRL-C does" },
  ["input.interrupt_insert"] = { "input", "<C-c>", { "i" }, "interrupt Claude's turn and leave Insert mode" },
  ["input.mode"] = { "input", "<S-Tab>", { "n" }, "switch the chat's permission mode" },
  ["input.background"] = { "input", "<C-b>", { "i" }, "send the running command or subagent to the background" },
  ["input.recall_up"] = { "input", "<Up>", { "n" }, "on the first line: recall the previous prompt", same = "moves up as ever, but on the first line" },
  ["input.recall_down"] = { "input", "<Down>", { "n" }, "on the last line: recall the next prompt", same = "moves down as ever, but on the last line" },
  ["input.recall_prev"] = { "input", "<C-p>", { "n" }, "recall the previous prompt", same = "Vim's CTRL-P is k, which stays" },
  ["input.recall_next"] = { "input", "<C-n>", { "n" }, "recall the next prompt", same = "Vim's CTRL-N is j, which stays" },
  ["input.complete"] = { "input", "<Tab>", { "i" }, "complete after / or @ (else a Tab)" },
  -- A plan waiting for approval.
  ["plan.approve"] = { "plan", "<localleader>a", { "n" }, "approve the plan, choosing the mode to go on in" },
  ["plan.keep_planning"] = { "plan", "<localleader>k", { "n" }, "keep planning, telling Claude what to change (with the line comments)" },
  ["plan.comment"] = { "plan", "gl", { "n" }, "comment on this line of the plan" },
  -- A prompt edited before a rewind.
  ["rewind.send"] = { "rewind", "<C-s>", { "n", "i" }, "rewind to before the prompt and send it as edited" },
  -- The conversation list.
  ["history.resume"] = { "history", "<CR>", { "n" }, "resume the conversation", plug = "ClaudeHistoryResume", same = "Enter opens the entry, as in the quickfix list" },
  ["history.preview"] = { "history", "p", { "n" }, "preview the conversation", plug = "ClaudeHistoryPreview" },
  ["history.rename"] = { "history", "r", { "n" }, "rename the conversation", plug = "ClaudeHistoryRename" },
  ["history.delete"] = { "history", "d", { "n" }, "delete the conversation (dd)", plug = "ClaudeHistoryDelete" },
  ["history.search"] = { "history", "s", { "n" }, "search the conversations", plug = "ClaudeHistorySearch" },
  ["history.refresh"] = { "history", "R", { "n" }, "list them again", plug = "ClaudeHistoryRefresh" },
  ["history.close"] = { "history", "q", { "n" }, "close the list", plug = "ClaudeHistoryClose", same = "q closes a list, as in Neovim's man and help-like buffers" },
  ["history.help"] = { "history", "g?", { "n" }, "show the keys", plug = "ClaudeHistoryHelp" },
  -- The rules, MCP and usage panels.
  ["panels.close"] = { "panels", "q", { "n" }, "close the panel", same = "q closes a list, as in Neovim's man and help-like buffers" },
  ["panels.help"] = { "panels", "g?", { "n" }, "show the panel's keys" },
  ["panels.remove_rule"] = { "panels", "d", { "n" }, "rules: remove the rule under the cursor from its settings file" },
  ["panels.reconnect"] = { "panels", "r", { "n" }, "MCP: reconnect the server under the cursor" },
  ["panels.refresh"] = { "panels", "R", { "n" }, "usage, task output: ask again" },
  ["panels.toggle"] = { "panels", "o", { "n" }, "MCP: turn the server under the cursor off or on" },
  -- The task list.
  ["tasks.output"] = { "tasks", "o", { "n" }, "show the output of the background task under the cursor" },
  ["tasks.stop"] = { "tasks", "x", { "n" }, "stop the background task under the cursor" },
  -- The :Claude changes list.
  ["changes.open"] = { "changes", "<CR>", { "n" }, "open the file's diff", same = "Enter opens the entry, as in the quickfix list" },
  ["changes.revert"] = { "changes", "X", { "n" }, "revert the file or turn under the cursor" },
  ["changes.revert_why"] = { "changes", "C", { "n" }, "revert the file or turn under the cursor and tell Claude why" },
  ["changes.refresh"] = { "changes", "r", { "n" }, "refresh" },
  ["changes.scope"] = { "changes", "s", { "n" }, "next scope" },
  ["changes.empty"] = { "changes", "a", { "n" }, "show or hide the turns that changed nothing" },
  ["changes.list_close"] = { "changes", "q", { "n" }, "close the list", same = "q closes a list, as in Neovim's man and help-like buffers" },
  ["changes.list_help"] = { "changes", "g?", { "n" }, "show the list's keys" },
  -- The :Claude changes diff's before buffer (its keys on the file: changes.keymaps).
  ["changes.help"] = { "changes", "g?", { "n" }, "show the keys of the changes diff" },
  ["changes.close"] = { "changes", "q", { "n" }, "close the diff", same = "q closes a list, as in Neovim's man and help-like buffers" },
  -- The proposal's buffer (its other keys: diff.keymaps).
  -- Always set: without it ZZ would close an untouched proposal, a rejection.
  ["review.accept_zz"] = { "review", "ZZ", { "n" }, "accept the proposal", plug = "ClaudeDiffAccept", same = "ZZ writes and quits: in a proposal, writing is accepting", always = true },
}

local function cfg()
  return require("claude.config").get()
end

--- Whether the defaults of area are on (setup's keys).
function M.on(area)
  local keys = cfg().keys
  if keys == false then
    return false
  end
  return not (type(keys) == "table" and keys[area] == false)
end

--- Maps the default name on buf to rhs (a function or a string), unless
--- its area is off. opts: more options for vim.keymap.set (expr, nowait).
function M.map(buf, name, rhs, opts)
  local d = M.defaults[name]
  assert(d, "claude.keys: no default named " .. name)
  M.register(buf, name, rhs, opts)
  if not d.always and not M.on(d[1]) then
    return
  end
  local o = vim.tbl_extend("force", { buffer = buf, silent = true, desc = "claude.nvim: " .. d[4] }, opts or {})
  vim.keymap.set(d[3], d[2], rhs, o)
end

-- buf -> name -> { rhs, opts }: what each default does in that buffer,
-- registered even when its area's keys are off, so that its <Plug> map
-- (global: one name for every buffer of the area) can run it.
local actions = {}

--- The <Plug> map's name of default name: its own (plug) or made from
--- the name, chat.cancel_agent -> ClaudeChatCancelAgent.
function M.plug(name)
  local d = M.defaults[name]
  if d.plug then
    return d.plug
  end
  return "Claude" .. (name:gsub("^%l", string.upper):gsub("[._](%l)", string.upper))
end

--- Remembers what default name does in buf (M.map does it).
function M.register(buf, name, rhs, opts)
  if buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  if not actions[buf] then
    actions[buf] = {}
    vim.api.nvim_create_autocmd("BufWipeout", {
      buffer = buf,
      once = true,
      callback = function()
        actions[buf] = nil
      end,
    })
  end
  actions[buf][name] = { rhs, opts or {} }
end

--- Runs default name's action in the current buffer (its <Plug> map);
--- a clear message when the buffer is not of its area.
function M.run(name)
  local d = M.defaults[name]
  local a = (actions[vim.api.nvim_get_current_buf()] or {})[name]
  if not a then
    vim.notify(("claude.nvim: <Plug>(%s) acts in %s; this buffer is not one"):format(M.plug(name), M.areas[d[1]].what), vim.log.levels.WARN)
    return
  end
  local rhs, opts = a[1], a[2]
  if type(rhs) == "function" then
    rhs = rhs()
    if not opts.expr then
      return
    end
  end
  if type(rhs) == "string" and rhs ~= "" then
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(rhs, true, false, true), opts.remap == false and "n" or "m", false)
  end
end

--- The key of default name (for hints); nil when it is off.
function M.lhs(name)
  local d = M.defaults[name]
  return d and (d.always or M.on(d[1])) and d[2] or nil
end

--- The key of default name as the user types it (<localleader> and
--- <leader> replaced by theirs), or nil when it is off.
function M.shown(name)
  local lhs = M.lhs(name)
  if not lhs then
    return nil
  end
  local function leader(var)
    local v = vim.g[var]
    return (type(v) == "string" and v ~= "") and (v == " " and "<Space>" or v) or "\\"
  end
  return (lhs:gsub("<localleader>", leader("maplocalleader")):gsub("<leader>", leader("mapleader")))
end

return M
