-- Bodies of the informational commands (:Claude status, :Claude log).
local M = {}

-- The directory session x (an entry of the host's status) works in: its
-- terminal's, else its bound server's, else (session 1 started without a
-- terminal, following :cd) Neovim's global one. Never the current tab
-- page's: in another tab page that is another session's directory.
local function session_dir(x)
  local record = require("claude.sessions").get(x.session)
  local dir = (record and record.cwd) or (x.cwd ~= "" and x.cwd) or vim.fn.getcwd(-1, -1)
  return vim.fn.fnamemodify(dir, ":~")
end

-- The lines describing one server: where it listens, its lock file, its
-- clients and the proposals waiting for an answer.
local function server_lines(x, name)
  local lines = {
    string.format("claude.nvim: %slistening on 127.0.0.1:%d", name, x.port),
    "lock file: " .. x.lockfile,
  }
  if #x.clients == 0 then
    table.insert(lines, "clients: none connected")
  end
  for _, c in ipairs(x.clients) do
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
  -- The mode this session's CLI runs in: as the plugin started it, or as
  -- its hooks said since a switch inside the CLI (shift+tab).
  local permission = require("claude.terminal").permission(x.session)
  if permission then
    table.insert(lines, "permission mode: " .. require("claude.permission").describe(permission))
  end
  if #x.diffs > 0 then
    table.insert(lines, "under review: " .. table.concat(x.diffs, ", "))
  end
  return lines
end

function M.status()
  local s = require("claude").status()
  -- One server per terminal session, named by the session's number.
  local servers = s.sessions or {}
  local several = #servers > 1 or (#servers == 1 and servers[1].session ~= 1)
  local current = require("claude.terminal").current_id()
  -- The header describes the server of the session the user is in (this
  -- tab page's), the first one when there is none here.
  local shown = s
  for _, x in ipairs(servers) do
    if x.session == current then
      shown = x
    end
  end
  local lines
  if shown.running then
    lines = server_lines(shown, several and string.format("session %d (%s) ", shown.session, session_dir(shown)) or "")
  else
    lines = { "claude.nvim: server stopped (:Claude server start or :Claude open starts it)" }
  end
  if several then
    for _, x in ipairs(servers) do
      table.insert(
        lines,
        string.format(
          "session %d%s: %s, 127.0.0.1:%d, %d client%s%s",
          x.session,
          x.session == current and " (current)" or "",
          session_dir(x),
          x.port,
          #x.clients,
          #x.clients == 1 and "" or "s",
          #x.diffs > 0 and (", under review: " .. table.concat(x.diffs, ", ")) or ""
        )
      )
    end
  end
  vim.list_extend(lines, require("claude.remote").status_lines())
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

--- Completion for :Claude open and :Claude toggle.
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

--- :Claude changes [qf|clear|scope]: the change ledger's list (per turn or at a scope), the quickfix list
--- of unreviewed hunks, or forgetting the workspace's ledger.
function M.changes(arg)
  require("claude.changes").command(arg)
end

return M
