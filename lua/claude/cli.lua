-- The Claude CLI as we start it: the program terminal_cmd names, its
-- arguments and the environment that makes it connect to our server. The
-- terminal sessions and the chat start it the same way.
local M = {}

local LOOPBACK = { "127.0.0.1", "localhost", "::1" }

-- Appends the loopback names to a NO_PROXY-style list, so a user's
-- http_proxy never captures the CLI's connection to us.
local function with_loopback(list)
  local have, out = {}, {}
  for item in (list or ""):gmatch("[^,%s]+") do
    if not have[item] then
      have[item] = true
      table.insert(out, item)
    end
  end
  for _, host in ipairs(LOOPBACK) do
    if not have[host] then
      table.insert(out, host)
    end
  end
  return table.concat(out, ",")
end

--- The environment the CLI is started with, connecting to the server on
--- port (0: none).
---@param port integer
function M.env(port)
  local env = {
    CLAUDE_CODE_SSE_PORT = tostring(port),
    ENABLE_IDE_INTEGRATION = "true",
    FORCE_CODE_TERMINAL = "true",
    NO_PROXY = with_loopback(vim.env.NO_PROXY),
    no_proxy = with_loopback(vim.env.no_proxy),
  }
  for k, v in pairs(require("claude.config").get().env) do
    env[k] = tostring(v)
  end
  return env
end

-- The variable that tells a CLI's hooks which session they are from
-- (hooks.OriginEnv in Go).
M.HOOK_ORIGIN_ENV = "CLAUDE_NVIM_HOOK_ORIGIN"

--- args with the --settings file that sends the CLI's hook events to the
--- Go host (its session's state, the changes it makes), when the host gave
--- one (ClaudeHostStart's hook_settings). A user's own --settings wins:
--- the CLI reads one such flag, and theirs is what they asked for.
---@param args string[]
---@param info table ClaudeHostStart's answer
function M.with_hooks(args, info)
  if not info.hook_settings or info.hook_settings == "" then
    return args
  end
  local cmd = require("claude.config").get().terminal_cmd
  local mine = type(cmd) == "table" and table.concat(cmd, " ") or cmd
  for _, a in ipairs(args) do
    mine = mine .. " " .. a
  end
  if mine:find("%-%-settings") then
    return args
  end
  return vim.list_extend(vim.list_extend({}, args), { "--settings", info.hook_settings })
end

--- terminal_cmd's words: its list, or its string split on blanks (what the
--- flags it names are told from).
function M.words()
  local cmd = require("claude.config").get().terminal_cmd
  return type(cmd) == "table" and cmd or vim.split(vim.trim(cmd), "%s+")
end

--- args with the flags of setup()'s cli options added for a CLI of kind
--- (flags.lua): those terminal_cmd or args name already are left out.
---@param args string[]
---@param kind "terminal"|"chat"
---@param opts? { resuming: boolean }
function M.with_flags(args, kind, opts)
  local words = kind == "terminal" and M.words() or {}
  -- The model picked with :Claude model first, so that it wins over a
  -- --model in cli.args, in the terminal as in the chat.
  args = require("claude.model").args(args)
  return require("claude.flags").args(require("claude.config").get().cli, kind, args, words, opts)
end

--- args with what gives the terminal's CLI the language-server tools, when
--- the host gave it (ClaudeHostStart's mcp_config and mcp_allowed): one more
--- --mcp-config, beside any the user passes (the CLI loads every one), and
--- --allowedTools for them (they read, or propose for review).
---@param args string[]
---@param info table ClaudeHostStart's answer
function M.with_tools(args, info)
  if not info.mcp_config or info.mcp_config == "" or not require("claude.config").get().tools.lsp then
    return args
  end
  local out = vim.list_extend({}, args)
  table.insert(out, "--mcp-config=" .. info.mcp_config)
  if info.mcp_allowed and info.mcp_allowed ~= "" then
    table.insert(out, info.mcp_allowed)
  end
  return out
end

--- terminal_cmd with args (and the picked model) added: a list, or a
--- shell command line when terminal_cmd is a string.
---@param args string[]|nil
function M.command(args)
  local cmd = require("claude.config").get().terminal_cmd
  args = require("claude.model").args(args or {})
  if type(cmd) == "table" then
    return vim.list_extend(vim.deepcopy(cmd), args)
  end
  -- A string is a shell command line ("npx claude", "claude --model x").
  local parts = { cmd }
  for _, a in ipairs(args) do
    table.insert(parts, vim.fn.shellescape(a))
  end
  return table.concat(parts, " ")
end

--- The program terminal_cmd runs, where that can be told without a shell:
--- a list's first item, or a string's first word unless it is shell syntax
--- (an assignment, a quote, a substitution).
function M.program()
  local cmd = require("claude.config").get().terminal_cmd
  local first = type(cmd) == "table" and cmd[1] or cmd:match("^%s*(%S+)")
  if not first or first:find("[=$`'\"();|&<>\\]") then
    return nil
  end
  return first
end

--- Reports a terminal_cmd whose program is not on PATH (the same message
--- for :Claude open and :ClaudeChat); returns whether it can run.
function M.check_program()
  local prog = M.program()
  if prog and vim.fn.executable(prog) ~= 1 then
    require("claude.notify").notify(
      string.format(
        "claude.nvim: %s is not an executable on PATH. Install the Claude Code CLI (npm install -g @anthropic-ai/claude-code) or point terminal_cmd in setup() at it.",
        prog
      ),
      vim.log.levels.ERROR
    )
    return false
  end
  return true
end

return M
