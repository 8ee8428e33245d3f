-- Starts and talks to the Go side: bin/claude-nvim, a Neovim remote plugin
-- (msgpack-RPC over the job's stdio). Nothing here runs at startup; the
-- first call to ensure() registers the host and loads the checked-in
-- manifest (rplugin/claude-nvim.vim), whose functions and autocmds start
-- the binary on first use.
--
-- The one way out to Go: every ClaudeHost* function is called through
-- the wrappers at the end of this file, nowhere else. (The way in is
-- handlers.lua.) When the process dies this module says so with a
-- `User ClaudeHostExit` event instead of calling up into the views.
local M = {}

-- The plugin's version, read when needed: a test may change it.
local function version()
  return require("claude.version").version
end

local HOST = "claude-nvim"

-- The Go host's functions (host/calls.go's list, generated).
local CALLS = require("claude.host_calls")

local state = {
  ready = false,
  generation = 0, -- bumped on every (re)start, names the remote host
  channel = nil,
  functions = {}, -- Vimscript functions the manifest defines
  chats = {}, -- by directory, the pid of the chat CLI this host runs (asked for, not stopped)
}

--- Root of the plugin checkout (this file is <root>/lua/claude/host.lua).
function M.root()
  local source = debug.getinfo(1, "S").source:sub(2)
  return vim.fn.fnamemodify(source, ":p:h:h:h")
end

--- The Go binary: bin/claude-nvim in the checkout, unless
--- vim.g.claude_nvim_binary names another (a packaged install, tests).
function M.binary()
  return vim.g.claude_nvim_binary or (M.root() .. "/bin/claude-nvim")
end

function M.manifest()
  return M.root() .. "/rplugin/claude-nvim.vim"
end

function M.log_file()
  local cfg = require("claude.config").get()
  return cfg.log.file or (vim.fn.stdpath("log") .. "/claude.log")
end

--- Where the binary came from, as scripts/install-binary (or `make`) wrote
--- it next to it (<binary>.source, KEY=VALUE lines): { method = "download"
--- or "source", url, sha256, go, ... }. Nil when nothing is written, or when
--- the binary is newer than the record (replaced by other means since).
---@return table|nil
function M.origin()
  local bin = M.binary()
  local record, binary = vim.uv.fs_stat(bin .. ".source"), vim.uv.fs_stat(bin)
  if not record or not binary then
    return nil
  end
  local r, b = record.mtime, binary.mtime
  if b.sec > r.sec or (b.sec == r.sec and b.nsec > r.nsec) then
    return nil
  end
  local ok, lines = pcall(vim.fn.readfile, bin .. ".source")
  local origin = {}
  for _, line in ipairs(ok and lines or {}) do
    local key, value = line:match("^(%w+)=(.*)$")
    if key then
      origin[key] = value
    end
  end
  return origin.method and origin or nil
end

--- The one shell command that puts a binary of this version in place: the
--- installer, asked to build from source if that is how this one was made.
function M.install_command()
  local origin = M.origin()
  local cmd = M.root() .. "/scripts/install-binary"
  if cmd:find("[^%w/._+-]") then
    cmd = vim.fn.shellescape(cmd)
  end
  if origin and origin.method == "source" then
    cmd = "CLAUDE_NVIM_BUILD=source " .. cmd
  end
  return cmd
end

local function build_hint()
  return string.format("run `%s` (or `:Lazy build claude.nvim`; see :help claude-install)", M.install_command())
end

-- Removes every trace of one host generation: the manifest's autocmds
-- (still bootstrapping, they name the host; bootstrapped, they name its
-- channel) and its functions. Without this, once that process is gone
-- every CursorMoved would raise "invalid channel".
local function forget(host_name, chan)
  local ok, autocmds = pcall(vim.api.nvim_get_autocmds, {})
  if ok then
    local by_host = '"' .. host_name .. '"'
    local by_chan = chan and ("(" .. chan .. ', "0:') or nil
    -- remote#define puts each of them in a group of its own, and
    -- Vimscript-defined autocmds have no id: delete the groups.
    for _, au in ipairs(autocmds) do
      local cmd = au.command or ""
      if au.group_name and (cmd:find(by_host, 1, true) or (by_chan and cmd:find(by_chan, 1, true))) then
        pcall(vim.api.nvim_del_augroup_by_name, au.group_name)
      end
    end
  end
  for _, name in ipairs(state.functions) do
    pcall(vim.cmd.delfunction, name)
  end
end

-- How soon after a restart a second crash stops us restarting again: a
-- binary that dies at once would otherwise restart for ever.
local RESTART_QUIET_MS = 30000

-- Removes the lock file a dead host left, if it is still ours: the same
-- port may have been taken since by another editor, whose lock has the
-- same name but not our token.
local function remove_own_lock(path, token)
  local f = path and io.open(path, "r")
  if not f then
    return
  end
  local ok, info = pcall(vim.json.decode, f:read("*a"))
  f:close()
  if ok and type(info) == "table" and token and info.authToken == token then
    os.remove(path)
  end
end

-- Tells the user the Go host exited with code (unless that was a clean
-- exit or Neovim's own); returns whether to start it again: only when its
-- server ran and it did not die right after the last restart.
local function report_exit(code, was_running)
  if code == 0 or vim.v.exiting ~= vim.NIL then
    return false
  end
  local notify = require("claude.notify")
  local now = vim.uv.now()
  local again = state.restarted_at and now - state.restarted_at < RESTART_QUIET_MS
  if not was_running or again then
    notify.error(
      string.format(
        "the Go host exited with code %d%s; see :Claude log. :Claude server start starts it again.",
        code,
        again and " again, right after a restart" or ""
      )
    )
    return false
  end
  state.restarted_at = now
  notify.warn(string.format("the Go host exited with code %d (see :Claude log); restarting it", code))
  return true
end

-- Signals by number, for the exit codes a job killed by one gets (128 +
-- its number): the ones that end a process from outside or on a crash.
local SIGNALS = { [1] = "SIGHUP", [2] = "SIGINT", [6] = "SIGABRT", [9] = "SIGKILL", [11] = "SIGSEGV", [15] = "SIGTERM" }

--- How a process ended, from its job's exit code: "SIGKILL" (or "signal
--- N") for one killed by a signal, else "exit code N".
---@param code integer
function M.describe_exit(code)
  if code > 128 and code < 160 then
    return SIGNALS[code - 128] or ("signal " .. (code - 128))
  end
  return "exit code " .. code
end

local function on_exit(chan, code)
  if state.channel ~= chan then
    return
  end
  state.ready, state.channel, state.registered = false, nil, false
  forget(state.host_name, chan)
  local shared = require("claude.state")
  local server_ran = shared.server_running and true or false
  local chats = state.chats
  state.chats = {}
  local pids = {}
  for _, pid in pairs(chats) do
    if type(pid) == "number" and pid > 0 then
      table.insert(pids, pid)
    end
  end
  if code ~= 0 and #pids > 0 then
    require("claude.reap").chats(pids)
  end
  -- In use: a server, or a chat whose CLI died with it (chat/revive.lua
  -- resumes it on this event).
  local was_running = server_ran or next(chats) ~= nil
  -- A host that died without cleaning up leaves a lock naming our (live)
  -- pid and a dead port; the CLI would keep trying it.
  remove_own_lock(shared.lockfile, shared.token)
  shared._server({ running = false, code = code }, require("claude.sessions").running(1))
  -- Nobody can answer Claude for the diffs it showed any more (diff.lua
  -- closes them), and server.lua starts the server again when told to:
  -- both on this event, as neither is this module's business.
  -- server: whether server.lua has a server to start again; chats: the
  -- directories whose chat CLI went with the host.
  require("claude.events").fire(
    "ClaudeHostExit",
    { code = code, restart = report_exit(code, was_running), server = server_ran, chats = vim.tbl_keys(chats) }
  )
end

local function start_job(host_name)
  local cfg = require("claude.config").get()
  require("claude.typing").watch() -- as in M.ensure: auto_start comes here
  local chan = vim.fn.jobstart({ M.binary() }, {
    rpc = true,
    env = {
      CLAUDE_NVIM_LOG = M.log_file(),
      CLAUDE_NVIM_LOG_LEVEL = cfg.log.level,
    },
    on_exit = function(job, code)
      vim.schedule(function()
        on_exit(job, code)
      end)
    end,
  })
  if chan <= 0 then
    return 0
  end
  state.channel = chan
  return chan
end

-- Loads the manifest under this generation's host name; the first
-- generation uses the name the file was generated for.
local function load_manifest(host_name)
  local lines = vim.fn.readfile(M.manifest())
  local text = table.concat(lines, "\n")
  state.functions = {}
  for name in text:gmatch("'type': 'function', 'name': '([%w_]+)'") do
    table.insert(state.functions, name)
  end
  if host_name ~= HOST then
    text = text:gsub("RegisterPlugin%('" .. HOST:gsub("%-", "%%-") .. "'", "RegisterPlugin('" .. host_name .. "'")
  end
  vim.api.nvim_exec2(text, {})
end

-- Registers the host and loads the manifest under a fresh generation's
-- name. No RPC: the process starts on the first call.
local function register()
  if state.registered then
    return true
  end
  if vim.fn.executable(M.binary()) ~= 1 then
    return false, string.format("claude.nvim: the Go binary %s is missing: %s", M.binary(), build_hint())
  end
  if vim.fn.filereadable(M.manifest()) ~= 1 then
    return false, string.format("claude.nvim: %s is missing; the checkout is incomplete", M.manifest())
  end
  state.generation = state.generation + 1
  local host_name = state.generation == 1 and HOST or (HOST .. "-" .. state.generation)
  state.host_name = host_name
  vim.fn["remote#host#Register"](host_name, "x", function()
    return start_job(host_name)
  end)
  local ok, err = pcall(load_manifest, host_name)
  if not ok then
    return false, "claude.nvim: could not load the plugin manifest: " .. tostring(err)
  end
  state.registered = true
  return true
end

-- Undoes a registration whose binary turned out unusable.
local function unregister()
  local chan = state.channel
  state.channel, state.registered, state.ready = nil, false, false
  forget(state.host_name, chan)
  if chan then
    pcall(vim.fn.jobstop, chan)
  end
end

local function stale_message(found)
  return string.format(
    "claude.nvim: %s is %s but the plugin is %s: update it: %s",
    M.binary(),
    found,
    version(),
    build_hint()
  )
end

-- Tells a host that just answered where the change ledger lives and how it
-- behaves (changes.* options); the hooks of the CLIs it starts record there.
local function configure_changes()
  local cfg = require("claude.config").get().changes
  local dir = vim.fn.stdpath("state") .. "/claude/ledger"
  local ok, err = pcall(vim.fn[CALLS.configure_changes.go], {
    dir = dir,
    revert_note = cfg.revert_note,
    max_file_mb = cfg.max_file_mb,
    max_store_mb = cfg.max_store_mb,
    cwd = vim.fn.getcwd(),
  })
  -- A test host may register only some handlers.
  if not ok and not (vim.g.claude_test_host and tostring(err):find("Unknown function", 1, true)) then
    require("claude.notify").notify("claude.nvim: the change ledger is off: " .. tostring(err), vim.log.levels.WARN)
  end
end

--- Makes sure the Go host is registered and answering, waiting for it to
--- start (a few milliseconds, once) if needed.
---@return boolean ok
---@return string|nil error message for the user
function M.ensure()
  if state.ready then
    return true
  end
  -- From now on Claude may ask for things: whether the user is typing
  -- decides where they show (claude.typing).
  require("claude.typing").watch()
  -- Tests run the Go handlers in the test process and register them
  -- themselves (plugin.RegisterForTests).
  if vim.g.claude_test_host then
    state.ready = true
    configure_changes()
    return true
  end
  local ok, err = register()
  if not ok then
    return false, err
  end
  local answered, theirs = pcall(vim.fn[CALLS.version.go])
  if not answered or theirs ~= version() then
    unregister()
    return false, stale_message(answered and ("version " .. tostring(theirs)) or "an older version")
  end
  state.ready = true
  configure_changes()
  return true
end

-- How long an asynchronous start may take before we say the binary does
-- not answer (an old binary ignores a notification it does not know).
local ASYNC_START_TIMEOUT_MS = 10000

--- Starts the server without ever waiting on the Go host (auto_start):
--- the host answers through handlers.finish_start. Returns false, doing
--- nothing, when the host already answers: then a plain start is as quick.
---@param opts table ClaudeHostStart options
---@return boolean started
function M.start_async(opts)
  if state.ready or vim.g.claude_test_host then
    return false
  end
  local ok, err = register()
  if not ok then
    require("claude.notify").notify(err, vim.log.levels.ERROR)
    return true
  end
  state.async_pending = true
  opts = vim.tbl_extend("force", opts, { version = version() })
  vim.fn[CALLS.start_async.go](opts)
  vim.defer_fn(function()
    if state.async_pending then
      state.async_pending = false
      unregister()
      require("claude.notify").notify(stale_message("not answering (an older version?)"), vim.log.levels.ERROR)
    end
  end, ASYNC_START_TIMEOUT_MS)
  return true
end

--- The end of an asynchronous start (the Go host's answer, through
--- handlers.finish_start): the started server's info, or nil after
--- reporting why there is none.
---@param result table { info = server info } or { error = message, version = host's }
---@return table|nil info
function M.finish_start(result)
  state.async_pending = false
  if result.version then
    unregister()
    require("claude.notify").notify(stale_message("version " .. tostring(result.version)), vim.log.levels.ERROR)
    return nil
  end
  if result.error then
    require("claude.notify").notify("claude.nvim: could not start the server: " .. tostring(result.error), vim.log.levels.ERROR)
    return nil
  end
  state.ready = true
  configure_changes()
  return result.info
end

--- Calls a function of the Go host, starting it if needed. Errors are
--- reported to the user and nil is returned. Callers use the named
--- wrappers below.
---@param name string
---@param ... any
function M.call(name, ...)
  local ok, err = M.ensure()
  if not ok then
    require("claude.notify").notify(err, vim.log.levels.ERROR)
    return nil
  end
  local args = { ... }
  local called, result = pcall(function()
    return vim.fn[name](unpack(args))
  end)
  if not called then
    require("claude.notify").notify("claude.nvim: " .. tostring(result), vim.log.levels.ERROR)
    return nil
  end
  return result
end

--- The RPC channel of the running Go host, or nil (e.g. for jobpid()).
function M.channel()
  return state.channel
end

--- Whether the Go host process is running (without starting it).
function M.running()
  return state.ready
end

-- Calls a function of a running Go host, never starting it and never
-- reporting an error: for updates that do not matter once it is gone.
local function try(name, ...)
  return pcall(vim.fn[name], ...)
end

-- The Go host's functions, declared once in host/calls.go, which writes
-- lua/claude/host_calls.lua: each is a wrapper here, named by what it does,
-- made from that list ("call", "try", "ready") or written below ("custom").
-- The terminal bridge: servers are numbered by their terminal session
-- (1: the server :Claude server start starts).
for name, c in pairs(CALLS) do
  if c.how == "call" then
    M[name] = function(...)
      return M.call(c.go, ...)
    end
  elseif c.how == "try" then
    M[name] = function(...)
      return try(c.go, ...)
    end
  elseif c.how == "ready" then
    M[name] = function(...)
      return state.ready and try(c.go, ...)
    end
  end
end

--- Stops server id (the first without id). quiet: only if the host runs,
--- and without reporting an error.
---@param id integer|nil
---@param quiet boolean|nil
function M.stop_server(id, quiet)
  if quiet then
    return state.ready and try(CALLS.stop_server.go, id)
  end
  if id then
    return M.call(CALLS.stop_server.go, id)
  end
  return M.call(CALLS.stop_server.go)
end

--- Every remote's state, from the host (nil when it does not run).
function M.remote_status()
  if not state.ready then
    return nil
  end
  return M.call(CALLS.remote_status.go)
end

--- Gives Claude the user's decision on diff id; ok, or false and why.
--- reasons: the hunks taken back with a reason (claude.diff.hunks.reasons);
--- why: on reject, the user's reason ("" for none).
function M.answer_diff(id, decision, text, reasons, why)
  return try(CALLS.answer_diff.go, id, decision, text, reasons or {}, why or "")
end

-- The chat: one CLI per workspace directory, run by the host.

function M.start_chat(args)
  local pid = M.call(CALLS.start_chat.go, args)
  if pid ~= nil then
    state.chats[args.dir] = pid
  end
  return pid
end

function M.send_to_chat(dir, text, images, id)
  return M.call(CALLS.send_to_chat.go, dir, text, images, id or "")
end

function M.stop_chat(dir)
  state.chats[dir] = nil
  return M.call(CALLS.stop_chat.go, dir)
end

-- The change ledger (:Claude changes).

--- Asks the host for op (list, open, revert_hunk, revert_file,
--- revert_turn, review, unreview, clear, marks) in cwd's workspace; the
--- answer comes through handlers.changes_reply.
function M.request_changes(op, cwd, turn, path, key, why)
  return M.call(CALLS.request_changes.go, op, cwd, turn or "", path or "", key or "", why or "")
end

--- What the ledger records for cwd (:checkhealth), or nil when the host
--- does not run (it is not started for a health check).
function M.changes_health(cwd)
  if not state.ready then
    return nil
  end
  local ok, result = try(CALLS.changes_health.go, cwd)
  return ok and result or nil
end

return M
