-- claude.nvim: Claude Code inside Neovim. This module is the public Lua
-- API (:help claude-lua); the :Claude* commands in plugin/claude.lua call it.
--
-- Floors. Each module below is on one floor and requires (at its top or
-- inside a function) only modules on its own floor or below, and requires
-- form no cycle, those inside functions included (within a floor, too).
-- plugintest/layers_test.go reads this list and checks both. A lower floor
-- that must tell a higher one something fires a `User` event (events.lua:
-- ClaudeHostExit, ClaudeServerStarted) instead of calling up. Go calls in
-- through handlers.lua only and is called through host.lua only (tested in
-- plugintest/boundary_test.go). plugin/claude.lua stands above them all.
--
-- 3 commands: claude claude.commands claude.cmdtree claude.cmdline claude.mention claude.prompt claude.health claude.handlers claude.dictate
-- 2 views: claude.diff claude.code claude.terminal claude.terminal.servers claude.terminal.native claude.terminal.snacks claude.terminal.external claude.terminal.window claude.terminal.remote claude.chat claude.chat.state claude.chat.render claude.chat.input claude.chat.turns claude.chat.windows claude.chat.conversations claude.chat.models claude.chat.ask claude.chat.plan_comments claude.chat.revive claude.chat.queue claude.chat.trust claude.chat.keys claude.chat.highlight claude.chat.prestart claude.chat.agents claude.chat.tasks claude.chat.effort claude.chat.rewind claude.chat.background claude.chat.mcp claude.chat.usage claude.chat.panel claude.chat.rules claude.chat.modes claude.chat.notices claude.changes claude.changes.diff claude.changes.signs claude.changes.guard claude.changes.names claude.chat.history claude.diff.keys claude.diff.large claude.diff.winbar claude.diff.hunks claude.diff.round claude.diff.buffers claude.attention.view
-- 1 core: claude.agents claude.host claude.host_calls claude.remote claude.reap claude.server claude.sessions claude.state claude.cli claude.model claude.permission claude.tools claude.reload claude.selection claude.generation claude.memory claude.explorer claude.attention claude.quit_guard claude.lsp claude.lsp.client claude.lsp.target claude.lsp.convert claude.lsp.gather claude.lsp.apply claude.context claude.context_git
-- 0 base: claude.config claude.keys claude.flags claude.version claude.events claude.notify claude.buffers claude.typing
--
-- Words, the same in Go (chatctl/doc.go says who creates, names and ends
-- each): a bridge is one WebSocket server of the Go host with its lock
-- file, which a terminal's CLI connects to (the user docs call it "the
-- server"; server.lua and terminal/servers.lua ask Go for bridges). A
-- terminal is one CLI the user runs in a terminal buffer, with a bridge of
-- its own (sessions.lua is the registry of terminals; Lua creates, numbers
-- and ends them). A chat is one workspace directory's native chat (chat/);
-- a chat process is the `claude -p` the Go host runs for it. A
-- conversation is what such a CLI stores and resumes (the CLI creates and
-- names it; chat/conversations.lua lists them).
local M = {}

-- Whether attention.restore ran (or is set to run) in this Neovim: a second
-- setup() does not bring the sessions back twice.
local restored = false

-- Runs fn once Neovim has started (at once, scheduled, when it has), in
-- augroup group: nothing delays the first screen.
local function after_startup(group, desc, fn)
  if vim.v.vim_did_enter == 1 then
    vim.schedule(fn)
    return
  end
  vim.api.nvim_create_autocmd("VimEnter", {
    group = vim.api.nvim_create_augroup(group, { clear = true }),
    once = true,
    desc = desc,
    callback = function()
      vim.schedule(fn)
    end,
  })
end

--- Configures the plugin. Safe to call more than once; each call starts
--- again from the defaults. Never raises: a key with a bad value is
--- reported (one line naming it) and keeps its default, so the rest of the
--- user's config still loads.
---@param opts table|nil see :help claude-config
function M.setup(opts)
  local config = require("claude.config")
  local cfg, unknown, problems = config.resolve(opts)
  config.set(cfg)
  -- One message for all: the message area shows the last message only,
  -- and each bad option must be seen (the message window shows it whole).
  local unknown_line = #unknown > 0 and ("claude.nvim: unknown option(s) ignored: " .. table.concat(unknown, ", ")) or nil
  if #problems == 1 and not unknown_line then
    require("claude.notify").notify(problems[1], vim.log.levels.ERROR)
  elseif #problems > 0 then
    local lines = { string.format("claude.nvim: %d bad options in setup(), each keeps its default:", #problems + (unknown_line and 1 or 0)) }
    for _, problem in ipairs(problems) do
      table.insert(lines, "  " .. problem:gsub("^claude%.nvim: ", ""))
    end
    if unknown_line then
      table.insert(lines, "  " .. unknown_line:gsub("^claude%.nvim: ", ""))
    end
    require("claude.notify").notify(table.concat(lines, "\n"), vim.log.levels.ERROR)
  elseif unknown_line then
    require("claude.notify").notify(unknown_line, vim.log.levels.WARN)
  end
  if cfg.attention.restore and not restored then
    -- After startup, once: the sessions of last time in this directory.
    restored = true
    after_startup("ClaudeRestore", "claude.nvim: bring back last time's sessions (attention.restore)", function()
      require("claude.attention.view").restore()
    end)
  end
  if cfg.chat.prestart then
    after_startup("ClaudeChatPrestart", "claude.nvim: start the chat's CLI (chat.prestart)", function()
      require("claude.chat.prestart").when_idle()
    end)
  end
  if cfg.auto_start then
    -- After startup, and without waiting for the Go host to come up, so
    -- auto_start never delays the first screen nor freezes the editor.
    local function start()
      require("claude.server").start_async()
    end
    if vim.v.vim_did_enter == 1 then
      vim.schedule(start)
    else
      vim.api.nvim_create_autocmd("VimEnter", {
        group = vim.api.nvim_create_augroup("ClaudeAutoStart", { clear = true }),
        once = true,
        desc = "claude.nvim: start the server (auto_start)",
        callback = function()
          vim.schedule(start)
        end,
      })
    end
  end
end

--- The active configuration (the defaults until setup() is called).
---@return claude.Config
function M.config()
  return require("claude.config").get()
end

function M.setup_called()
  return require("claude.config").setup_called()
end

--- Starts the WebSocket server (and the Go host) if it is not running.
---@return table|nil info { port, lockfile } or nil after reporting an error
function M.start()
  return require("claude.server").start()
end

--- Stops the server: disconnects Claude and removes the lock file.
function M.stop()
  require("claude.server").stop()
end

--- Server state: { running, port, lockfile, clients = { {pid, name, version} } }.
function M.status()
  return require("claude.server").status()
end

--- Opens (or shows) the Claude terminal; args go to the CLI (e.g. "--resume").
---@param args string[]|nil
function M.open(args)
  -- remote=NAME first, or a remote whose default covers the cwd: the CLI
  -- starts on that remote's side (terminal/remote.lua).
  local name = args and args[1] and args[1]:match("^remote=(.+)$")
  if name then
    args = vim.list_slice(args, 2)
  else
    name = require("claude.terminal.remote").default_for(vim.fn.getcwd())
  end
  if name then
    local ok, err = require("claude.terminal.remote").open(name, args)
    if not ok then
      require("claude.notify").notify("claude.nvim: " .. err, vim.log.levels.ERROR)
    end
    return
  end
  require("claude.terminal").open(args)
end

function M.toggle(args)
  require("claude.terminal").toggle(args)
end

--- Focuses Claude's terminal; in Terminal mode when insert (:Claude focus insert)
--- or terminal.focus_insert, else Normal mode.
---@param insert boolean|nil
function M.focus(insert)
  require("claude.terminal").focus(insert)
end

function M.close()
  require("claude.terminal").close()
end

--- Sends lines line1..line2 (1-based, inclusive) of the current file to
--- Claude as an @-mention, or the whole file without a range.
---@param line1 integer|nil
---@param line2 integer|nil
function M.send(line1, line2)
  require("claude.mention").send_buffer(0, line1, line2)
end

--- Sends a file or directory to Claude as an @-mention.
---@param path string
---@param line1 integer|nil 1-based
---@param line2 integer|nil 1-based
function M.add(path, line1, line2)
  require("claude.mention").send_path(path, line1, line2)
end

-- " · N wait for you" when Claude waits on the user (proposals to review,
-- chat permission requests), else "": what came in while they typed waits
-- unseen, and this is where they see it. Then " · N unreviewed" while
-- Claude's recorded changes have hunks nobody reviewed, whatever came
-- before: those were written without asking, and this is where they show.
local function waits()
  local w
  -- Once the attention list knows of sessions (their hooks, the chats'
  -- streams), it counts the sessions that need the user, whatever each
  -- waits for: a permission, a question, a diff, an unseen finished turn.
  if package.loaded["claude.attention"] and require("claude.attention").any() then
    local needing = require("claude.attention").needing()
    w = needing > 0 and string.format(" · %d need%s you", needing, needing > 1 and "" or "s") or ""
  else
    local n = 0
    if package.loaded["claude.diff"] then
      n = n + require("claude.diff").count()
    end
    if package.loaded["claude.chat"] then
      n = n + require("claude.chat").waiting()
    end
    w = n > 0 and string.format(" · %d wait%s for you", n, n > 1 and "" or "s") or ""
  end
  -- The signs module is loaded once the host pushed some.
  local signs = package.loaded["claude.changes.signs"]
  local unreviewed = signs and signs.count() or 0
  if unreviewed > 0 then
    w = w .. string.format(" · %d unreviewed", unreviewed)
  end
  local changes = package.loaded["claude.changes"]
  if changes and changes.troubled() then
    w = w .. " · changes not recorded"
  end
  return w
end

--- A short state string for statuslines: "" when stopped, "Claude ○" while
--- waiting for the CLI, "Claude ●" when connected. With several sessions,
--- the current one's directory and how many there are ("Claude ● wt [2/3]"),
--- then each other session that waits for an answer ("· main waits"), and
--- how many of Claude's requests wait for the user ("· 1 waits for you").
function M.statusline()
  local line = M._statusline()
  local remote = require("claude.remote").statusline()
  if remote == "" then
    return line
  end
  return line == "" and remote or (line .. " · " .. remote)
end

function M._statusline()
  local s = require("claude.state")
  local terminal = require("claude.terminal")
  -- Redrawn often: a single session needs no lookup of the current one
  -- (which may read the file system, for the cwd option).
  if terminal.count() <= 1 then
    local w = waits()
    if not s.server_running then
      return w ~= "" and ("Claude" .. w) or ""
    end
    local head = s.clients > 0 and "Claude ●" or "Claude ○"
    -- Said only when edits skip the review: the usual case stays short.
    local permission = terminal.permission()
    if permission and require("claude.permission").bypasses_review(permission.mode) then
      head = head .. " " .. permission.mode
    end
    return head .. w
  end
  local sessions = terminal.sessions()
  local diff = require("claude.diff")
  local current, waiting = nil, {}
  for i, session in ipairs(sessions) do
    if session.current then
      current = i
    elseif diff.waiting(session.id) > 0 then
      table.insert(waiting, terminal.label(session.id) .. " waits")
    end
  end
  local head
  if current then
    local cur = sessions[current]
    head = string.format("Claude %s %s [%d/%d]", cur.clients > 0 and "●" or "○", terminal.label(cur.id), current, #sessions)
  else
    head = string.format("Claude [%d]", #sessions)
  end
  return table.concat(vim.list_extend({ head }, waiting), " · ") .. waits()
end

--- :Claude sessions [restore]: pick a session (terminal or chat, grouped
--- by whether it needs you) and go to what waits there; "restore" brings
--- back the sessions last seen in this working directory.
---@param arg string|nil
function M.sessions(arg)
  if arg == "restore" then
    return require("claude.attention.view").restore()
  elseif arg == "restore-from" then
    return require("claude.attention.view").restore_from()
  elseif arg == "next" then
    return require("claude.attention.view").next()
  elseif arg and arg ~= "" then
    require("claude.notify").error(":Claude sessions takes next, restore, restore-from or nothing, not " .. arg)
    return
  end
  require("claude.attention.view").pick()
end

-- require("claude").version, which users and scripts read, is version.lua's,
-- loaded when first read (at startup a lazy-loading spec loads only this
-- module and config.lua); setting it sets it there, where host.lua reads
-- it (the tests pretend a stale binary that way).
setmetatable(M, {
  __index = function(_, key)
    if key == "version" then
      return require("claude.version").version
    end
  end,
  __newindex = function(t, key, value)
    if key == "version" then
      require("claude.version").version = value
    else
      rawset(t, key, value)
    end
  end,
})

return M
