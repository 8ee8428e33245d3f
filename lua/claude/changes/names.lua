-- How the ledger's file names show in lists and messages. A name is the
-- workspace's bytes: it may hold a newline (a buffer line cannot), a
-- control character, a byte that is not UTF-8. Such a name shows in double
-- quotes with Go's escapes (\n, \t, \", \\, \xff, \u2028), as the host's
-- messages quote names; a plain name shows as it is. Only the view escapes:
-- every file operation uses the real bytes.
local M = {}

local SHORT = { [7] = "\\a", [8] = "\\b", [9] = "\\t", [10] = "\\n", [11] = "\\v", [12] = "\\f", [13] = "\\r", [34] = '\\"', [92] = "\\\\" }

-- The length of the valid UTF-8 sequence at byte i of s (1 for ASCII), or
-- nil when the bytes there are no such sequence (overlong forms and
-- surrogates included).
local function sequence(s, i)
  local c = s:byte(i)
  if c < 0x80 then
    return 1
  end
  local n
  if c >= 0xC2 and c <= 0xDF then
    n = 2
  elseif c >= 0xE0 and c <= 0xEF then
    n = 3
  elseif c >= 0xF0 and c <= 0xF4 then
    n = 4
  else
    return nil
  end
  for k = i + 1, i + n - 1 do
    local b = s:byte(k)
    if not b or b < 0x80 or b > 0xBF then
      return nil
    end
  end
  local b2 = s:byte(i + 1)
  if (c == 0xE0 and b2 < 0xA0) or (c == 0xED and b2 > 0x9F) or (c == 0xF0 and b2 < 0x90) or (c == 0xF4 and b2 > 0x8F) then
    return nil
  end
  return n
end

-- The escape of one character (its bytes s:sub(i, i + n - 1)), or nil
-- when it shows as it is: C0 and C1 controls, DEL and the Unicode line
-- and paragraph separators would break or hide a line.
local function escape(s, i, n)
  local c = s:byte(i)
  if n == 1 then
    if SHORT[c] then
      return SHORT[c]
    end
    if c < 0x20 or c == 0x7F then
      return string.format("\\x%02x", c)
    end
    return nil
  end
  if n == 2 and c == 0xC2 and s:byte(i + 1) <= 0x9F then
    return string.format("\\u%04x", s:byte(i + 1))
  end
  if n == 3 and c == 0xE2 and s:byte(i + 1) == 0x80 and (s:byte(i + 2) == 0xA8 or s:byte(i + 2) == 0xA9) then
    return string.format("\\u%04x", 0x2000 + s:byte(i + 2) - 0x80)
  end
  return nil
end

--- name as a list or a message shows it: as it is when it is plain text,
--- else quoted with its odd bytes escaped.
---@param name string
---@return string
function M.show(name)
  local out, odd, i = {}, false, 1
  while i <= #name do
    local n = sequence(name, i)
    local e
    if n then
      e = escape(name, i, n)
    else
      n, e = 1, string.format("\\x%02x", name:byte(i))
    end
    odd = odd or e ~= nil
    table.insert(out, e or name:sub(i, i + n - 1))
    i = i + n
  end
  return odd and ('"' .. table.concat(out) .. '"') or name
end

return M
