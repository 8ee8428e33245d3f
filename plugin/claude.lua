-- claude.nvim: commands and <Plug> maps. Kept tiny: nothing is required,
-- started or read until a command runs (see :help claude).
if vim.g.loaded_claude then
  return
end
vim.g.loaded_claude = true

if vim.fn.has("nvim-0.10") ~= 1 then
  vim.api.nvim_echo({ { "claude.nvim needs Neovim 0.10 or newer", "ErrorMsg" } }, true, {})
  return
end

local function claude()
  return require("claude")
end

local command = vim.api.nvim_create_user_command

local function complete_cli_flags(lead)
  return require("claude.commands").complete_cli_flags(lead)
end

-- Arguments are split like a shell would, so a quoted prompt stays whole:
-- :ClaudeOpen "explain this repository"
command("ClaudeOpen", function(o)
  claude().open(require("claude.commands").split_args(o.args))
end, {
  nargs = "*",
  complete = complete_cli_flags,
  desc = "Open the Claude terminal (args go to the CLI, e.g. --resume)",
})

command("ClaudeToggle", function(o)
  claude().toggle(require("claude.commands").split_args(o.args))
end, {
  nargs = "*",
  complete = complete_cli_flags,
  desc = "Hide or show the Claude terminal",
})

command("ClaudeFocus", function()
  claude().focus()
end, { desc = "Focus the Claude terminal" })

command("ClaudeClose", function()
  claude().close()
end, { desc = "Stop the Claude CLI and close its terminal" })

command("ClaudeSessions", function(o)
  claude().sessions(o.args)
end, {
  nargs = "?",
  complete = function()
    return { "next", "restore", "restore-from" }
  end,
  desc = "The inbox: what waits for you and what is unreviewed, from every session; go to one. next: the first; restore: last time's sessions",
})

command("ClaudeSend", function(o)
  if o.args ~= "" then
    if not require("claude.mention").is_context(o.args) then
      require("claude.notify").error(":ClaudeSend takes a range, or editor context: @qf, @term, @diag, @diag:FILE, @hunks:FILE, @buffers")
      return
    end
    require("claude.mention").send_context(o.args)
  elseif o.range == 0 then
    claude().send()
  else
    claude().send(o.line1, o.line2)
  end
end, {
  range = true,
  nargs = "?",
  complete = function(arglead)
    return require("claude.mention").complete(arglead)
  end,
  desc = "Send the selected lines (or the file) to Claude as an @-mention, or editor context (@qf, @diag, …)",
})

command("ClaudeAsk", function(o)
  local line1, line2
  if o.range > 0 then
    line1, line2 = o.line1, o.line2
  else
    line1, line2 = require("claude.mention").visual_lines()
  end
  require("claude.prompt").ask(0, line1, line2, o.args)
end, { range = true, nargs = "*", desc = "Ask Claude about the selected lines (or the file): submits @file#Lx-y and the question" })

command("ClaudeSendText", function(o)
  require("claude.prompt").send_text(o.args)
end, { nargs = "+", desc = "Type text into Claude's input (not submitted)" })

command("ClaudeAdd", function(o)
  if #o.fargs == 0 then
    -- In a file explorer: what is on the cursor's line (or the range's).
    local line1, line2 = o.line1, o.line2
    if o.range == 0 then
      line1, line2 = require("claude.mention").visual_lines()
      line1, line2 = line1 or o.line1, line2 or o.line2
    end
    require("claude.mention").send_explorer(0, line1, line2)
    return
  end
  if #o.fargs == 1 and require("claude.mention").is_context(o.fargs[1]) then
    require("claude.mention").send_context(o.fargs[1])
    return
  end
  local path, l1, l2 = o.fargs[1], tonumber(o.fargs[2]), tonumber(o.fargs[3])
  if (o.fargs[2] and not l1) or (o.fargs[3] and not l2) then
    require("claude.notify").error("usage: :ClaudeAdd {path} [start-line] [end-line]")
    return
  end
  claude().add(path, l1, l2)
end, {
  nargs = "*",
  range = true,
  -- "file": Neovim then expands % and # in the arguments (a function would not).
  complete = "file",
  desc = "Send a file or directory (optionally lines), or editor context (@qf, @diag, …), to Claude; in netrw, the entries under the cursor",
})

command("ClaudeStart", function()
  claude().start()
end, { desc = "Start the Claude IDE server (write the lock file)" })

command("ClaudeStop", function()
  claude().stop()
end, { desc = "Stop the Claude IDE server (disconnect, remove the lock file)" })

command("ClaudeStatus", function()
  require("claude.commands").status()
end, { desc = "Show the server's port, lock file and connected clients" })

-- :ClaudeRemote NAME connects a configured remote; :ClaudeRemote! NAME
-- disconnects it.
command("ClaudeRemote", function(o)
  local remote = require("claude.remote")
  local ok, err
  if o.bang then
    ok, err = remote.stop(o.args)
  else
    ok, err = remote.connect(o.args)
  end
  if not ok and err then
    vim.notify("claude.nvim: " .. err, vim.log.levels.ERROR)
  end
end, {
  nargs = 1,
  bang = true,
  complete = function()
    return require("claude.remote").names()
  end,
  desc = "Connect a remote CLI's relay (remotes in setup); with !, disconnect it",
})

command("ClaudeDiffAccept", function()
  require("claude.diff").decide_current("accept")
end, { desc = "Accept the Claude proposal in this tab" })

command("ClaudeDiffReject", function()
  require("claude.diff").decide_current("reject")
end, { desc = "Reject the Claude proposal in this tab" })

-- The name before 0.2; kept so mappings and muscle memory keep working.
command("ClaudeDiffDeny", function()
  require("claude.diff").decide_current("reject")
end, { desc = "Reject the Claude proposal in this tab (old name of :ClaudeDiffReject)" })

command("ClaudeDiffTakeBack", function(o)
  require("claude.diff").decide_current("take_back", o.args ~= "" and o.args or nil)
end, {
  nargs = "?",
  desc = "Take back the hunk of the Claude proposal under the cursor (the file's text stays there); an argument tells Claude why",
})

command("ClaudeDiffKeep", function()
  require("claude.diff").decide_current("keep")
end, { desc = "Keep the hunk of the Claude proposal under the cursor; go to the next open one" })

command("ClaudeDiffFocus", function()
  require("claude.diff").focus()
end, { desc = "Go to the Claude proposal waiting for review" })

command("ClaudeChat", function(o)
  require("claude.chat").command(o.args)
end, {
  nargs = "?",
  complete = function()
    return vim.list_extend(vim.list_extend({}, require("claude.chat").subcommands), require("claude.agents").choices())
  end,
  desc = "Open (or focus) the native chat of this workspace; new, resume [text] (the conversation list) or last: another conversation",
})

command("ClaudeChatAttach", function(o)
  require("claude.chat").attach(o.args)
end, { nargs = 1, complete = "file", desc = "Attach an image file (png, jpeg, gif, webp) to the chat's next message" })

command("ClaudeChatInterrupt", function()
  require("claude.chat").interrupt()
end, { desc = "Interrupt the chat's running turn" })

command("ClaudeChatStopAgent", function()
  require("claude.chat").stop_agent()
end, { desc = "Stop the chat's running subagent (under the cursor in the transcript, or the only one)" })

command("ClaudeChatTasks", function()
  require("claude.chat").toggle_tasks()
end, { desc = "Show or hide the chat's task list" })

command("ClaudeChatUnqueue", function()
  require("claude.chat").unqueue()
end, { desc = "Take back the newest message queued in the chat: its text returns to the input" })

command("ClaudeChatStop", function()
  require("claude.chat").stop()
end, { desc = "End the chat's Claude CLI (the transcript stays)" })

command("ClaudeChatRewind", function(o)
  require("claude.chat.rewind").command(o.args ~= "" and o.args or nil)
end, {
  nargs = "?",
  complete = function()
    return { "both", "conversation", "code", "fork", "edit" }
  end,
  desc = "Rewind the chat to the prompt at the cursor (dry run first), then: both, conversation, code, fork or edit",
})

command("ClaudeChatAnswer", function(o)
  require("claude.chat").answer(o.args ~= "" and o.args or nil)
end, {
  nargs = "?",
  complete = function()
    return { "allow", "deny" }
  end,
  desc = "Answer the permission request the chat waits on: allow (once), deny, or none: pick",
})

command("ClaudeChatTrust", function(o)
  require("claude.chat").trust(o.args ~= "" and o.args or nil)
end, {
  nargs = "?",
  complete = function()
    return { "yes", "no" }
  end,
  desc = "Answer whether the chat's CLI may trust this folder (its hooks, MCP servers and settings then run): yes, no, or none: pick",
})

command("ClaudeChatMode", function(o)
  require("claude.chat").set_mode(o.args ~= "" and o.args or nil)
end, {
  nargs = "?",
  complete = function()
    return vim.list_extend(vim.list_extend({}, require("claude.chat").modes), { "manual", "next" })
  end,
  desc = "Switch the chat's permission mode: default (Manual), acceptEdits, plan, auto, dontAsk, bypassPermissions (typed confirmation), next; none: pick one, each with what it means for review",
})

command("ClaudeChatRules", function()
  require("claude.chat.rules").open()
end, { desc = "List the chat's live permission rules (source, plain-language reading); d removes one kept in a settings file" })

command("ClaudeChatUsage", function()
  require("claude.chat.usage").open()
end, { desc = "Show the tokens and cost of the chat's CLI by model, and your plan's windows where the CLI reports them" })

command("ClaudeChatMcp", function()
  require("claude.chat.mcp").open()
end, { desc = "List the chat's MCP servers with their state (connected, failed, needs sign-in, disabled); r reconnects, e turns one off or on" })

command("ClaudeChatBackground", function()
  require("claude.chat.background").send()
end, { desc = "Send the command or subagent running in the chat to the background (the CLI's Ctrl+B)" })

command("ClaudeChatEffort", function(o)
  require("claude.chat.effort").set(o.args)
end, {
  nargs = 1,
  complete = function()
    return require("claude.chat.effort").levels
  end,
  desc = "Set how hard Claude thinks in the chat's next turns: low, medium, high, xhigh, max, or default",
})

command("ClaudeModel", function()
  require("claude.chat.models").pick()
end, { desc = "Pick Claude's model from the CLI's list: the running chat now, later chats and terminals too" })

command("ClaudeChanges", function(o)
  require("claude.commands").changes(o.args)
end, {
  nargs = "?",
  complete = function()
    return { "qf", "clear", "turns", "session", "uncommitted", "branch" }
  end,
  desc = "Claude's recorded changes, per turn or at a scope (session, uncommitted, branch): review, revert (qf: unreviewed hunks to the quickfix list; clear: forget them)",
})

command("ClaudeDictate", function(o)
  require("claude.dictate").command(o.args)
end, {
  nargs = "?",
  complete = function()
    return { "stop", "cancel" }
  end,
  desc = "Dictate: record (again: stop and transcribe) into the chat's input or Claude's prompt, never sent; cancel drops it",
})

command("ClaudeLog", function()
  require("claude.commands").log()
end, { desc = "Open the claude.nvim log file" })

-- nvim_set_keymap rather than vim.keymap.set: this file runs at every
-- startup and the API call skips a Lua layer.
local function map(modes, lhs, rhs, desc)
  for _, mode in ipairs(modes) do
    vim.api.nvim_set_keymap(mode, lhs, rhs, { noremap = true, silent = true, desc = desc })
  end
end
map({ "n" }, "<Plug>(ClaudeOpen)", "<Cmd>ClaudeOpen<CR>", "Open the Claude terminal")
map({ "n", "t" }, "<Plug>(ClaudeToggle)", "<Cmd>ClaudeToggle<CR>", "Hide or show the Claude terminal")
map({ "n" }, "<Plug>(ClaudeFocus)", "<Cmd>ClaudeFocus<CR>", "Focus the Claude terminal")
map({ "n" }, "<Plug>(ClaudeSend)", "<Cmd>ClaudeSend<CR>", "Send the current file to Claude")
map({ "x" }, "<Plug>(ClaudeSend)", ":ClaudeSend<CR>", "Send the selected lines to Claude")
map({ "n", "x" }, "<Plug>(ClaudeAsk)", "<Cmd>ClaudeAsk<CR>", "Ask Claude about the selected lines or the file")
map({ "n", "i", "t" }, "<Plug>(ClaudeDictate)", "<Cmd>ClaudeDictate<CR>", "Dictate into the chat's input or Claude's prompt (again: stop and transcribe)")
map({ "n" }, "<Plug>(ClaudeDiffAccept)", "<Cmd>ClaudeDiffAccept<CR>", "Accept the Claude proposal")
map({ "n" }, "<Plug>(ClaudeDiffReject)", "<Cmd>ClaudeDiffReject<CR>", "Reject the Claude proposal")
map({ "n" }, "<Plug>(ClaudeDiffDeny)", "<Cmd>ClaudeDiffReject<CR>", "Reject the Claude proposal (old name)")
map({ "n" }, "<Plug>(ClaudeDiffTakeBack)", "<Cmd>ClaudeDiffTakeBack<CR>", "Take back the hunk of the Claude proposal under the cursor")
map({ "n" }, "<Plug>(ClaudeDiffKeep)", "<Cmd>ClaudeDiffKeep<CR>", "Keep the hunk of the Claude proposal under the cursor")
map({ "n", "t" }, "<Plug>(ClaudeDiffFocus)", "<Cmd>ClaudeDiffFocus<CR>", "Go to the Claude proposal")
map({ "n" }, "<Plug>(ClaudeChatPrevPrompt)", "<Cmd>lua require('claude.chat.keys').jump_prompt(-1)<CR>", "Go to the chat's previous prompt")
map({ "n" }, "<Plug>(ClaudeChatNextPrompt)", "<Cmd>lua require('claude.chat.keys').jump_prompt(1)<CR>", "Go to the chat's next prompt")
map({ "n" }, "<Plug>(ClaudeChatRewind)", "<Cmd>lua require('claude.chat.rewind').start()<CR>", "Rewind, fork or edit from the chat's prompt at the cursor")
map({ "n" }, "<Plug>(ClaudeChangeNext)", "<Cmd>lua require('claude.changes.signs').next()<CR>", "Go to Claude's next unreviewed change")
map({ "n" }, "<Plug>(ClaudeChangePrev)", "<Cmd>lua require('claude.changes.signs').prev()<CR>", "Go to Claude's previous unreviewed change")
map({ "n" }, "<Plug>(ClaudeChangeRevertHunk)", "<Cmd>lua require('claude.changes.diff').revert_hunk()<CR>", "Revert Claude's hunk under the cursor (:ClaudeChanges diff)")
map({ "n" }, "<Plug>(ClaudeChangeReview)", "<Cmd>lua require('claude.changes.diff').review()<CR>", "Mark Claude's hunk under the cursor reviewed (:ClaudeChanges diff)")
map({ "n" }, "<Plug>(ClaudeChangeRevertFile)", "<Cmd>lua require('claude.changes.diff').revert_file()<CR>", "Revert Claude's change to this file (:ClaudeChanges diff)")
map({ "n" }, "<Plug>(ClaudeChangeRevertTurn)", "<Cmd>lua require('claude.changes.diff').revert_turn()<CR>", "Revert Claude's whole turn (:ClaudeChanges diff)")
map({ "n" }, "<Plug>(ClaudeHistoryResume)", "<Cmd>lua require('claude.chat.history').action('resume')<CR>", "Resume the conversation under the cursor")
map({ "n" }, "<Plug>(ClaudeHistoryPreview)", "<Cmd>lua require('claude.chat.history').action('preview')<CR>", "Preview the conversation's first and last messages")
map({ "n" }, "<Plug>(ClaudeHistoryRename)", "<Cmd>lua require('claude.chat.history').action('rename')<CR>", "Rename the conversation under the cursor")
map({ "n" }, "<Plug>(ClaudeHistoryDelete)", "<Cmd>lua require('claude.chat.history').action('delete')<CR>", "Delete the conversation under the cursor (asks on its line first)")
map({ "n" }, "<Plug>(ClaudeHistorySearch)", "<Cmd>lua require('claude.chat.history').action('search')<CR>", "Search the stored conversations' text")
map({ "n" }, "<Plug>(ClaudeHistoryRefresh)", "<Cmd>lua require('claude.chat.history').action('refresh')<CR>", "List the stored conversations again")
map({ "n" }, "<Plug>(ClaudeHistoryClose)", "<Cmd>lua require('claude.chat.history').action('close')<CR>", "Close the conversation list")
map({ "n" }, "<Plug>(ClaudeHistoryHelp)", "<Cmd>lua require('claude.chat.history').action('help')<CR>", "Show the conversation list's keys")
