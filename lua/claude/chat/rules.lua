-- The chat's permission rules (:Claude chat rules): the rules the chat's CLI
-- holds now (from settings files, the session's "always" answers, the
-- command line), each with its source and the CLI's plain-language
-- reading. d removes one kept in a settings file (the Go host takes it out
-- of the file and waits until the CLI has dropped it: chatctl/rules.go);
-- the others say where they come from.
local M = {}

local panel = require("claude.chat.panel")
local state = require("claude.chat.state")

-- Where a rule lives, in words.
local SOURCES = {
  userSettings = "your user settings",
  projectSettings = "the project's .claude/settings.json",
  localSettings = "the project's .claude/settings.local.json",
  flagSettings = "the --settings flag",
  policySettings = "managed settings",
  cliArg = "the command line",
  command = "a slash command",
  session = "this session only",
}

local function request(dir, remove)
  local args = state.start_args(dir)
  if not args then
    return
  end
  local a = { dir = dir, env = args.env, source = "", behavior = "", rule = "" }
  if remove then
    a.source, a.behavior, a.rule = remove.source, remove.behavior, remove.rule
  end
  require("claude.host").chat_rules(a)
end

local function remove(p)
  local r = panel.entry(p)
  if not r then
    return
  end
  if r.editability ~= "persistent" then
    local where = SOURCES[r.source] or r.source
    local hint = r.source == "session" and "; it ends with the chat's CLI (:Claude chat end)" or "; change it there"
    require("claude.notify").info(string.format("%s comes from %s, not from a settings file claude.nvim changes%s", r.rule, where, hint))
    return
  end
  vim.ui.select({ "Remove it", "Keep it" }, {
    prompt = string.format("Remove the %s rule %s from %s?", r.behavior, r.rule, r.file ~= "" and r.file or r.source),
    format_item = tostring,
  }, function(choice)
    if choice == "Remove it" then
      vim.schedule(function()
        request(p.dir, r)
      end)
    end
  end)
end

local KEYS = {
  { "panels.remove_rule", "remove the rule under the cursor from its settings file", remove },
  panel.refresh_key(request),
}

--- Opens the rules of dir's chat (its CLI must run) and asks for them.
---@param dir string|nil
function M.open(dir)
  panel.open_asking("rules", dir or state.current_dir(), KEYS, "Permission rules of the chat's Claude: asking…", request)
end

-- The line for one rule.
local function line(r)
  local reading = r.reading ~= "" and ("  " .. r.reading) or ""
  local off = r.not_in_effect and "  (not in effect: managed settings allow only theirs)" or ""
  return string.format("%-5s %s%s  · %s%s", r.behavior, r.rule, reading, SOURCES[r.source] or r.source, off)
end

--- The host's "rules" item (chatctl/rules.go) fills the list.
function M.show(c, _, it)
  local p = panel.get("rules", c.dir, KEYS)
  local lines, rows = {}, {}
  table.insert(lines, "Permission rules of the chat's Claude" .. require("claude.chat.panel").hint({ { "panels.remove_rule", "removes one" }, { "panels.refresh", "refreshes" }, { "panels.help", "keys" } }))
  if it.summary and it.summary ~= "" then
    table.insert(lines, "Done: " .. it.summary)
  end
  if it.text and it.text ~= "" then
    table.insert(lines, "Error: " .. it.text)
  end
  if #(it.rules or {}) == 0 and (it.text or "") == "" then
    table.insert(lines, "No rules: Claude asks before each tool your mode does not allow.")
  end
  for _, r in ipairs(it.rules or {}) do
    table.insert(lines, line(r))
    rows[#lines] = r
  end
  for _, d in ipairs(it.files or {}) do
    table.insert(lines, "folder " .. d)
  end
  for _, e in ipairs(it.errors or {}) do
    table.insert(lines, "skipped " .. e)
  end
  panel.set(p, lines, rows)
  panel.show(p, false)
end

return M
