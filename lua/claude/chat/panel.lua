-- A read-only list beside the chat, one per kind and workspace: the
-- permission rules (chat/rules.lua), the MCP servers (chat/mcp.lua) and the
-- usage (chat/usage.lua). The Go host answers each request with an item of
-- the chat's stream (chatctl), which fills the list; its keys are
-- buffer-local, with g? listing them.
local M = {}

-- By kind, then workspace directory: { buf, dir, rows (line -> entry) }.
local panels = {}

local function valid(buf)
  return buf ~= nil and vim.api.nvim_buf_is_valid(buf)
end

--- The panel of kind for dir, made if needed (not shown).
---@param kind string "rules", "mcp", "usage"
---@param dir string
---@param keys table[] { lhs, description, fn(panel) }
function M.get(kind, dir, keys)
  panels[kind] = panels[kind] or {}
  local p = panels[kind][dir]
  if p and valid(p.buf) then
    return p
  end
  p = { kind = kind, dir = dir, rows = {}, keys = keys }
  panels[kind][dir] = p
  local buf = vim.api.nvim_create_buf(false, true)
  p.buf = buf
  require("claude.buffers").set_buf_name(buf, "claude-" .. kind .. "://" .. dir, buf)
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].modifiable = false
  local help = {}
  local k = require("claude.keys")
  for _, key in ipairs(keys) do
    k.map(buf, key[1], function()
      key[3](p)
    end)
    if k.lhs(key[1]) then
      table.insert(help, k.lhs(key[1]) .. " " .. key[2])
    end
  end
  k.map(buf, "panels.close", "<Cmd>close<CR>")
  k.map(buf, "panels.help", function()
    require("claude.notify").info(table.concat(help, ", ") .. (k.lhs("panels.close") and ", q closes" or ""))
  end)
  return p
end

--- The refresh key of a panel that shows what the chat's CLI answers:
--- request(dir) asks again.
function M.refresh_key(request)
  return {
    "panels.refresh",
    "refresh",
    function(p)
      request(p.dir)
    end,
  }
end

--- Opens dir's panel of kind saying asking (its first line until the
--- answer comes), focused, and asks: request(dir).
function M.open_asking(kind, dir, keys, asking, request)
  local p = M.get(kind, dir, keys)
  M.set(p, { asking })
  M.show(p, true)
  request(dir)
end

--- " (r reconnects, q closes)": the keys of names (claude.keys) that are
--- on, each with what it does, for a panel's first line; "" when none is.
---@param names table[] { { key name, what it does }, ... }
function M.hint(names)
  local parts = {}
  for _, n in ipairs(names) do
    local lhs = require("claude.keys").shown(n[1])
    if lhs then
      table.insert(parts, lhs .. " " .. n[2])
    end
  end
  return #parts > 0 and (" (" .. table.concat(parts, ", ") .. ")") or ""
end

--- The panel of kind for dir if there is one, else nil.
function M.find(kind, dir)
  local p = panels[kind] and panels[kind][dir]
  return p and valid(p.buf) and p or nil
end

--- Shows p in a window below (the one it has, if any), without taking the
--- cursor from the window the user is in unless focus is true.
function M.show(p, focus)
  local win = vim.fn.bufwinid(p.buf)
  if win == -1 then
    local from = vim.api.nvim_get_current_win()
    vim.cmd("botright 12split")
    vim.api.nvim_win_set_buf(0, p.buf)
    vim.wo.wrap, vim.wo.cursorline = false, true
    win = vim.api.nvim_get_current_win()
    if not focus then
      vim.api.nvim_set_current_win(from)
    end
  elseif focus then
    vim.api.nvim_set_current_win(win)
  end
end

--- Replaces p's lines; rows maps line numbers to the entries shown there.
function M.set(p, lines, rows)
  local clean = require("claude.chat.state").clean
  for i, l in ipairs(lines) do
    lines[i] = clean(l)
  end
  vim.bo[p.buf].modifiable = true
  vim.api.nvim_buf_set_lines(p.buf, 0, -1, false, lines)
  vim.bo[p.buf].modifiable = false
  vim.bo[p.buf].modified = false
  p.rows = rows or {}
end

--- The entry on the cursor's line of p, or nil.
function M.entry(p)
  if vim.api.nvim_get_current_buf() ~= p.buf then
    return nil
  end
  return p.rows[vim.api.nvim_win_get_cursor(0)[1]]
end

return M
