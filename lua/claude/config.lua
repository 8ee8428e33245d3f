-- Options of claude.nvim (documented in :help claude-config): one schema
-- that says, for every option, its default, the types it takes and what
-- else a value must be. The defaults, the checks and the list of known
-- keys all come from it.
local M = {}

-- The modes of `--permission-mode` permission_mode takes. 2.1.332 lists
-- "manual" where 2.1.197 had "default"; it still takes "default" (and
-- reports "default" in stream-json), 2.1.197 does not know "manual", so
-- permission.lua passes "default" for either.
M.permission_modes = { "default", "manual", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions" }

-- A single option. kinds: a type name or a list of them. opts.one_of: the
-- values allowed; opts.check(value): an error message or nil; opts.whole:
-- a table value replaces the default instead of merging into it.
local function option(default, kinds, opts)
  opts = opts or {}
  return {
    default = default,
    kinds = type(kinds) == "string" and { kinds } or kinds,
    one_of = opts.one_of,
    check = opts.check,
    whole = opts.whole,
  }
end

-- A table of options.
local function group(fields)
  return { fields = fields }
end

-- The problem with chat.agents (lua/claude/agents.lua), or nil when it is fine.
local function agents_problem(agents)
  if type(agents) ~= "table" then
    return "must be a table of agents by name"
  end
  for name, a in pairs(agents) do
    if type(name) ~= "string" or not name:match("^[%w_.-]+$") or name == "claude" then
      return string.format("agent name %s: letters, digits, _ . - only, and not \"claude\" (the built-in)", vim.inspect(name))
    end
    if type(a) ~= "table" or type(a.command) ~= "string" or a.command == "" then
      return string.format("agent %s: command must be a program (a string)", name)
    end
    if a.args ~= nil and (type(a.args) ~= "table" or not vim.iter(a.args):all(function(s)
      return type(s) == "string"
    end)) then
      return string.format("agent %s: args must be a list of strings", name)
    end
    if a.env ~= nil and type(a.env) ~= "table" then
      return string.format("agent %s: env must be a table of strings", name)
    end
  end
  return nil
end

local function positive(value)
  if value <= 0 then
    return "must be > 0 (a fraction < 1 or a number of columns/lines)"
  end
end

local function a_command(value)
  if (type(value) == "string" and vim.trim(value) == "") or (type(value) == "table" and #value == 0) then
    return "must name a command"
  end
end

local function port_range(value)
  if value == nil then
    return nil
  end
  local lo, hi = value[1], value[2]
  if type(lo) ~= "number" or type(hi) ~= "number" or lo < 1 or hi > 65535 or lo > hi then
    return "must be { min, max } with 1 <= min <= max <= 65535"
  end
end

local function string_list(value)
  for i, v in pairs(value) do
    if type(i) ~= "number" or type(v) ~= "string" or v == "" then
      return "must be a list of non-empty strings"
    end
  end
end

local function setting_sources(value)
  for i, v in pairs(value) do
    if type(i) ~= "number" or (v ~= "user" and v ~= "project" and v ~= "local") then
      return 'must be a list of "user", "project" and "local"'
    end
  end
end

local function count(value)
  if value ~= nil and (value < 1 or value ~= math.floor(value)) then
    return "must be a whole number >= 1"
  end
end

local function amount(value)
  if value ~= nil and value <= 0 then
    return "must be > 0"
  end
end

local function command_with_file(value)
  if #value == 0 then
    return "must be a list of strings naming a command"
  end
  local has_file = false
  for i, v in pairs(value) do
    if type(i) ~= "number" or type(v) ~= "string" then
      return "must be a list of strings naming a command"
    end
    has_file = has_file or v:find("{file}", 1, true) ~= nil
  end
  if not has_file then
    return "must name the audio file as {file} in one of its arguments"
  end
end

local function cli_args(value)
  local problem = string_list(value)
  return problem or require("claude.flags").check_args(value)
end

local function environment(value)
  for k, v in pairs(value) do
    if type(k) ~= "string" or (type(v) ~= "string" and type(v) ~= "number") then
      return "must map names to strings"
    end
  end
end

-- The areas of setup's keys (claude.keys says what each is).
local KEY_AREAS = { "chat", "input", "plan", "rewind", "history", "panels", "tasks", "changes", "review" }
M.key_areas = KEY_AREAS

-- keys = { area = false, ... }: only those areas, each a boolean.
local function key_areas(value)
  if type(value) ~= "table" then
    return nil
  end
  for area, on in pairs(value) do
    if not vim.tbl_contains(KEY_AREAS, area) then
      return string.format("has no area %s (areas: %s)", tostring(area), table.concat(KEY_AREAS, ", "))
    end
    if type(on) ~= "boolean" then
      return string.format("%s must be true or false", area)
    end
  end
end

-- remotes = { name = { command = { "ssh", "host", "claude-nvim", "relay" },
-- map = { ["/remote/dir"] = "~/local/dir" } } } (see :help claude-remote).
local function remotes(value)
  for name, r in pairs(value) do
    if type(name) ~= "string" or name == "" or type(r) ~= "table" then
      return "must map names to { command = {...}, map = {...} }"
    end
    -- command: the transport and the relay there; or exec: the transport
    -- alone, and the plugin puts the relay there (host/remote_install.go).
    if r.command == nil and r.exec == nil then
      return string.format("%s: give command, a list naming the transport and the relay (e.g. { 'ssh', '-T', 'host', 'claude-nvim', 'relay' }), or exec, the transport alone (e.g. { 'ssh', '-T', 'host' })", name)
    end
    -- terminal: how to run a program there in a terminal (ssh -t HOST);
    -- claude: the CLI's command there; default: plain :Claude open in a
    -- directory of the map starts it there (terminal/remote.lua).
    for _, key in ipairs({ "command", "exec", "terminal", "claude" }) do
      local list = r[key]
      local ok = list == nil or (type(list) == "table" and #list > 0)
      for _, a in ipairs(ok and list or {}) do
        ok = ok and type(a) == "string"
      end
      if not ok then
        return string.format("%s: %s must be a list of strings", name, key)
      end
    end
    if r.reconnect ~= nil and type(r.reconnect) ~= "boolean" then
      return name .. ": reconnect must be true or false"
    end
    if r.default ~= nil and type(r.default) ~= "boolean" then
      return name .. ": default must be true or false"
    end
    if r.default and not r.terminal then
      return name .. ": default needs terminal = { ... } (how to start Claude there)"
    end
    if type(r.map) ~= "table" or next(r.map) == nil then
      return name .. ": map must map at least one remote directory to a local one"
    end
    for remote, l in pairs(r.map) do
      if type(remote) ~= "string" or remote:sub(1, 1) ~= "/" or type(l) ~= "string" or l == "" then
        return name .. ": map must map absolute remote paths to local directories"
      end
    end
  end
end

M.schema = group({
  -- Start the server when Neovim starts instead of on the first :Claude*
  -- command. The Go host is started asynchronously either way.
  auto_start = option(false, "boolean"),
  -- Command that starts the CLI in the terminal split (a string or a list).
  terminal_cmd = option("claude", { "string", "table" }, { whole = true, check = a_command }),
  -- The permission mode Claude starts in, terminal and chat (see :help
  -- claude-permission-mode). nil: your Claude settings' defaultMode where
  -- one names it, else "default", in which Claude asks before each edit and
  -- the diff opens here for review (the CLI's own default since 2.1.332 is
  -- "auto", which writes most edits without asking). false passes no mode
  -- at all, for a terminal_cmd that takes no --permission-mode.
  permission_mode = option(nil, { "string", "boolean", "nil" }, {
    check = function(v)
      if v ~= false and not vim.tbl_contains(M.permission_modes, v) then
        return "must be one of " .. table.concat(M.permission_modes, ", ") .. ", false or nil, got " .. vim.inspect(v)
      end
    end,
  }),
  -- Flags for every Claude CLI the plugin starts, in the terminal and in the
  -- chat (see :help claude-config-cli). A flag the CLI takes with --print
  -- only reaches the chat's; a flag your terminal_cmd or :Claude open's
  -- arguments name already is not added again.
  cli = group({
    -- --append-system-prompt: text added to the end of Claude's system prompt.
    append_system_prompt = option(nil, { "string", "nil" }),
    -- --allowedTools: tools Claude may use without asking, e.g.
    -- { "Read", "Bash(git diff *)" }.
    allowed_tools = option(nil, { "table", "nil" }, { whole = true, check = string_list }),
    -- --disallowedTools: tools Claude may not use at all, e.g. { "WebFetch" }.
    disallowed_tools = option(nil, { "table", "nil" }, { whole = true, check = string_list }),
    -- --setting-sources: which settings files load, of "user", "project"
    -- and "local" (nil: all).
    setting_sources = option(nil, { "table", "nil" }, { whole = true, check = setting_sources }),
    -- --max-turns (chat only): a turn stops after this many model turns.
    max_turns = option(nil, { "number", "nil" }, { check = count }),
    -- --max-budget-usd (chat only): a turn stops past this cost in dollars.
    max_budget_usd = option(nil, { "number", "nil" }, { check = amount }),
    -- --fork-session: resuming a conversation (:Claude open --resume or
    -- --continue, :ClaudeChat resume or last) continues a copy; the stored
    -- one stays as it was.
    fork_session = option(false, "boolean"),
    -- --no-session-persistence (chat only): the chat's conversations are not
    -- saved and cannot be resumed.
    no_session_persistence = option(false, "boolean"),
    -- Any other flag the CLI takes, with its value: { "--add-dir", "../lib" }.
    -- Checked against the flags claude.nvim knows (lua/claude/flags.lua):
    -- one the CLI no longer takes, or one the plugin passes itself, is refused.
    args = option({}, "table", { whole = true, check = cli_args }),
  }),
  -- Extra environment for the CLI, merged over ours.
  env = option({}, "table", { whole = true, check = environment }),
  -- The directory a new Claude starts in: nil for Neovim's working
  -- directory, "git_root" for the git repository of the current file, a
  -- directory, or a function returning one.
  cwd = option(nil, { "string", "function", "nil" }),
  terminal = group({
    -- What runs the CLI: "native" (a Neovim terminal, below), "snacks"
    -- (Snacks.terminal from folke/snacks.nvim: its window and style, with
    -- position and size below), "external" (terminal.external_cmd, e.g. a
    -- tmux split, in a window that is not ours), or function(cmd, env, cwd)
    -- that starts it however it likes.
    provider = option("native", { "string", "function" }, {
      check = function(v)
        if type(v) == "string" and v ~= "native" and v ~= "snacks" and v ~= "external" then
          return 'must be "native", "snacks", "external" or a function'
        end
      end,
    }),
    -- For provider = "external": a shell command line whose %s becomes the
    -- CLI's command line (with its environment in front), e.g.
    -- "tmux split-window -h %s".
    external_cmd = option(nil, { "string", "nil" }),
    -- Where the split opens: "right", "left", "above", "below", "tab" or
    -- "float" (a window over the editor; see float below).
    position = option("right", "string", { one_of = { "right", "left", "above", "below", "tab", "float" } }),
    -- Width (or height for above/below): a fraction of the editor (< 1)
    -- or a number of columns/lines (>= 1).
    size = option(0.4, "number", { check = positive }),
    -- The floating window of position = "float": width and height as
    -- fractions (< 1) or columns/lines (>= 1), and its 'border'.
    float = group({
      width = option(0.8, "number", { check = positive }),
      height = option(0.8, "number", { check = positive }),
      border = option("rounded", { "string", "table" }, { whole = true }),
    }),
    -- Enter Terminal mode when the user moves into the terminal window
    -- themselves (a window command, the mouse).
    auto_insert = option(true, "boolean"),
    -- Enter Terminal mode when a command (:Claude open, focus, toggle,
    -- sessions) or the plugin brings the cursor to the terminal; off, it
    -- lands in Normal mode (:Claude focus insert types).
    focus_insert = option(false, "boolean"),
  }),
  -- Ports the WebSocket server may use, { min, max }; nil lets the OS pick.
  port_range = option(nil, { "table", "nil" }, { whole = true, check = port_range }),
  -- Name shown by the CLI ("/ide", "Opened changes in Neovim").
  ide_name = option("Neovim", "string"),
  -- CLIs on other machines or in containers, reached through a relay
  -- (:Claude remote connect NAME; :help claude-remote).
  remotes = option({}, "table", { whole = true, check = remotes }),
  -- The default keys of the plugin's own buffers (:help claude-keys):
  -- false turns them all off; a table turns areas off, e.g.
  -- { chat = false, history = false } (areas: chat, input, plan, rewind,
  -- history, panels, tasks, changes, review). Every key is also a command
  -- or a <Plug> map to bind yourself.
  keys = option(true, { "boolean", "table" }, { whole = true, check = key_areas }),
  diff = group({
    -- "vertical" or "horizontal" split between current file and proposal.
    layout = option("vertical", "string", { one_of = { "vertical", "horizontal" } }),
    -- Open each diff in a new tab page instead of the current one.
    open_in_new_tab = option(false, "boolean"),
    -- Leave focus in the Claude terminal when a diff opens.
    keep_terminal_focus = option(false, "boolean"),
    -- Buffer-local keys on diff buffers; set a key to false to disable it.
    keymaps = group({
      accept = option("<leader>aa", { "string", "boolean" }),
      reject = option("<leader>ad", { "string", "boolean" }),
      -- The hunk under the cursor: the proposal keeps the file's text
      -- there. Clear of Vim's do/dp/]c/[c and gitsigns' <leader>h….
      take_back = option("<leader>ab", { "string", "boolean" }),
      -- Take the hunk back and say why: the reason reaches Claude with the
      -- edit's result when you accept the rest.
      take_back_why = option("<leader>aw", { "string", "boolean" }),
      -- The hunk under the cursor stays as Claude proposed it; the cursor
      -- goes to the next open hunk.
      keep = option("<leader>ak", { "string", "boolean" }),
    }),
    -- Install the keymaps above at all.
    use_default_keymaps = option(true, "boolean"),
  }),
  -- Tools Claude's model may call that do more than read the editor.
  tools = group({
    -- Offer executeCode (mcp__ide__executeCode): the model's Python runs in
    -- a Jupyter kernel of the open notebook, each run shown to you first
    -- and run only when you :w it. Off: the model never sees the tool.
    execute_code = option(false, "boolean"),
    -- The interpreter that starts kernels (python3 -m ipykernel_launcher).
    python = option("python3", "string", { check = a_command }),
    -- Seconds a run may take before the kernel is interrupted.
    execute_timeout = option(300, "number", { check = positive }),
    -- The language-server tools (lsp_definition, lsp_references, …): the
    -- model asks the servers Neovim runs. false: neither the terminal's
    -- nor the chat's Claude gets them (from its next start).
    lsp = option(true, "boolean"),
  }),
  -- The change ledger (:Claude changes): every turn of a CLI the plugin
  -- started is recorded, whatever the permission mode.
  changes = group({
    -- After you revert something, the next prompt in that workspace tells
    -- Claude what you undid (so it does not redo it blindly).
    revert_note = option(true, "boolean"),
    -- A file larger than this (MiB) is not recorded: :Claude changes lists
    -- it as "too large to record" and cannot revert it.
    max_file_mb = option(10, "number"),
    -- The ledger of one workspace keeps at most this much (MiB); past it the
    -- oldest turns are forgotten first.
    max_store_mb = option(2048, "number"),
    -- Signs on the lines Claude changed that you have not reviewed.
    signs = option(true, "boolean"),
    -- Buffer-local keys in the :Claude changes diff; false disables one.
    keymaps = group({
      revert_hunk = option("<leader>ar", { "string", "boolean" }),
      revert_hunk_why = option("<leader>aw", { "string", "boolean" }),
      review = option("<leader>av", { "string", "boolean" }),
      revert_file = option("<leader>aR", { "string", "boolean" }),
      revert_turn = option("<leader>aT", { "string", "boolean" }),
    }),
    use_default_keymaps = option(true, "boolean"),
  }),
  -- Which session needs you (:Claude sessions, the statusline count, the
  -- ClaudeNeedsYou and ClaudeDone events).
  attention = group({
    -- A desktop notice when a session comes to need you while Neovim is
    -- not focused: "off", "terminal" (OSC 9 and 777 through the terminal
    -- Neovim runs in), "system" (notify-send) or "auto" (notify-send when
    -- installed, else the terminal). Off by default: a notice is a
    -- distraction the user asks for; the User events are always there.
    notify = option("off", "string", { one_of = { "off", "terminal", "system", "auto" } }),
    -- Bring this workspace's sessions of last time back at startup, as
    -- :Claude sessions restore does (trusted folders only).
    restore = option(false, "boolean"),
  }),
  -- Reload buffers whose files Claude changed on disk (never one with
  -- unsaved changes: those get a warning instead).
  auto_reload = option(true, "boolean"),
  -- The editor's tools Claude gets beside the IDE connection's.
  chat = group({
    -- Start the chat's CLI for the current directory once Neovim has
    -- started (and the user is not typing), so :ClaudeChat's first message
    -- is answered without waiting for the CLI to start. Only in a folder
    -- the CLI trusts. Costs one CLI process per Neovim, used or not.
    prestart = option(false, "boolean"),
    -- Other agents for :ClaudeChat, by name: { command = "prog", args = {},
    -- env = {} }, each run over the Agent Client Protocol. The built-in
    -- Claude (stream-json) stays the default. See :help claude-agents.
    agents = option({}, "table", { whole = true, check = agents_problem }),
  }),
  -- :Claude dictate (see :help claude-dictation): two commands, lists run
  -- without a shell, where {file} is the audio file (a .wav in a private
  -- temporary directory, removed after). Nothing by default: dictation is
  -- off until both are set.
  dictation = group({
    -- Records from the microphone into {file} until it gets SIGINT (a
    -- second :Claude dictate) or ends by itself, e.g.
    -- { "arecord", "-q", "-f", "S16_LE", "-r", "16000", "-c", "1", "{file}" }.
    record = option(nil, { "table", "nil" }, { whole = true, check = command_with_file }),
    -- Prints the text spoken in {file}, e.g. whisper.cpp's
    -- { "whisper-cli", "-m", "/path/ggml-base.en.bin", "-nt", "-np", "-f", "{file}" }.
    transcribe = option(nil, { "table", "nil" }, { whole = true, check = command_with_file }),
  }),
  log = group({
    -- "error", "warn", "info" or "debug".
    level = option("info", "string", { one_of = { "error", "warn", "info", "debug" } }),
    -- Log file; nil means stdpath("log") .. "/claude.log".
    file = option(nil, { "string", "nil" }),
  }),
})

-- How a default reads in a message: strings quoted, tables inspected.
local function show(value)
  if type(value) == "string" then
    return string.format("%q", value)
  end
  return vim.inspect(value, { newline = " ", indent = "" })
end

-- The problem with one value, or nil when it is fine.
local function problem_with(spec, value)
  if not vim.tbl_contains(spec.kinds, type(value)) then
    return string.format("must be a %s, got %s", table.concat(spec.kinds, " or "), type(value))
  end
  if spec.one_of and not vim.tbl_contains(spec.one_of, value) then
    return string.format("must be one of %s, got %q", table.concat(spec.one_of, ", "), tostring(value))
  end
  return spec.check and spec.check(value)
end

-- The value of one option: the user's, checked, or the default. A bad
-- value is reported in problems and replaced by the default, so that one
-- typo costs that option only and never the rest of the user's init.lua.
local function resolve_option(spec, value, name, problems)
  if value == nil then
    return vim.deepcopy(spec.default)
  end
  local problem = problem_with(spec, value)
  if problem then
    table.insert(problems, string.format("claude.nvim: option %s %s; using the default %s", name, problem, show(spec.default)))
    return vim.deepcopy(spec.default)
  end
  return vim.deepcopy(value)
end

-- Walks a group: the user's keys it knows are checked and merged over the
-- defaults; the others are collected (a typo should not be silent).
local function resolve_group(spec, user, prefix, unknown, problems)
  local out = {}
  for key in pairs(user) do
    if spec.fields[key] == nil then
      table.insert(unknown, prefix .. tostring(key))
    end
  end
  for key, field in pairs(spec.fields) do
    local name = prefix .. key
    local value = user[key]
    if field.fields then
      if value ~= nil and type(value) ~= "table" then
        table.insert(problems, string.format("claude.nvim: option %s must be a table, got %s; using its defaults", name, type(value)))
        value = nil
      end
      out[key] = resolve_group(field, value or {}, name .. ".", unknown, problems)
    else
      out[key] = resolve_option(field, value, name, problems)
    end
  end
  return out
end

--- Returns defaults merged with opts. Never raises: a bad value is
--- replaced by its default and described in problems (one line each,
--- naming the key, what it takes and what was given).
---@param opts table|nil
---@return claude.Config config
---@return string[] unknown keys that were ignored
---@return string[] problems one message per bad value
function M.resolve(opts)
  local unknown, problems = {}, {}
  if opts ~= nil and type(opts) ~= "table" then
    table.insert(problems, "claude.nvim: setup() takes a table of options, got " .. type(opts) .. "; using the defaults")
    opts = nil
  end
  local cfg = resolve_group(M.schema, opts or {}, "", unknown, problems)
  table.sort(unknown)
  table.sort(problems)
  return cfg, unknown, problems
end

--- Every option's dotted name ("terminal.position"), groups included,
--- sorted (for the help file's tags and :checkhealth).
---@return string[]
function M.keys()
  local out = {}
  local function walk(spec, prefix)
    for key, field in pairs(spec.fields) do
      table.insert(out, prefix .. key)
      if field.fields then
        walk(field, prefix .. key .. ".")
      end
    end
  end
  walk(M.schema, "")
  table.sort(out)
  return out
end

---@class claude.Config
M.defaults = M.resolve({})

-- The configuration in effect: every module reads it here (floor 0), so
-- none needs the top module for it.
local active = { cfg = nil, setup_called = false }

--- The active configuration (the defaults until setup() is called).
---@return claude.Config
function M.get()
  if not active.cfg then
    active.cfg = M.resolve({})
  end
  return active.cfg
end

--- Makes cfg (from M.resolve) the active configuration; setup() calls it.
---@param cfg claude.Config
function M.set(cfg)
  active.cfg, active.setup_called = cfg, true
end

--- Whether setup() was called (:checkhealth says when it was not).
function M.setup_called()
  return active.setup_called
end

return M
