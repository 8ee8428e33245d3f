-- The command tree: every subcommand of :Claude (and, under "chat", of
-- :ClaudeChat), what it runs and how its arguments complete. claude.cmdline
-- walks it; plugin/claude.lua defines :Claude, :ClaudeChat and the old
-- :Claude* names, each an alias of one path here (:help claude-commands-old).
-- The names are chosen once, in :help claude-commands; a word means one
-- thing: a terminal is a CLI in a terminal buffer, a chat is the native
-- chat, a review is a proposed edit shown as a diff, the server is the
-- bridge a terminal's CLI connects to. Each kind of "stop" has its word:
-- server stop, close (a terminal), chat end (a chat's CLI), chat interrupt
-- (a turn), chat cancel-agent (a subagent), dictate cancel.
local M = {}

local function claude()
  return require("claude")
end

local function notify()
  return require("claude.notify")
end

-- nil for an empty argument, as the commands' bodies expect.
local function opt(s)
  return s ~= "" and s or nil
end

-- Expands %, # and <cfile> at the start of a path, as complete=file does
-- for a command of its own (a completion function turns that off).
local function expand_path(word)
  if word:match("^[%%#<]") then
    local expanded = vim.fn.expand(word)
    return expanded ~= "" and expanded or word
  end
  return word
end

local function files(lead)
  return vim.fn.getcompletion(lead, "file")
end

local function list(words)
  return function(_, args)
    return #args == 0 and words or {}
  end
end

-- What :Claude send and :Claude add take besides a path or range.
local function context_words(lead)
  return require("claude.mention").complete(lead)
end

local function leaf(desc, run, more)
  return vim.tbl_extend("force", { desc = desc, run = run }, more or {})
end

local function send(o)
  if o.args ~= "" then
    local mention = require("claude.mention")
    if not mention.is_context(o.args) then
      notify().error(o.usage .. " takes a range, or editor context: @qf, @term, @diag, @diag:FILE, @hunks:FILE, @buffers")
      return
    end
    mention.send_context(o.args)
  elseif o.range == 0 then
    claude().send()
  else
    claude().send(o.line1, o.line2)
  end
end

local function ask(o)
  local line1, line2
  if o.range > 0 then
    line1, line2 = o.line1, o.line2
  else
    line1, line2 = require("claude.mention").visual_lines()
  end
  require("claude.prompt").ask(0, line1, line2, o.args)
end

local function add(o)
  local mention = require("claude.mention")
  local fargs = vim.tbl_map(expand_path, o.fargs)
  if #fargs == 0 then
    -- In a file explorer: what is on the cursor's line (or the range's).
    local line1, line2 = o.line1, o.line2
    if o.range == 0 then
      line1, line2 = mention.visual_lines()
      line1, line2 = line1 or o.line1, line2 or o.line2
    end
    mention.send_explorer(0, line1, line2)
    return
  end
  if #fargs == 1 and mention.is_context(fargs[1]) then
    mention.send_context(fargs[1])
    return
  end
  local path, l1, l2 = fargs[1], tonumber(fargs[2]), tonumber(fargs[3])
  if (fargs[2] and not l1) or (fargs[3] and not l2) then
    notify().error("usage: " .. o.usage .. " {path} [start-line] [end-line]")
    return
  end
  claude().add(path, l1, l2)
end

local function remote(disconnect)
  return function(o)
    local r = require("claude.remote")
    local ok, err
    if disconnect then
      ok, err = r.stop(o.args)
    else
      ok, err = r.connect(o.args)
    end
    if not ok and err then
      vim.notify("claude.nvim: " .. err, vim.log.levels.ERROR)
    end
  end
end

local function remote_names(_, args)
  return #args == 0 and require("claude.remote").names() or {}
end

local function decide(what)
  return function(o)
    require("claude.diff").decide_current(what, opt(o.args))
  end
end

-- The CLI's common flags, and remote=NAME for each configured remote (the
-- CLI then starts on that remote's side: :help claude-remote-open).
local function cli_flags(lead)
  local out = require("claude.commands").complete_cli_flags(lead)
  for _, name in ipairs(require("claude.remote").names()) do
    table.insert(out, "remote=" .. name)
  end
  return out
end

-- Model, mode and effort: one place, under :Claude and :ClaudeChat alike.
local model = leaf("Pick Claude's model from the CLI's list: the running chat now, later chats and terminals too", function()
  require("claude.chat.models").pick()
end)
local mode = leaf("Switch the chat's permission mode; none: pick one", function(o)
  require("claude.chat").set_mode(opt(o.args))
end, {
  complete = function(_, args)
    return #args == 0 and vim.list_extend(vim.list_extend({}, require("claude.chat").modes), { "manual", "next" }) or {}
  end,
})
local effort = leaf("Set how hard Claude thinks in the chat's next turns", function(o)
  require("claude.chat.effort").set(o.args)
end, {
  complete = function(_, args)
    return #args == 0 and require("claude.chat.effort").levels or {}
  end,
})
local history = leaf("Browse the workspace's stored conversations, searching for [text]", function(o)
  require("claude.chat.history").open(nil, opt(o.args))
end)

-- :ClaudeChat, bare or with new, resume, last, an agent's name (the
-- conversations) or remote=NAME (its CLI on that remote's side), then the
-- chat's own subcommands.
M.chat = {
  desc = "Open (or focus) the native chat of this workspace",
  run = function(o)
    require("claude.chat.conversations").command(o.args)
  end,
  complete = function(_, args)
    if #args > 0 then
      return {}
    end
    local out = vim.list_extend({}, require("claude.agents").choices())
    for _, name in ipairs(require("claude.remote").names()) do
      table.insert(out, "remote=" .. name)
    end
    return out
  end,
  subs = {
    { "new", leaf("Start another conversation in the chat", function()
      require("claude.chat.conversations").command("new")
    end) },
    { "resume", history },
    { "last", leaf("Continue the newest stored conversation", function()
      require("claude.chat.conversations").command("last")
    end) },
    { "history", history },
    { "attach", leaf("Attach an image file to the chat's next message", function(o)
      require("claude.chat").attach(expand_path(o.args))
    end, { complete = function(lead, args)
      return #args == 0 and files(lead) or {}
    end }) },
    { "interrupt", leaf("Interrupt the chat's running turn", function()
      require("claude.chat").interrupt()
    end) },
    { "end", leaf("End the chat's CLI (the transcript stays)", function()
      require("claude.chat").stop()
    end) },
    { "cancel-agent", leaf("Stop the chat's running subagent (under the cursor, or the only one)", function()
      require("claude.chat").stop_agent()
    end) },
    { "background", leaf("Send the command or subagent running in the chat to the background", function()
      require("claude.chat.background").send()
    end) },
    { "unqueue", leaf("Take back the newest queued message", function()
      require("claude.chat").unqueue()
    end) },
    { "tasks", leaf("Show or hide the chat's task list", function()
      require("claude.chat").toggle_tasks()
    end) },
    { "rewind", leaf("Rewind the chat to the prompt at the cursor", function(o)
      require("claude.chat.rewind").command(opt(o.args))
    end, { complete = list({ "both", "conversation", "code", "fork", "edit" }) }) },
    { "answer", leaf("Answer the chat's permission request: allow, deny, or pick", function(o)
      require("claude.chat").answer(opt(o.args))
    end, { complete = list({ "allow", "deny" }) }) },
    { "trust", leaf("Answer whether the chat's CLI may trust this folder", function(o)
      require("claude.chat").trust(opt(o.args))
    end, { complete = list({ "yes", "no" }) }) },
    { "model", model },
    { "mode", mode },
    { "effort", effort },
    { "rules", leaf("List the chat's live permission rules", function()
      require("claude.chat.rules").open()
    end) },
    { "mcp", leaf("List the chat's MCP servers", function()
      require("claude.chat.mcp").open()
    end) },
    { "usage", leaf("Show the chat CLI's tokens and cost", function()
      require("claude.chat.usage").open()
    end) },
  },
}

M.root = {
  desc = "claude.nvim",
  subs = {
    { "open", leaf("Open the Claude terminal (args go to the CLI)", function(o)
      claude().open(require("claude.commands").split_args(o.args))
    end, { complete = cli_flags }) },
    { "toggle", leaf("Hide or show the Claude terminal", function(o)
      claude().toggle(require("claude.commands").split_args(o.args))
    end, { complete = cli_flags }) },
    { "focus", leaf("Focus the Claude terminal (insert: in Terminal mode, to type)", function(o)
      if o.args ~= "" and o.args ~= "insert" then
        notify().error(o.usage .. " takes insert or nothing, not " .. o.args)
        return
      end
      if o.args == "insert" then
        claude().focus(true)
      else
        claude().focus()
      end
    end, { complete = list({ "insert" }) }) },
    { "close", leaf("End the terminal's CLI and close its terminal", function()
      claude().close()
    end) },
    { "send", leaf("Send the lines (or the file), or editor context, as an @-mention", send, {
      range = true,
      complete = function(lead, args)
        return #args == 0 and context_words(lead) or {}
      end,
    }) },
    { "ask", leaf("Ask Claude about the lines (or the file)", ask, { range = true }) },
    { "type", leaf("Type text into Claude's input (not submitted)", function(o)
      if o.args == "" then
        notify().error(o.usage .. " needs the text to type")
        return
      end
      require("claude.prompt").send_text(o.args)
    end) },
    { "add", leaf("Send a file or directory (optionally lines), or editor context", add, {
      range = true,
      complete = function(lead, args)
        if #args > 0 then
          return {}
        end
        return vim.list_extend(files(lead), lead:match("^@") and context_words(lead) or {})
      end,
    }) },
    { "dictate", leaf("Dictate into the chat's input or Claude's prompt", function(o)
      require("claude.dictate").command(o.args)
    end, { complete = list({ "stop", "cancel" }) }) },
    { "chat", M.chat },
    { "history", history },
    { "model", model },
    { "mode", mode },
    { "effort", effort },
    { "review", {
      desc = "The proposed edit under review (a diff)",
      subs = {
        { "accept", leaf("Accept the proposal", decide("accept")) },
        { "reject", leaf("Reject the proposal; [reason] tells Claude why", decide("reject")) },
        { "keep", leaf("Keep the hunk under the cursor", decide("keep")) },
        { "take-back", leaf("Take back the hunk under the cursor; [reason] tells Claude why", decide("take_back")) },
        { "focus", leaf("Go to the proposal waiting for review", function()
          require("claude.diff").focus()
        end) },
      },
    } },
    { "changes", leaf("Claude's recorded changes, per turn or at a scope", function(o)
      require("claude.commands").changes(o.args)
    end, { complete = list({ "qf", "clear", "turns", "session", "uncommitted", "branch" }) }) },
    { "sessions", leaf("The inbox: what waits for you, from every session", function(o)
      claude().sessions(o.args)
    end, { complete = list({ "next", "restore", "restore-from" }) }) },
    { "server", {
      desc = "The server the terminals' CLIs connect to",
      subs = {
        { "start", leaf("Start the server (write the lock file)", function()
          claude().start()
        end) },
        { "stop", leaf("Stop the server (disconnect, remove the lock file)", function()
          claude().stop()
        end) },
      },
    } },
    { "status", leaf("Show the server's port, lock file and connected clients", function()
      require("claude.commands").status()
    end) },
    { "remote", {
      desc = "Remotes (setup's remotes)",
      subs = {
        { "connect", leaf("Connect a remote CLI's relay", remote(false), { complete = remote_names }) },
        { "disconnect", leaf("Disconnect a remote", remote(true), { complete = remote_names }) },
      },
    } },
    { "log", leaf("Open the claude.nvim log file", function()
      require("claude.commands").log()
    end) },
  },
}

-- :Claude with nothing after it opens the terminal, as :Claude open.
M.root.run = function(o)
  if o.args ~= "" then
    notify().error(string.format(":Claude has no subcommand %s; it takes one of: %s", o.args:match("^%S+"), table.concat(require("claude.cmdline").names(M.root), ", ")))
    return
  end
  claude().open({})
end

--- The node at path (words from the root, "chat interrupt"), or nil.
function M.node(path)
  local node = M.root
  for word in path:gmatch("%S+") do
    local found
    for _, s in ipairs(node.subs or {}) do
      if s[1] == word then
        found = s[2]
      end
    end
    if not found then
      return nil
    end
    node = found
  end
  return node
end

--- :Claude {sub}, :ClaudeChat {sub}, or an old name (path: its place).
function M.run(path, o)
  local root = M.node(path)
  local prefix = path == "" and ":Claude" or (":Claude " .. path)
  return require("claude.cmdline").run(root, prefix, o)
end

--- Completion of the command whose words start at path.
function M.complete(path, lead, cmdline, cursorpos)
  return require("claude.cmdline").complete(M.node(path), lead, cmdline, cursorpos)
end

return M
