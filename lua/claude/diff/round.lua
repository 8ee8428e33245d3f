-- A round of reviews (claude.diff): from the moment a proposal takes the
-- cursor (or the user goes to one) until the last one waiting for them is
-- answered. Claude often proposes several edits in one turn; the CLI asks
-- about them one after the other. While the user answers them the keys
-- they press are review keys (claude.typing does not count them), so each
-- next proposal comes forward as they answer the one before; when the last
-- is done the cursor goes back where it was, window and position.
local M = {}

-- { win, buf, view = winsaveview() } where the cursor was when the round
-- began; nil between rounds.
local round

-- Whether win shows a part of a review (a proposal, or a file beside one).
local function in_review(win)
  return vim.w[win].claude_review ~= nil or vim.b[vim.api.nvim_win_get_buf(win)].claude_diff ~= nil
end

--- Marks win as showing a part of review id (or no longer, with nil).
---@param win integer|nil
---@param id integer|nil
function M.mark(win, id)
  if win and vim.api.nvim_win_is_valid(win) then
    vim.w[win].claude_review = id
  end
end

--- Notes where the cursor is as the round's start, unless a round runs
--- or win is part of a review: a proposal takes the cursor from win.
---@param win integer
function M.begin(win)
  if round or not vim.api.nvim_win_is_valid(win) or in_review(win) then
    return
  end
  round = {
    win = win,
    buf = vim.api.nvim_win_get_buf(win),
    view = vim.api.nvim_win_call(win, vim.fn.winsaveview),
  }
end

--- Ends the round without moving the cursor (the user is elsewhere).
function M.abandon()
  round = nil
end

--- After the user answered a review (they were in it when it closed):
--- the next of waiting, if any, comes forward (go(view) shows and goes to
--- it); else the cursor goes back where the round began and it ends.
---@param waiting table[] the other proposals, oldest first
---@param go fun(view: table): boolean
function M.answered(waiting, go)
  for _, view in ipairs(waiting) do
    if go(view) then
      return
    end
  end
  local r = round
  round = nil
  if not (r and vim.api.nvim_win_is_valid(r.win)) then
    return
  end
  vim.api.nvim_set_current_tabpage(vim.api.nvim_win_get_tabpage(r.win))
  vim.api.nvim_set_current_win(r.win)
  if vim.api.nvim_win_get_buf(r.win) == r.buf then
    vim.fn.winrestview(r.view)
  end
  -- Normal mode, in a chat or a terminal as well: the next proposal may
  -- come forward at once, and the next keys are the user's to choose.
  if vim.bo[r.buf].buftype == "terminal" and require("claude.config").get().diff.keep_terminal_focus then
    vim.cmd.startinsert()
  else
    vim.cmd.stopinsert()
  end
end

--- Where the round began (for tests), or nil.
function M.start()
  return round and { win = round.win, line = round.view.lnum, col = round.view.col } or nil
end

return M
