-- The Claude CLI's flags as claude.nvim knows them, in one table: which of
-- the CLIs checked take each (read from their --help and code: issue 38),
-- which the plugin passes or decides itself, and the `cli` options of
-- setup() (:help claude-config-cli) turned into arguments for the
-- terminal's CLI and the chat's. Floor 0: config.lua checks setup() with
-- it, and the configuration is passed in, never read here.
local M = {}

-- The CLI versions the table was checked against, oldest first.
M.checked = { "1.0.0", "2.1.197", "2.1.332" }
M.newest = M.checked[#M.checked]

local BOTH = { "2.1.197", "2.1.332" }
local NEW = { "2.1.332" }
local PLUGIN = "claude.nvim passes it itself"

-- flag -> {
--   takes = the checked versions that take it,
--   value = "one" (the next argument is its value) or "optional",
--   print = the CLI takes it with --print only (so the chat's CLI gets it
--           and the terminal's does not),
--   key = the cli option that sets it (cli.args refuses it then),
--   owner = why it is not the user's to pass (cli.args refuses it),
--   instead = what to use where the CLI took it once and no longer does,
--   note = said in :checkhealth,
-- }
M.known = {
  ["--add-dir"] = { takes = BOTH, value = "one" },
  ["--agent"] = { takes = BOTH, value = "one" },
  ["--agents"] = { takes = BOTH, value = "one" },
  ["--allow-dangerously-skip-permissions"] = { takes = BOTH },
  ["--allowedTools"] = { takes = BOTH, value = "one", key = "allowed_tools" },
  ["--allowed-tools"] = { takes = BOTH, value = "one", key = "allowed_tools" },
  ["--append-system-prompt"] = { takes = BOTH, value = "one", key = "append_system_prompt" },
  ["--append-system-prompt-file"] = { takes = BOTH, value = "one" },
  ["--autocompact"] = { takes = NEW, value = "one" },
  ["--betas"] = { takes = BOTH, value = "one" },
  ["-c"] = { takes = BOTH, owner = "pass --continue to :Claude open, or use :ClaudeChat last" },
  ["--continue"] = { takes = BOTH, owner = "pass it to :Claude open, or use :ClaudeChat last" },
  ["--dangerously-skip-permissions"] = { takes = BOTH },
  ["-d"] = { takes = BOTH, value = "optional" },
  ["--debug"] = { takes = BOTH, value = "optional" },
  ["--debug-file"] = { takes = BOTH, value = "one" },
  ["--disable-slash-commands"] = { takes = BOTH },
  ["--disallowedTools"] = { takes = BOTH, value = "one", key = "disallowed_tools" },
  ["--disallowed-tools"] = { takes = BOTH, value = "one", key = "disallowed_tools" },
  ["--effort"] = { takes = BOTH, value = "one" },
  ["--fallback-model"] = { takes = BOTH, value = "one" },
  ["--fork-session"] = { takes = BOTH, key = "fork_session" },
  ["--ide"] = { takes = BOTH, owner = "claude.nvim connects the CLIs it starts itself" },
  ["--include-partial-messages"] = { takes = BOTH, owner = PLUGIN .. " to the chat" },
  ["--input-format"] = { takes = BOTH, owner = PLUGIN .. " to the chat" },
  ["--max-budget-usd"] = { takes = BOTH, value = "one", print = true, key = "max_budget_usd" },
  ["--max-thinking-tokens"] = {
    takes = BOTH,
    value = "one",
    print = true,
    note = "deprecated since 2.1.332's --thinking; :Claude effort sets --effort",
  },
  ["--max-turns"] = { takes = BOTH, value = "one", print = true, key = "max_turns" },
  ["--mcp-config"] = { takes = BOTH, value = "one" },
  ["--mcp-debug"] = { takes = { "1.0.0" }, instead = "--debug" },
  ["--model"] = { takes = BOTH, value = "one" },
  ["-n"] = { takes = BOTH, value = "one" },
  ["--name"] = { takes = BOTH, value = "one" },
  ["--no-session-persistence"] = { takes = BOTH, print = true, key = "no_session_persistence" },
  ["--output-format"] = { takes = BOTH, owner = PLUGIN .. " to the chat" },
  ["-p"] = { takes = BOTH, owner = "the chat runs the CLI in print mode itself; the terminal's is interactive" },
  ["--print"] = { takes = BOTH, owner = "the chat runs the CLI in print mode itself; the terminal's is interactive" },
  ["--permission-mode"] = { takes = BOTH, owner = "use permission_mode" },
  ["--permission-prompt-tool"] = { takes = BOTH, owner = PLUGIN .. " to the chat" },
  ["--permission-prompts"] = { takes = NEW, owner = "the chat asks you in Neovim" },
  ["--plugin-dir"] = { takes = BOTH, value = "one" },
  ["--replay-user-messages"] = { takes = BOTH, owner = PLUGIN .. " where the chat needs it" },
  ["--restricted"] = { takes = NEW },
  ["-r"] = { takes = BOTH, owner = "pass --resume to :Claude open, or use :ClaudeChat resume" },
  ["--resume"] = { takes = BOTH, owner = "pass it to :Claude open, or use :ClaudeChat resume" },
  ["--resume-session-at"] = { takes = BOTH, owner = PLUGIN .. " (:Claude chat rewind)" },
  ["--session-id"] = { takes = BOTH, owner = "each CLI claude.nvim starts has a conversation of its own" },
  ["--setting-sources"] = { takes = BOTH, value = "one", key = "setting_sources" },
  ["--settings"] = { takes = BOTH, value = "one" },
  ["--strict-mcp-config"] = { takes = BOTH },
  ["--system-prompt"] = { takes = BOTH, value = "one" },
  ["--system-prompt-file"] = { takes = BOTH, value = "one" },
  ["--system-prompt-snapshot"] = { takes = NEW, value = "one" },
  ["--thinking"] = { takes = BOTH, value = "one" },
  ["--tools"] = { takes = BOTH, value = "one" },
  ["--verbose"] = { takes = BOTH },
}

-- Compares dotted versions: -1, 0 or 1.
local function compare(a, b)
  local x, y = vim.split(a, ".", { plain = true }), vim.split(b, ".", { plain = true })
  for i = 1, math.max(#x, #y) do
    local p, q = tonumber(x[i]) or 0, tonumber(y[i]) or 0
    if p ~= q then
      return p < q and -1 or 1
    end
  end
  return 0
end
M.compare = compare

-- The flag an argument names ("--flag=value" names --flag), or nil.
local function flag_of(arg)
  if type(arg) ~= "string" or arg:sub(1, 1) ~= "-" or arg == "-" then
    return nil
  end
  return (arg:match("^(%-%-?[^=]+)=") or arg)
end

local function checked_list()
  return table.concat(vim.list_slice(M.checked, 2), ", ")
end

--- Why cli.args cannot hold flag, or nil when it can.
---@param flag string
function M.refusal(flag)
  local k = M.known[flag]
  if not k then
    return string.format(
      "%s is not a flag claude.nvim knows the CLI takes (checked: %s); if yours takes it, put it in terminal_cmd",
      flag,
      checked_list()
    )
  end
  if not vim.tbl_contains(k.takes, M.newest) and compare(k.takes[#k.takes], M.newest) < 0 then
    return string.format(
      "the CLI no longer takes %s (last taken by %s of the versions checked: %s)%s",
      flag,
      k.takes[#k.takes],
      table.concat(M.checked, ", "),
      k.instead and ("; use " .. k.instead) or ""
    )
  end
  if k.key then
    return string.format("%s is set with cli.%s", flag, k.key)
  end
  if k.owner then
    return string.format("%s: %s", flag, k.owner)
  end
  return nil
end

--- setup()'s check of cli.args: a problem (one line) or nil.
---@param args table
function M.check_args(args)
  local i = 1
  while i <= #args do
    local a = args[i]
    if type(a) ~= "string" then
      return string.format("must be a list of strings (item %d is a %s)", i, type(a))
    end
    local flag = flag_of(a)
    if not flag then
      return string.format("takes flags and their values only: %q is neither (a prompt goes to :Claude open or the chat)", a)
    end
    local why = M.refusal(flag)
    if why then
      return "refuses " .. why
    end
    local k = M.known[flag]
    local inline = a ~= flag
    if k.value == "one" and not inline then
      if args[i + 1] == nil then
        return string.format("gives %s no value", flag)
      end
      i = i + 1
    elseif k.value == "optional" and not inline and args[i + 1] and not flag_of(args[i + 1]) then
      i = i + 1
    elseif not k.value and inline then
      return string.format("gives %s a value it does not take", flag)
    end
    i = i + 1
  end
  return nil
end

-- Whether args (or the words of terminal_cmd) name flag or another
-- spelling of it (--allowedTools, --allowed-tools).
local function names(lists, flag)
  local key = M.known[flag] and M.known[flag].key
  for _, list in ipairs(lists) do
    for _, a in ipairs(list) do
      local f = flag_of(a)
      if f and (f == flag or (key and M.known[f] and M.known[f].key == key)) then
        return true
      end
    end
  end
  return false
end

-- Whether args resume a conversation (what --fork-session applies to).
local function resumes(args)
  for _, a in ipairs(args) do
    local f = flag_of(a)
    if f == "--resume" or f == "-r" or f == "--continue" or f == "-c" then
      return true
    end
  end
  return false
end

--- The flags the cli options give: a list of { flag, value|nil, key }
--- pairs, the cli.args last, for a CLI of kind ("terminal" or "chat"). A
--- flag the CLI takes with --print only goes to the chat alone.
---@param cli table the cli group of the configuration
---@param kind "terminal"|"chat"
function M.configured(cli, kind)
  local out = {}
  local function add(flag, value)
    local k = M.known[flag]
    if kind == "terminal" and k.print then
      return
    end
    table.insert(out, { flag = flag, value = value, key = k.key })
  end
  if cli.append_system_prompt then
    add("--append-system-prompt", cli.append_system_prompt)
  end
  if cli.allowed_tools then
    add("--allowedTools", table.concat(cli.allowed_tools, ","))
  end
  if cli.disallowed_tools then
    add("--disallowedTools", table.concat(cli.disallowed_tools, ","))
  end
  if cli.setting_sources then
    add("--setting-sources", table.concat(cli.setting_sources, ","))
  end
  if cli.max_turns then
    add("--max-turns", tostring(cli.max_turns))
  end
  if cli.max_budget_usd then
    add("--max-budget-usd", tostring(cli.max_budget_usd))
  end
  if cli.no_session_persistence then
    add("--no-session-persistence")
  end
  if cli.fork_session then
    add("--fork-session")
  end
  local i, args = 1, cli.args or {}
  while i <= #args do
    local a = args[i]
    local flag = flag_of(a) or a
    local k = M.known[flag] or {}
    local value
    if a == flag and (k.value == "one" or (k.value == "optional" and args[i + 1] and not flag_of(args[i + 1]))) then
      value, i = args[i + 1], i + 1
    end
    if not (kind == "terminal" and k.print) then
      table.insert(out, { flag = a, value = value })
    end
    i = i + 1
  end
  return out
end

--- args with the configured flags added for a CLI of kind, leaving out a
--- flag args or terminal_cmd (cmd_words) name already (theirs wins), and
--- --fork-session unless opts.resuming (or args resume).
---@param cli table the cli group of the configuration
---@param kind "terminal"|"chat"
---@param args string[]
---@param cmd_words string[]
---@param opts? { resuming: boolean }
---@return string[]
function M.args(cli, kind, args, cmd_words, opts)
  local out = vim.list_extend({}, args)
  local resuming = (opts and opts.resuming) or resumes(args) or resumes(cmd_words)
  for _, f in ipairs(M.configured(cli, kind)) do
    local flag = flag_of(f.flag) or f.flag
    if not names({ args, cmd_words }, flag) and (flag ~= "--fork-session" or resuming) then
      table.insert(out, f.flag)
      if f.value then
        table.insert(out, f.value)
      end
    end
  end
  return out
end

--- The flags among args (a configured list) the CLI of version does not
--- take, by the table: { flag, why } each.
---@param entries table M.configured's list
---@param version string
function M.unsupported(entries, version)
  local out = {}
  for _, e in ipairs(entries) do
    local flag = flag_of(e.flag) or e.flag
    local k = M.known[flag]
    if k then
      local first, last = k.takes[1], k.takes[#k.takes]
      if compare(version, first) < 0 then
        table.insert(out, { flag = flag, why = string.format("taken from %s on of the versions checked; this CLI is %s", first, version) })
      elseif compare(version, last) > 0 and last ~= M.newest then
        table.insert(out, { flag = flag, why = string.format("last taken by %s; this CLI is %s", last, version) })
      end
    end
  end
  return out
end

return M
