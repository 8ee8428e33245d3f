-- The winbar of Claude's proposal in the diff view (claude.diff): the
-- accept and reject keys, as many words as the window's width allows.
local M = {}

local function cfg()
  return require("claude.config").get().diff
end

-- A key as the user types it: <leader> spelled out as their leader.
local function shown_key(lhs)
  local leader = vim.g.mapleader or "\\"
  leader = leader == " " and "<Space>" or leader
  return (lhs:gsub("<[Ll]eader>", function()
    return leader
  end))
end

-- The proposal's winbar hints, longest first: the winbar shows the first
-- that fits the window, so at common widths both keys stay in sight.
local function winbar_variants()
  local keys = cfg().keymaps
  local parts = {}
  if cfg().use_default_keymaps and keys.accept then
    table.insert(parts, shown_key(keys.accept) .. " accept")
  end
  if cfg().use_default_keymaps and keys.reject then
    table.insert(parts, shown_key(keys.reject) .. " reject")
  end
  local keyed = table.concat(parts, " · ")
  local full = vim.list_extend(vim.deepcopy(parts), { ":w accept", ":q reject" })
  local variants = {
    { "Claude proposal", table.concat(full, " · ") },
    { "Claude proposal", keyed ~= "" and keyed or ":w accept · :q reject" },
    { "Claude", keyed ~= "" and keyed or ":w accept · :q reject" },
  }
  if #parts > 0 then
    table.insert(variants, { "", table.concat(parts, " ") })
  end
  return variants
end

--- The proposal window's winbar, fitted to its width (claude.diff.winbar).
function M.render()
  local win = vim.g.statusline_winid or vim.api.nvim_get_current_win()
  local width = vim.api.nvim_win_get_width(win)
  local variants = winbar_variants()
  local chosen = variants[#variants]
  for _, v in ipairs(variants) do
    local label = v[1] ~= "" and (" " .. v[1] .. " ") or ""
    if vim.fn.strdisplaywidth(label .. " " .. v[2]) <= width then
      chosen = v
      break
    end
  end
  local label = chosen[1] ~= "" and ("%#DiffAdd# " .. chosen[1] .. " %* ") or ""
  -- "%<" at the end: a window narrower still cuts the hint's tail.
  return label .. chosen[2]:gsub("%%", "%%%%") .. "%<"
end


return M
