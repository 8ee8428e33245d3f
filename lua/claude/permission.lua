-- The permission mode claude.nvim starts Claude in (terminal and chat),
-- and whether its edits then reach the review in Neovim.
--
-- The CLI asks before an edit (and so calls openDiff, the review) only in
-- "default" mode. Since 2.1.332 its own default is "auto", which writes
-- edits without asking: a user of a review plugin who never chose that
-- would silently lose the review. So with permission_mode = nil we start
-- the CLI with `--permission-mode default`, unless the user's own Claude
-- settings name a defaultMode: that is a choice they made, and we keep it.
local M = {}

-- The modes of `--permission-mode` the option takes (config.lua, which
-- checks the option on the floor below, keeps the list).
M.modes = require("claude.config").permission_modes

-- What each mode means for the review, for :checkhealth and messages.
M.meaning = {
  default = "Claude asks before each edit: the diff opens in Neovim for review",
  acceptEdits = "edits are written without asking: no review in Neovim",
  plan = "Claude plans and is told not to edit; an edit it makes anyway is asked about, with the review",
  auto = "Claude decides which edits need asking: most are written without review",
  dontAsk = "edits not allowed by your permission rules are refused without asking: no review",
  bypassPermissions = "every edit and command runs without asking: no review",
}

-- Modes in which an edit is written (or refused) without the diff review.
local NO_REVIEW = { acceptEdits = true, auto = true, dontAsk = true, bypassPermissions = true }

--- The name the CLI takes for mode ("manual" → "default").
---@param mode string
---@return string
function M.cli_name(mode)
  return mode == "manual" and "default" or mode
end

--- Whether edits in mode skip the review.
---@param mode string|nil
---@return boolean
function M.bypasses_review(mode)
  return mode ~= nil and NO_REVIEW[M.cli_name(mode)] == true
end

local function read_json(path)
  local ok, lines = pcall(vim.fn.readfile, path)
  if not ok or #lines == 0 then
    return nil
  end
  local decoded_ok, value = pcall(vim.json.decode, table.concat(lines, "\n"))
  if decoded_ok and type(value) == "table" then
    return value
  end
  return nil
end

-- Claude's configuration directory as the CLI will see it: the env option
-- wins over Neovim's environment, as it does for the CLI's.
local function config_dir()
  local dir = require("claude.config").get().env.CLAUDE_CONFIG_DIR or vim.env.CLAUDE_CONFIG_DIR
  if dir and dir ~= "" then
    return dir
  end
  return (vim.uv.os_homedir() or vim.env.HOME or "~") .. "/.claude"
end

--- The Claude settings files that apply to a CLI started in cwd, in the
--- CLI's order of precedence (the first one that names a setting wins).
---@param cwd string
---@return string[]
function M.settings_files(cwd)
  return {
    "/etc/claude-code/managed-settings.json",
    "/Library/Application Support/ClaudeCode/managed-settings.json",
    cwd .. "/.claude/settings.local.json",
    cwd .. "/.claude/settings.json",
    config_dir() .. "/settings.json",
  }
end

--- The defaultMode the user's Claude settings name for cwd, and the file
--- that names it; nil when none does.
---@param cwd string
---@return string|nil mode
---@return string|nil file
function M.from_settings(cwd)
  for _, file in ipairs(M.settings_files(cwd)) do
    local s = read_json(file)
    local mode = s and type(s.permissions) == "table" and s.permissions.defaultMode
    if type(mode) == "string" and mode ~= "" then
      return mode, file
    end
  end
  return nil
end

--- Allow rules in the user's Claude settings that let edits through
--- without asking ("Edit", "Write(src/**)", …), with their files.
---@param cwd string
---@return string[]
function M.edit_allow_rules(cwd)
  local out = {}
  for _, file in ipairs(M.settings_files(cwd)) do
    local s = read_json(file)
    local allow = s and type(s.permissions) == "table" and s.permissions.allow
    if type(allow) == "table" then
      for _, rule in ipairs(allow) do
        if type(rule) == "string" and (rule:match("^Edit") or rule:match("^Write") or rule:match("^MultiEdit")) then
          table.insert(out, string.format("%s (%s)", rule, file))
        end
      end
    end
  end
  return out
end

-- The flags by which args already choose a mode.
local function names_mode(args)
  for _, a in ipairs(args) do
    if a == "--permission-mode" or vim.startswith(a, "--permission-mode=") or a == "--dangerously-skip-permissions" then
      return true
    end
  end
  return false
end

--- The mode a CLI started in cwd with args runs in, and why:
--- { mode = "default"|…|nil, flag = whether we add --permission-mode,
---   source = a phrase for messages, cli_default = the CLI's own default
---   applies }. mode is nil when only the CLI knows (args or terminal_cmd
---   choose it, or permission_mode = false and no settings do).
---@param args string[]
---@param cwd string
---@return {mode: string|nil, flag: boolean, source: string, cli_default: boolean|nil}
function M.resolve(args, cwd)
  local cfg = require("claude.config").get()
  local cmd = cfg.terminal_cmd
  local cmd_words = type(cmd) == "table" and cmd or vim.split(cmd, "%s+")
  if names_mode(args) or names_mode(cmd_words) then
    return { mode = nil, flag = false, source = "the CLI's arguments" }
  end
  if cfg.permission_mode then
    return { mode = M.cli_name(cfg.permission_mode), flag = true, source = "permission_mode" }
  end
  local mode, file = M.from_settings(cwd)
  if mode then
    return { mode = mode, flag = false, source = "defaultMode in " .. file }
  end
  if cfg.permission_mode == false then
    -- For a terminal_cmd that takes no such flag: the CLI decides alone.
    return { mode = nil, flag = false, cli_default = true, source = "the CLI's own default (permission_mode = false)" }
  end
  return { mode = "default", flag = true, source = "claude.nvim's default (review before write)" }
end

--- args with `--permission-mode` added where resolve says so, and the
--- resolution.
---@param args string[]
---@param cwd string
---@return string[]
---@return {mode: string|nil, flag: boolean, source: string}
function M.args(args, cwd)
  local r = M.resolve(args, cwd)
  if not r.flag then
    return args, r
  end
  return vim.list_extend(vim.list_extend({}, args), { "--permission-mode", r.mode }), r
end

--- The mode a terminal's CLI runs in now: as it started (started, what
--- M.args resolved) until its hooks tell of another (live: the
--- permission_mode its last hook event carried, after a switch made in the
--- CLI with shift+tab), then that one, with started kept for messages.
---@param started {mode: string|nil, source: string}|nil
---@param live string|nil
---@return {mode: string|nil, source: string, started: string|nil, switched: boolean|nil}|nil
function M.now(started, live)
  if not live or live == "" or (started and started.mode == live) then
    return started
  end
  return { mode = live, source = "a switch in Claude", started = started and started.mode, switched = true }
end

--- One line for :Claude status and messages: "auto (from permission_mode):
--- …meaning", "auto (switched in Claude with shift+tab; started in
--- default): …meaning".
---@param r {mode: string|nil, source: string, started: string|nil, switched: boolean|nil}
---@return string
function M.describe(r)
  if not r.mode then
    return "chosen by " .. r.source
  end
  local meaning = M.meaning[r.mode] or "a mode claude.nvim does not know"
  if r.switched then
    local started = r.started and ("; started in " .. r.started) or ""
    return string.format("%s (switched in Claude with shift+tab%s): %s", r.mode, started, meaning)
  end
  return string.format("%s (from %s): %s", r.mode, r.source, meaning)
end

--- Says it once, when a terminal's CLI went (shift+tab) from a mode whose
--- edits reach the review (or an unknown one) into one whose edits do
--- not: the switch fires no hook, so this comes with the next event that
--- carries the mode (a prompt), before any edit of that turn. who names
--- the session ("Claude", "Claude (wt)").
---@param who string
---@param from string|nil the mode before (nil: unknown)
---@param to string
function M.note_switch(who, from, to)
  if from == to or not M.bypasses_review(to) or M.bypasses_review(from) then
    return
  end
  require("claude.notify").warn(
    string.format(
      "%s %s %s mode: %s. Edits are no longer reviewed in Neovim before they are written; :Claude changes still records each one, to review or revert afterwards (shift+tab in Claude switches back).",
      who,
      from and "switched to" or "runs in",
      to,
      M.meaning[to]
    )
  )
end

-- Whether the user was told this Neovim that edits skip the review.
local warned = {}

--- Tells the user, once per mode and Neovim, that the CLI they start will
--- write edits without the review, and how to change that.
---@param r {mode: string|nil, source: string}
function M.warn_no_review(r)
  if not M.bypasses_review(r.mode) or warned[r.mode] then
    return
  end
  warned[r.mode] = true
  require("claude.notify").warn(
    string.format(
      "Claude runs in %s mode (from %s): %s. For a review in Neovim before each edit: setup({ permission_mode = \"default\" }), or shift+tab in Claude.",
      r.mode,
      r.source,
      M.meaning[r.mode]
    )
  )
end

return M
