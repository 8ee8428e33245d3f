-- The winbar of Claude's proposal in the diff view (claude.diff): where
-- the per-hunk decisions stand (claude.diff_hunks) and the keys, as many
-- words as the window's width allows.
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

-- Where the hunks stand, long to shortest: "3 hunks: 1 taken back, 1 kept,
-- 1 open", "1 back 1 kept 1 open", "1/3 open"; nil while not known.
local function hunk_status(counts)
  if not counts or counts.total == 0 then
    return nil
  end
  local long = string.format(
    "%d hunk%s: %d taken back, %d kept, %d open",
    counts.total,
    counts.total == 1 and "" or "s",
    counts.taken_back,
    counts.kept,
    counts.open
  )
  return {
    long,
    string.format("%d back %d kept %d open", counts.taken_back, counts.kept, counts.open),
    string.format("%d/%d open", counts.open, counts.total),
  }
end

-- The keys that decide one hunk, as the hint shows them.
local function hunk_keys()
  local keys, parts = cfg().keymaps, {}
  if cfg().use_default_keymaps and keys.take_back then
    table.insert(parts, shown_key(keys.take_back) .. " take back")
  end
  if cfg().use_default_keymaps and keys.keep then
    table.insert(parts, shown_key(keys.keep) .. " keep")
  end
  return table.concat(parts, " · ")
end

-- The proposal's winbar hints, longest first: the winbar shows the first
-- that fits the window, so at common widths both keys stay in sight, and
-- the hunks' state before all but the narrowest.
local function winbar_variants(counts, place)
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
  -- One of several edits of the model's message: "Claude proposal 2 of 3".
  local of = place and string.format(" %d of %d", place[1], place[2]) or ""
  local variants = {
    { "Claude proposal" .. of, table.concat(full, " · ") },
    { "Claude proposal" .. of, keyed ~= "" and keyed or ":w accept · :q reject" },
    { "Claude" .. of, keyed ~= "" and keyed or ":w accept · :q reject" },
  }
  if #parts > 0 then
    table.insert(variants, { vim.trim(of), table.concat(parts, " ") })
  end
  local status = hunk_status(counts)
  if not status then
    return variants
  end
  -- The hunks' state comes after the keys, and goes before any of them:
  -- long, then short, with all the hints; then shorter with fewer; then
  -- the keys alone as before.
  local with = {}
  local function add(v, text)
    table.insert(with, { v[1], v[2] .. " │ " .. text })
  end
  local per_hunk = hunk_keys()
  if per_hunk ~= "" then
    table.insert(with, { variants[1][1], variants[1][2] .. " · " .. per_hunk .. " │ " .. status[1] })
  end
  add(variants[1], status[1])
  add(variants[1], status[2])
  add(variants[2], status[1])
  for i = 2, #variants do
    add(variants[i], status[2])
  end
  for i = 2, #variants do
    add(variants[i], status[3])
  end
  return vim.list_extend(with, vim.list_slice(variants, 2))
end

--- The proposal window's winbar, fitted to its width (claude.diff.winbar).
---@param counts? table claude.diff_hunks.counts: { total, taken_back, kept, open }
---@param place? integer[] { place, of }: the edit's place among its message's
function M.render(counts, place)
  local win = vim.g.statusline_winid or vim.api.nvim_get_current_win()
  local width = vim.api.nvim_win_get_width(win)
  local variants = winbar_variants(counts, place)
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
