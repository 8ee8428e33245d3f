-- Per-hunk decisions in Claude's proposal (claude.diff, issue 24): the
-- user takes a hunk back (the proposal gets the file's text there) or
-- keeps it (Claude's text), hunk by hunk, then accepts the rest with the
-- accept key. What Claude gets is the proposal as left, as for any edit.
--
-- A hunk is one change of Claude's as the view opened: a range of lines
-- in the file's buffer and the range that replaces it in the proposal,
-- each held by an extmark so the user's own edits elsewhere move it along.
-- We compute the hunks ourselves (vim.diff) rather than asking Neovim's
-- diff: its hunks merge and split as the user edits, and a decision must
-- stay with the change it was made for.
local M = {}

local ns = vim.api.nvim_create_namespace("claude_diff_hunks")

--- The options of vim.diff that make its hunks those Neovim's diff mode
--- shows with the user's 'diffopt' (so ]c stops where our hunks start).
--- Not linematch: it made vim.diff ten times slower (5 MiB, 1,500 hunks:
--- 2.3 s against 0.2 s) and only splits a hunk into the blocks Neovim
--- shows; our hunk is then the whole run of changed lines.
function M.diff_opts()
  local opts = { result_type = "indices" }
  for item in vim.gsplit(vim.o.diffopt, ",", { plain = true }) do
    local algorithm = item:match("^algorithm:(%a+)$")
    if algorithm then
      opts.algorithm = algorithm
    elseif item == "indent-heuristic" then
      opts.indent_heuristic = true
    end
  end
  return opts
end

-- The rows (0-based, end exclusive) a side of a vim.diff hunk covers: a
-- side with no lines is the gap after line `start`.
local function rows(start, count)
  local first = count == 0 and start or start - 1
  return first, first + count
end

-- Marks a range [first, last) of rows in buf. An empty range (lines Claude
-- deleted, or added) grows with what is typed into it; a range of lines
-- does not take in lines typed just above or below it.
local function mark(buf, first, last, id)
  local empty = first == last
  return vim.api.nvim_buf_set_extmark(buf, ns, first, 0, {
    id = id,
    end_row = last,
    end_col = 0,
    right_gravity = not empty,
    end_right_gravity = empty,
  })
end

-- Where mark id is in buf now: first, last rows (last exclusive), or nil.
local function range(buf, id)
  local m = vim.api.nvim_buf_get_extmark_by_id(buf, ns, id, { details = true })
  if not m[1] then
    return nil
  end
  local first, last = m[1], m[3].end_row or m[1]
  if (m[3].end_col or 0) > 0 then
    last = last + 1 -- a line the user joined onto the range's end
  end
  -- Vim's `do` replaces a hunk's lines in one splice, which moves the
  -- start (right gravity) past the new lines: the mark is then inverted,
  -- around exactly those lines.
  return math.min(first, last), math.max(first, last)
end

-- The proposal's lines of hunk h equal the file's there.
local function same_as_file(view, h)
  local pf, pl = range(view.prop_buf, h.prop)
  local of, ol = range(view.orig_buf, h.orig)
  if not (pf and of) or pl - pf ~= ol - of then
    return false
  end
  local prop = vim.api.nvim_buf_get_lines(view.prop_buf, pf, pl, false)
  return vim.deep_equal(prop, vim.api.nvim_buf_get_lines(view.orig_buf, of, ol, false))
end

-- After the user changed the proposal between rows lo and hi (`do`, `u`,
-- typing): a hunk that now has the file's text counts as taken back, one
-- taken back that no longer has it (undone) as open again.
local function recheck(view, lo, hi)
  local changed = false
  for _, h in ipairs(view.hunks_state or {}) do
    local first, last = range(view.prop_buf, h.prop)
    if first and first <= hi + 1 and last >= lo - 1 then
      local same = same_as_file(view, h)
      local state = same and "taken_back" or (h.state == "taken_back" and "open" or h.state)
      changed = changed or state ~= h.state
      h.state = state
    end
  end
  if changed then
    vim.cmd.redrawstatus({ bang = true }) -- the winbar's counts
  end
end

-- Watches the proposal's changes (once per view) for recheck: the rows
-- changed are gathered until the main loop is free, then checked once.
local function watch(view)
  if view.hunks_watched then
    return
  end
  view.hunks_watched = true
  local lo, hi
  vim.api.nvim_buf_attach(view.prop_buf, false, {
    on_lines = function(_, _, _, first, _, last_new)
      if not view.hunks_state then
        view.hunks_watched = false
        return true -- detach: the view is gone
      end
      local pending = lo ~= nil
      lo, hi = math.min(lo or first, first), math.max(hi or last_new, last_new)
      if not pending then
        vim.schedule(function()
          local from, to = lo, hi
          lo, hi = nil, nil
          if view.hunks_state and vim.api.nvim_buf_is_valid(view.prop_buf) then
            recheck(view, from, to)
          end
        end)
      end
    end,
  })
end

--- Starts tracking view's hunks: hunks are vim.diff indices of the file's
--- buffer (orig_buf) against the proposal (prop_buf) as shown now. Cheap
--- enough for the large path's 1,500 hunks: two extmarks each.
---@param view table claude.diff's view
---@param hunks integer[][] { old_start, old_count, new_start, new_count }
function M.track(view, hunks)
  M.forget(view)
  local list = {}
  for i, h in ipairs(hunks) do
    local of, ol = rows(h[1], h[2])
    local pf, pl = rows(h[3], h[4])
    list[i] = {
      state = "open",
      orig = mark(view.orig_buf, of, ol),
      prop = mark(view.prop_buf, pf, pl),
      new_start = h[3], -- Claude's lines, for keep after a take back
      new_count = h[4],
    }
  end
  view.hunks_state = list
  watch(view)
end

--- Tracks the hunks of view's two buffers as they are (the small path,
--- and :e! bringing Claude's text back).
function M.track_buffers(view)
  local function text(buf)
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    return #lines > 0 and table.concat(lines, "\n") .. "\n" or ""
  end
  local ok, hunks = pcall(vim.diff, text(view.orig_buf), text(view.prop_buf), M.diff_opts())
  M.track(view, ok and hunks or {})
end

--- Removes view's marks (from the user's file buffer too: only this
--- view's, as another view of the same file may have its own there).
function M.forget(view)
  if view.prop_buf and vim.api.nvim_buf_is_valid(view.prop_buf) then
    vim.api.nvim_buf_clear_namespace(view.prop_buf, ns, 0, -1)
  end
  if view.orig_buf and vim.api.nvim_buf_is_valid(view.orig_buf) then
    for _, h in ipairs(view.hunks_state or {}) do
      vim.api.nvim_buf_del_extmark(view.orig_buf, ns, h.orig)
    end
  end
  view.hunks_state = nil
end

--- How many of view's hunks are in each state: { total, taken_back, kept,
--- open }, or nil while they are not known (a large diff opening).
function M.counts(view)
  local list = view.hunks_state
  if not list then
    return nil
  end
  local c = { total = #list, taken_back = 0, kept = 0, open = 0 }
  for _, h in ipairs(list) do
    c[h.state] = c[h.state] + 1
  end
  return c
end

-- The side of view win shows: "prop" or "orig", with its buffer.
local function side_of(view, win)
  if win == view.orig_win or vim.api.nvim_win_get_buf(win) == view.orig_buf then
    return "orig", view.orig_buf
  end
  return "prop", view.prop_buf
end

-- The hunk at row (0-based) of side's buffer: one whose lines hold it, or
-- else an empty one right at it (Neovim shows those as filler lines just
-- above the row, or below the last line).
local function hunk_at(view, side, buf, row)
  local near
  local last_row = vim.api.nvim_buf_line_count(buf) - 1
  for i, h in ipairs(view.hunks_state) do
    local first, last = range(buf, h[side])
    if first then
      if first <= row and row < last then
        return i
      end
      if first == last and (first == row or (first > last_row and row == last_row)) then
        near = near or i
      end
    end
  end
  return near
end

-- Replaces the proposal's lines of hunk h with lines, and marks them again
-- (a replaced range collapses its extmark).
local function set_hunk_text(view, h, lines)
  local first, last = range(view.prop_buf, h.prop)
  vim.api.nvim_buf_set_lines(view.prop_buf, first, last, false, lines)
  mark(view.prop_buf, first, first + #lines, h.prop)
end

-- Moves win's cursor to the next hunk still open after hunk i (wrapping
-- round); false when none is open.
local function next_open(view, win, side, buf, i)
  local list = view.hunks_state
  for step = 1, #list do
    local h = list[(i - 1 + step) % #list + 1]
    if h.state == "open" then
      local first = range(buf, h[side])
      if first then
        local line = math.max(1, math.min(first + 1, vim.api.nvim_buf_line_count(buf)))
        vim.api.nvim_win_set_cursor(win, { line, 0 })
        return true
      end
    end
  end
  return false
end

--- Decides the hunk under win's cursor: "take_back" puts the file's text
--- there in the proposal, "keep" Claude's (the user's edits to an open hunk
--- stay). The cursor moves on to the next open hunk. Returns nil or the
--- reason nothing was done.
---@param view table claude.diff's view
---@param win integer a window of the view
---@param action "take_back"|"keep"
---@return string|nil, table|nil the hunk decided
local function decide_at(view, win, action)
  if not view.hunks_state then
    return "the proposal's hunks are still being worked out; try again in a moment"
  end
  if #view.hunks_state == 0 then
    return "the proposal changes nothing: no hunk to decide"
  end
  local side, buf = side_of(view, win)
  local row = vim.api.nvim_win_get_cursor(win)[1] - 1
  local i = hunk_at(view, side, buf, row)
  if not i then
    return "no hunk of Claude's under the cursor (]c goes to the next change)"
  end
  local h = view.hunks_state[i]
  if action == "take_back" and h.state ~= "taken_back" then
    local first, last = range(view.orig_buf, h.orig)
    if not first then
      return "the file's lines of this hunk are gone (was the file reloaded?): take it back by hand with `do`"
    end
    set_hunk_text(view, h, vim.api.nvim_buf_get_lines(view.orig_buf, first, last, false))
  elseif action == "keep" and h.state == "taken_back" then
    local first = h.new_count == 0 and h.new_start or h.new_start - 1
    set_hunk_text(view, h, vim.list_slice(view.spec.lines, first + 1, first + h.new_count))
  end
  h.state = action == "keep" and "kept" or "taken_back"
  next_open(view, win, side, buf, i)
  return nil, h
end

--- Takes back or keeps the hunk under the cursor: in the view's window
--- the user is in, else (a command run elsewhere) in the proposal's.
--- "take_back_why" takes it back and asks why (reason, when given, is the
--- answer): the reason goes to Claude with the edit's result (M.reasons).
---@param view table claude.diff's view
---@param action "take_back"|"take_back_why"|"keep"
---@param reason? string
function M.decide(view, action, reason)
  local win = vim.api.nvim_get_current_win()
  if win ~= view.prop_win and win ~= view.orig_win then
    win = view.prop_win
  end
  if not (win and vim.api.nvim_win_is_valid(win)) then
    require("claude.notify").warn("Claude's proposal is not on screen: :Claude review focus shows it")
    return
  end
  local why, h = decide_at(view, win, action == "keep" and "keep" or "take_back")
  if why then
    require("claude.notify").warn(why)
  end
  vim.cmd.redrawstatus({ bang = true }) -- the winbar's counts
  if not h or action == "keep" then
    return
  end
  h.reason = nil -- a plain take back says nothing; asked again, the new answer counts
  reason = reason and vim.trim(reason) or nil
  if reason and reason ~= "" then
    h.reason = reason
  elseif action == "take_back_why" then
    vim.ui.input({ prompt = "Why take it back? (Claude reads this; empty: say nothing) " }, function(input)
      input = input and vim.trim(input) or ""
      if input ~= "" and view.hunks_state then
        h.reason = input
      end
    end)
  end
end

--- The hunks taken back with a reason, as the user accepts: each with
--- the file's first line (1-based), the file's lines and Claude's there,
--- and the reason. Empty when none.
function M.reasons(view)
  local out = {}
  for _, h in ipairs(view.hunks_state or {}) do
    if h.reason and h.state == "taken_back" then
      local first, last = range(view.orig_buf, h.orig)
      local from = h.new_count == 0 and h.new_start or h.new_start - 1
      table.insert(out, {
        line = (first or 0) + 1,
        kept = first and table.concat(vim.api.nvim_buf_get_lines(view.orig_buf, first, last, false), "\n") or "",
        proposed = table.concat(vim.list_slice(view.spec.lines, from + 1, from + h.new_count), "\n"),
        reason = h.reason,
      })
    end
  end
  return out
end

--- Called as the user accepts view; unchanged: the proposal is the file's
--- own text. With hunks to take back and every one taken back, the CLI
--- reads that as a "no" (the terminal's; the chat's review answers so too,
--- chatctl/review.go): the user hears so.
function M.accepting(view, unchanged)
  if unchanged and #(view.hunks_state or {}) > 0 then
    require("claude.notify").info("every change taken back: Claude takes that as a rejection, and its turn stops")
  end
end

return M
