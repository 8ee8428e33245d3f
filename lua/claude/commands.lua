-- Bodies of the informational commands (:ClaudeStatus, :ClaudeLog).
local M = {}

function M.status()
  local s = require("claude").status()
  local lines = {}
  if not s.running then
    table.insert(lines, "claude.nvim: server stopped (:ClaudeStart or :ClaudeOpen starts it)")
  else
    table.insert(lines, string.format("claude.nvim: listening on 127.0.0.1:%d", s.port))
    table.insert(lines, "lock file: " .. s.lockfile)
    if #s.clients == 0 then
      table.insert(lines, "clients: none connected")
    end
    for _, c in ipairs(s.clients) do
      table.insert(
        lines,
        string.format(
          "client: %s %s pid %s since %s%s",
          c.name ~= "" and c.name or "?",
          c.version,
          c.pid ~= 0 and c.pid or "?",
          os.date("%Y-%m-%d %H:%M:%S", c.connected_at), -- local time
          c.ready and "" or " (connecting)"
        )
      )
    end
    local permission = require("claude.terminal").permission()
    if permission then
      table.insert(lines, "permission mode: " .. require("claude.permission").describe(permission))
    end
    if #s.diffs > 0 then
      table.insert(lines, "pending diffs: " .. table.concat(s.diffs, ", "))
    end
  end
  local sessions = s.sessions or {}
  if #sessions > 1 or (#sessions == 1 and sessions[1].session ~= 1) then
    local current = require("claude.terminal").current_id()
    for _, x in ipairs(sessions) do
      table.insert(
        lines,
        string.format(
          "session %d%s: %s, 127.0.0.1:%d, %d client%s%s",
          x.session,
          x.session == current and " (current)" or "",
          vim.fn.fnamemodify(x.cwd ~= "" and x.cwd or vim.fn.getcwd(), ":~"),
          x.port,
          #x.clients,
          #x.clients == 1 and "" or "s",
          #x.diffs > 0 and (", pending diffs: " .. table.concat(x.diffs, ", ")) or ""
        )
      )
    end
  end
  vim.api.nvim_echo({ { table.concat(lines, "\n") } }, true, {})
end

--- Splits a command line into words the way sh does for the simple cases:
--- whitespace separates, '...' and "..." group, backslash escapes.
---@param line string
---@return string[]
function M.split_args(line)
  local words, cur, quote, escaped, started = {}, {}, nil, false, false
  for ch in line:gmatch(".") do
    if escaped then
      table.insert(cur, ch)
      escaped, started = false, true
    elseif ch == "\\" and quote ~= "'" then
      escaped = true
    elseif quote then
      if ch == quote then
        quote = nil
      else
        table.insert(cur, ch)
      end
    elseif ch == "'" or ch == '"' then
      quote, started = ch, true
    elseif ch:match("%s") then
      if started then
        table.insert(words, table.concat(cur))
        cur, started = {}, false
      end
    else
      table.insert(cur, ch)
      started = true
    end
  end
  if started then
    table.insert(words, table.concat(cur))
  end
  return words
end

-- The CLI flags people pass when starting Claude from the editor.
local CLI_FLAGS = {
  "--add-dir",
  "--allowedTools",
  "--continue",
  "--disallowedTools",
  "--model",
  "--permission-mode",
  "--resume",
  "--verbose",
}

--- Completion for :ClaudeOpen and :ClaudeToggle.
---@param lead string
---@return string[]
function M.complete_cli_flags(lead)
  return vim.tbl_filter(function(flag)
    return vim.startswith(flag, lead)
  end, CLI_FLAGS)
end

function M.log()
  local path = require("claude.host").log_file()
  if vim.fn.filereadable(path) ~= 1 then
    require("claude.notify").info("no log yet at " .. path)
    return
  end
  vim.cmd("tabedit " .. vim.fn.fnameescape(path))
  vim.bo.readonly = true
  vim.bo.autoread = true
end

return M
