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

local command = vim.api.nvim_create_user_command

local function tree()
  return require("claude.cmdtree")
end

-- :Claude {sub} and :ClaudeChat {sub}: one entry point, its subcommands
-- and their arguments completed at every level (:help claude-commands).
command("Claude", function(o)
  tree().run("", o)
end, {
  nargs = "*",
  range = true,
  bang = true,
  complete = function(lead, line, pos)
    return tree().complete("", lead, line, pos)
  end,
  desc = "claude.nvim: :Claude {sub} (open, send, chat, review, changes, ...; <Tab> lists them)",
})

command("ClaudeChat", function(o)
  tree().run("chat", o)
end, {
  nargs = "*",
  complete = function(lead, line, pos)
    return tree().complete("chat", lead, line, pos)
  end,
  desc = "The native chat: open it, or :ClaudeChat {sub} (new, resume, interrupt, end, mode, ...)",
})

-- The names from before :Claude {sub}, kept so no one's config breaks
-- (:help claude-commands-old). Each runs one path of the tree, with its
-- old range, argument count and completion.
local function alias(name, path, opts)
  opts.desc = "Old name of :Claude " .. path
  if opts.nargs and not opts.complete then
    opts.complete = function(lead, line, pos)
      return tree().complete(path, lead, line, pos)
    end
  end
  command(name, function(o)
    tree().run(path, o)
  end, opts)
end
alias("ClaudeOpen", "open", { nargs = "*" })
alias("ClaudeToggle", "toggle", { nargs = "*" })
alias("ClaudeFocus", "focus", {})
alias("ClaudeClose", "close", {})
alias("ClaudeSessions", "sessions", { nargs = "?" })
alias("ClaudeSend", "send", { nargs = "?", range = true })
alias("ClaudeAsk", "ask", { nargs = "*", range = true })
alias("ClaudeSendText", "type", { nargs = "+" })
-- "file": Neovim then expands % and # in the arguments (a function would not).
alias("ClaudeAdd", "add", { nargs = "*", range = true, complete = "file" })
alias("ClaudeDictate", "dictate", { nargs = "?" })
alias("ClaudeStart", "server start", {})
alias("ClaudeStop", "server stop", {})
alias("ClaudeStatus", "status", {})
alias("ClaudeDiffAccept", "review accept", {})
alias("ClaudeDiffReject", "review reject", {})
alias("ClaudeDiffDeny", "review reject", {})
alias("ClaudeDiffTakeBack", "review take-back", { nargs = "?" })
alias("ClaudeDiffKeep", "review keep", {})
alias("ClaudeDiffFocus", "review focus", {})
alias("ClaudeChanges", "changes", { nargs = "?" })
alias("ClaudeLog", "log", {})
alias("ClaudeModel", "model", {})
alias("ClaudeChatAttach", "chat attach", { nargs = 1, complete = "file" })
alias("ClaudeChatInterrupt", "chat interrupt", {})
alias("ClaudeChatStopAgent", "chat cancel-agent", {})
alias("ClaudeChatTasks", "chat tasks", {})
alias("ClaudeChatUnqueue", "chat unqueue", {})
alias("ClaudeChatStop", "chat end", {})
alias("ClaudeChatRewind", "chat rewind", { nargs = "?" })
alias("ClaudeChatAnswer", "chat answer", { nargs = "?" })
alias("ClaudeChatTrust", "chat trust", { nargs = "?" })
alias("ClaudeChatMode", "chat mode", { nargs = "?" })
alias("ClaudeChatRules", "chat rules", {})
alias("ClaudeChatUsage", "chat usage", {})
alias("ClaudeChatMcp", "chat mcp", {})
alias("ClaudeChatBackground", "chat background", {})
alias("ClaudeChatEffort", "chat effort", { nargs = 1 })
-- :Claude remote connect {name} connects; with !, disconnects.
command("ClaudeRemote", function(o)
  tree().run(o.bang and "remote disconnect" or "remote connect", { args = o.args })
end, {
  nargs = 1,
  bang = true,
  complete = function(lead, line, pos)
    return tree().complete("remote connect", lead, line, pos)
  end,
  desc = "Old name of :Claude remote connect (with !: :Claude remote disconnect)",
})

-- nvim_set_keymap rather than vim.keymap.set: this file runs at every
-- startup and the API call skips a Lua layer.
local function map(modes, lhs, rhs, desc)
  for _, mode in ipairs(modes) do
    vim.api.nvim_set_keymap(mode, lhs, rhs, { noremap = true, silent = true, desc = desc })
  end
end
-- The buffer-local defaults' <Plug> maps (each runs the action of the
-- current buffer's area, lua/claude/keys.lua's run): named here so that
-- startup loads no module; plugintest TestEveryDefaultHasItsPlugMap keeps
-- this list and keys.lua's defaults the same.
for _, p in ipairs({
  { "ClaudeChangesClose", "changes.close", { "n" } },
  { "ClaudeChangesEmpty", "changes.empty", { "n" } },
  { "ClaudeChangesHelp", "changes.help", { "n" } },
  { "ClaudeChangesListClose", "changes.list_close", { "n" } },
  { "ClaudeChangesListHelp", "changes.list_help", { "n" } },
  { "ClaudeChangesOpen", "changes.open", { "n" } },
  { "ClaudeChangesRefresh", "changes.refresh", { "n" } },
  { "ClaudeChangesRevert", "changes.revert", { "n" } },
  { "ClaudeChangesRevertWhy", "changes.revert_why", { "n" } },
  { "ClaudeChangesScope", "changes.scope", { "n" } },
  { "ClaudeChatAnswer", "chat.answer", { "n" } },
  { "ClaudeChatCancelAgent", "chat.cancel_agent", { "n" } },
  { "ClaudeChatHelp", "chat.help", { "n" } },
  { "ClaudeChatInput", "chat.input", { "n" } },
  { "ClaudeChatInterrupt", "chat.interrupt", { "n" } },
  { "ClaudeChatMode", "chat.mode", { "n" } },
  { "ClaudeChatTasks", "chat.tasks", { "n" } },
  { "ClaudeInputBackground", "input.background", { "i" } },
  { "ClaudeInputComplete", "input.complete", { "i" } },
  { "ClaudeInputInterrupt", "input.interrupt", { "n" } },
  { "ClaudeInputInterruptInsert", "input.interrupt_insert", { "i" } },
  { "ClaudeInputMode", "input.mode", { "n" } },
  { "ClaudeInputRecallDown", "input.recall_down", { "n" } },
  { "ClaudeInputRecallNext", "input.recall_next", { "n" } },
  { "ClaudeInputRecallPrev", "input.recall_prev", { "n" } },
  { "ClaudeInputRecallUp", "input.recall_up", { "n" } },
  { "ClaudeInputSend", "input.send", { "n", "i" } },
  { "ClaudeInputSubmit", "input.submit", { "n" } },
  { "ClaudePanelsClose", "panels.close", { "n" } },
  { "ClaudePanelsHelp", "panels.help", { "n" } },
  { "ClaudePanelsReconnect", "panels.reconnect", { "n" } },
  { "ClaudePanelsRefresh", "panels.refresh", { "n" } },
  { "ClaudePanelsRemoveRule", "panels.remove_rule", { "n" } },
  { "ClaudePanelsToggle", "panels.toggle", { "n" } },
  { "ClaudePlanApprove", "plan.approve", { "n" } },
  { "ClaudePlanComment", "plan.comment", { "n" } },
  { "ClaudePlanKeepPlanning", "plan.keep_planning", { "n" } },
  { "ClaudeRewindSend", "rewind.send", { "n", "i" } },
  { "ClaudeTasksOutput", "tasks.output", { "n" } },
  { "ClaudeTasksStop", "tasks.stop", { "n" } },
}) do
  for _, mode in ipairs(p[3]) do
    vim.api.nvim_set_keymap(mode, "<Plug>(" .. p[1] .. ")", "<Cmd>lua require('claude.keys').run('" .. p[2] .. "')<CR>", { noremap = true, silent = true, desc = "claude.nvim: the " .. p[2] .. " key's action" })
  end
end
map({ "n" }, "<Plug>(ClaudeOpen)", "<Cmd>Claude open<CR>", "Open the Claude terminal")
map({ "n", "t" }, "<Plug>(ClaudeToggle)", "<Cmd>Claude toggle<CR>", "Hide or show the Claude terminal")
map({ "n" }, "<Plug>(ClaudeFocus)", "<Cmd>Claude focus<CR>", "Focus the Claude terminal")
map({ "n" }, "<Plug>(ClaudeFocusInsert)", "<Cmd>Claude focus insert<CR>", "Focus the Claude terminal, in Terminal mode")
map({ "n" }, "<Plug>(ClaudeSend)", "<Cmd>Claude send<CR>", "Send the current file to Claude")
map({ "x" }, "<Plug>(ClaudeSend)", ":Claude send<CR>", "Send the selected lines to Claude")
map({ "n", "x" }, "<Plug>(ClaudeAsk)", "<Cmd>Claude ask<CR>", "Ask Claude about the selected lines or the file")
map({ "n", "i", "t" }, "<Plug>(ClaudeDictate)", "<Cmd>Claude dictate<CR>", "Dictate into the chat's input or Claude's prompt (again: stop and transcribe)")
map({ "n" }, "<Plug>(ClaudeDiffAccept)", "<Cmd>Claude review accept<CR>", "Accept the Claude proposal")
map({ "n" }, "<Plug>(ClaudeDiffReject)", "<Cmd>Claude review reject<CR>", "Reject the Claude proposal")
map({ "n" }, "<Plug>(ClaudeDiffRejectWhy)", "<Cmd>lua require('claude.diff').decide_current('reject_why')<CR>", "Reject the Claude proposal and tell Claude why")
map({ "n" }, "<Plug>(ClaudeDiffDeny)", "<Cmd>Claude review reject<CR>", "Reject the Claude proposal (old name)")
map({ "n" }, "<Plug>(ClaudeDiffTakeBack)", "<Cmd>Claude review take-back<CR>", "Take back the hunk of the Claude proposal under the cursor")
map({ "n" }, "<Plug>(ClaudeDiffKeep)", "<Cmd>Claude review keep<CR>", "Keep the hunk of the Claude proposal under the cursor")
map({ "n", "t" }, "<Plug>(ClaudeDiffFocus)", "<Cmd>Claude review focus<CR>", "Go to the Claude proposal")
map({ "n" }, "<Plug>(ClaudeChatPrevPrompt)", "<Cmd>lua require('claude.chat.keys').jump_prompt(-1)<CR>", "Go to the chat's previous prompt")
map({ "n" }, "<Plug>(ClaudeChatNextPrompt)", "<Cmd>lua require('claude.chat.keys').jump_prompt(1)<CR>", "Go to the chat's next prompt")
map({ "n" }, "<Plug>(ClaudeChatRewind)", "<Cmd>lua require('claude.chat.rewind').start()<CR>", "Rewind, fork or edit from the chat's prompt at the cursor")
map({ "n" }, "<Plug>(ClaudeChangeNext)", "<Cmd>lua require('claude.changes.signs').next()<CR>", "Go to Claude's next unreviewed change")
map({ "n" }, "<Plug>(ClaudeChangePrev)", "<Cmd>lua require('claude.changes.signs').prev()<CR>", "Go to Claude's previous unreviewed change")
map({ "n" }, "<Plug>(ClaudeChangeRevertHunk)", "<Cmd>lua require('claude.changes.diff').revert_hunk()<CR>", "Revert Claude's hunk under the cursor (:Claude changes diff)")
map({ "n" }, "<Plug>(ClaudeChangeReview)", "<Cmd>lua require('claude.changes.diff').review()<CR>", "Mark Claude's hunk under the cursor reviewed (:Claude changes diff)")
map({ "n" }, "<Plug>(ClaudeChangeRevertFile)", "<Cmd>lua require('claude.changes.diff').revert_file()<CR>", "Revert Claude's change to this file (:Claude changes diff)")
map({ "n" }, "<Plug>(ClaudeChangeRevertTurn)", "<Cmd>lua require('claude.changes.diff').revert_turn()<CR>", "Revert Claude's whole turn (:Claude changes diff)")
map({ "n" }, "<Plug>(ClaudeHistoryResume)", "<Cmd>lua require('claude.chat.history').action('resume')<CR>", "Resume the conversation under the cursor")
map({ "n" }, "<Plug>(ClaudeHistoryPreview)", "<Cmd>lua require('claude.chat.history').action('preview')<CR>", "Preview the conversation's first and last messages")
map({ "n" }, "<Plug>(ClaudeHistoryRename)", "<Cmd>lua require('claude.chat.history').action('rename')<CR>", "Rename the conversation under the cursor")
map({ "n" }, "<Plug>(ClaudeHistoryDelete)", "<Cmd>lua require('claude.chat.history').action('delete')<CR>", "Delete the conversation under the cursor (asks on its line first)")
map({ "n" }, "<Plug>(ClaudeHistorySearch)", "<Cmd>lua require('claude.chat.history').action('search')<CR>", "Search the stored conversations' text")
map({ "n" }, "<Plug>(ClaudeHistoryRefresh)", "<Cmd>lua require('claude.chat.history').action('refresh')<CR>", "List the stored conversations again")
map({ "n" }, "<Plug>(ClaudeHistoryClose)", "<Cmd>lua require('claude.chat.history').action('close')<CR>", "Close the conversation list")
map({ "n" }, "<Plug>(ClaudeHistoryHelp)", "<Cmd>lua require('claude.chat.history').action('help')<CR>", "Show the conversation list's keys")
