-- The chat's MCP servers (:Claude chat mcp): each with its state as the
-- chat's CLI reports it (connected, failed and why, needs sign-in,
-- connecting, disabled); r reconnects the one under the cursor, o turns it
-- off or on (chatctl/mcpstatus.go). "nvim" is the editor's own server.
local M = {}

local panel = require("claude.chat.panel")
local state = require("claude.chat.state")

local function request(dir, name, action)
  require("claude.host").chat_mcp({ dir = dir, name = name or "", action = action or "" })
end

local function act(action)
  return function(p)
    local s = panel.entry(p)
    if not s then
      return
    end
    local a = action
    if a == "toggle" then
      a = s.status == "disabled" and "enable" or "disable"
    end
    request(p.dir, s.name, a)
  end
end

local KEYS = {
  { "panels.reconnect", "reconnect the server under the cursor", act("reconnect") },
  { "panels.toggle", "turn the server under the cursor off or on", act("toggle") },
  panel.refresh_key(request),
}

--- Opens the MCP servers of dir's chat and asks for their state.
---@param dir string|nil
function M.open(dir)
  panel.open_asking("mcp", dir or state.current_dir(), KEYS, "MCP servers of the chat's Claude: asking…", request)
end

-- A server's state in words.
local function status(s)
  if s.status == "connected" then
    return "connected" .. (s.version ~= "" and (" (" .. s.version .. ")") or "")
  elseif s.status == "failed" then
    return "failed" .. (s.error ~= "" and (": " .. s.error) or "") .. " (r retries)"
  elseif s.status == "needs-auth" then
    return "needs sign-in: authenticate it with /mcp in a Claude terminal, then " .. (require("claude.keys").shown("panels.reconnect") or ":Claude chat mcp")
  elseif s.status == "pending" then
    return "connecting…"
  elseif s.status == "disabled" then
    local on = require("claude.keys").shown("panels.toggle")
    return on and ("disabled (" .. on .. " turns it on)") or "disabled"
  end
  return s.status
end

--- The host's "mcp" item fills the list.
function M.show(c, _, it)
  local p = panel.get("mcp", c.dir, KEYS)
  local lines, rows = { "MCP servers of the chat's Claude" .. require("claude.chat.panel").hint({ { "panels.reconnect", "reconnects" }, { "panels.toggle", "turns off or on" }, { "panels.refresh", "refreshes" }, { "panels.help", "keys" } }) }, {}
  if it.summary and it.summary ~= "" then
    table.insert(lines, "Done: " .. it.summary)
  end
  if it.text and it.text ~= "" then
    table.insert(lines, "Error: " .. it.text)
  end
  if #(it.servers or {}) == 0 and (it.text or "") == "" then
    table.insert(lines, "No MCP server.")
  end
  for _, s in ipairs(it.servers or {}) do
    table.insert(lines, string.format("%s: %s  · %s", s.name, status(s), s.scope ~= "" and s.scope or "?"))
    rows[#lines] = s
  end
  panel.set(p, lines, rows)
  panel.show(p, false)
  -- A server still connecting is asked about again while the list is on
  -- screen, for a minute at most: its state is what the list is for.
  local pending = vim.iter(it.servers or {}):any(function(s)
    return s.status == "pending"
  end)
  p.polls = pending and (p.polls or 0) + 1 or 0
  if pending and p.polls <= 60 then
    vim.defer_fn(function()
      if vim.fn.bufwinid(p.buf) ~= -1 then
        request(p.dir)
      end
    end, 1000)
  end
end

return M
