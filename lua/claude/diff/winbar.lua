-- The winbar of Claude's proposal in the diff view (claude.diff): where
-- the per-hunk decisions stand (claude.diff.hunks) and the keys, as many
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

-- Where the hunks stand, in words, long then short: "3 hunks: 1 taken
-- back, 2 open" (no state counted 0), "1 hunk open" while none is decided;
-- then only what is left to decide: "2 hunks open", "all decided". nil
-- while not known.
local function hunk_status(counts)
  if not counts or counts.total == 0 then
    return nil
  end
  local function hunks(n)
    return string.format("%d hunk%s", n, n == 1 and "" or "s")
  end
  local short = counts.open == 0 and "all decided" or hunks(counts.open) .. " open"
  if counts.open == counts.total then
    return { short, short }
  end
  local parts = {}
  for _, s in ipairs({ { counts.taken_back, "taken back" }, { counts.kept, "kept" }, { counts.open, "open" } }) do
    if s[1] > 0 then
      table.insert(parts, s[1] .. " " .. s[2])
    end
  end
  return { hunks(counts.total) .. ": " .. table.concat(parts, ", "), short }
end

-- The keys that decide one hunk, as the hint shows them.
local function hunk_keys()
  local keys, parts = cfg().keymaps, {}
  if cfg().use_default_keymaps and keys.take_back then
    table.insert(parts, shown_key(keys.take_back) .. " take back")
  end
  if cfg().use_default_keymaps and keys.take_back_why then
    table.insert(parts, shown_key(keys.take_back_why) .. " why")
  end
  if cfg().use_default_keymaps and keys.keep then
    table.insert(parts, shown_key(keys.keep) .. " keep")
  end
  return table.concat(parts, " · ")
end

-- The proposal's winbar hints, longest first: the winbar shows the first
-- that fits the window. Narrower, the hunks' state goes first (long, short,
-- none), then the words shrink, but the keys stay, :w and :q too: at half
-- an 80-column screen " Claude  \aa, :w accept · \ad, :q reject" fits.
local function winbar_variants(counts, place)
  local keys = cfg().keymaps
  local use = cfg().use_default_keymaps
  local accept = use and keys.accept and shown_key(keys.accept)
  local reject = use and keys.reject and shown_key(keys.reject)
  local parts = {}
  if accept then
    table.insert(parts, accept .. " accept")
  end
  if reject then
    table.insert(parts, reject .. " reject")
  end
  local keyed = #parts > 0 and table.concat(parts, " ") or ":w accept :q reject"
  local full = table.concat(vim.list_extend(vim.deepcopy(parts), { ":w accept", ":q reject" }), " · ")
  -- Both ways to answer, each once: "\aa, :w accept · \ad, :q reject".
  local compact = (accept and accept .. ", " or "") .. ":w accept · " .. (reject and reject .. ", " or "") .. ":q reject"
  -- One of several edits of the model's message: "Claude proposal 2 of 3".
  local of = place and string.format(" %d of %d", place[1], place[2]) or ""
  local label = "Claude proposal" .. of
  local variants = {}
  local status = hunk_status(counts)
  if status then
    local per_hunk = hunk_keys()
    if per_hunk ~= "" then
      table.insert(variants, { label, full .. " · " .. per_hunk .. " │ " .. status[1] })
    end
    table.insert(variants, { label, full .. " │ " .. status[1] })
    table.insert(variants, { label, full .. " │ " .. status[2] })
  end
  vim.list_extend(variants, {
    { label, full },
    { label, compact },
    { "Claude" .. of, compact },
    { vim.trim(of), compact },
    -- Narrower still (a third of the screen beside Claude's terminal): the
    -- keys alone, as short as they go.
    { vim.trim(of), keyed },
  })
  return variants
end

--- The proposal window's winbar, fitted to its width (claude.diff.winbar).
---@param counts? table claude.diff.hunks.counts: { total, taken_back, kept, open }
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
