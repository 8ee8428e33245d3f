-- Large proposals in the diff view (claude.diff shows them): how a 5 MiB
-- proposal with 1,500 hunks opens without freezing the editor (issue 27).
-- Each step that held the main loop for long is split or moved off it:
-- - the proposal arrives in pieces (nvimapi/diff_chunks.go), each its own
--   RPC call that fills part of a hidden buffer, so the UI and the user's
--   keys are served between them;
-- - the hunks our folds need are computed by vim.diff in a libuv worker
--   thread while the editor goes on (claude.diff shows the view after);
-- - our folds are made on the step after the diff shows, and the
--   proposal gets its filetype (syntax, treesitter) on the next (claude.diff).
-- One step stays whole: Neovim's own diff of the two buffers when the
-- proposal joins diff mode (what ]c, do and dp use).
local M = {}

-- Past this many lines (both sides), a diff is shown without
-- 'foldmethod' diff: Neovim computes those folds in time proportional to
-- lines times changes (a 5 MiB file with a change every 50 lines: 260 ms
-- of folds for 25 ms of diff, the editor frozen meanwhile; issue 15).
M.LINES = 20000

-- view id -> { buf = hidden proposal buffer, lines = all so far, texts =
-- the pieces as text, for vim.diff: joined once, not line by line again }
local staged = {}

--- Appends the next piece of proposal id's lines (before claude.diff.open).
---@param id integer
---@param lines string[]
function M.stage(id, lines)
  local s = staged[id]
  if not s then
    local buf = vim.api.nvim_create_buf(false, false)
    vim.bo[buf].swapfile = false
    -- Claude's text is no change of the user's: `u` must not take it away.
    vim.bo[buf].undolevels = -1
    s = { buf = buf, lines = {}, texts = {} }
    staged[id] = s
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  else
    vim.api.nvim_buf_set_lines(s.buf, -1, -1, false, lines)
  end
  vim.list_extend(s.lines, lines)
  table.insert(s.texts, table.concat(lines, "\n") .. "\n")
  return true
end

--- The staged proposal of id ({ buf, lines, text }), now the view's; nil
--- if none.
function M.take(id)
  local s = staged[id]
  staged[id] = nil
  if not (s and vim.api.nvim_buf_is_valid(s.buf)) then
    return nil
  end
  return { buf = s.buf, lines = s.lines, text = table.concat(s.texts) }
end

--- Forgets the staged pieces of id (its openDiff ended before the view).
function M.drop(id)
  local s = staged[id]
  staged[id] = nil
  if s and vim.api.nvim_buf_is_valid(s.buf) then
    pcall(vim.api.nvim_buf_delete, s.buf, { force = true })
  end
end

--- Whether a proposal makes a large diff: the file's buffer counts as it
--- is when loaded; a file not loaded yet as long as the proposal (the two
--- are mostly alike; claude.diff checks again when it shows the view).
---@param spec table claude.diff.open's spec
function M.looks_large(spec)
  local buf = require("claude.buffers").find_buf(spec.old_path)
  local old = buf and vim.api.nvim_buf_is_loaded(buf) and vim.api.nvim_buf_line_count(buf) or #spec.lines
  return old + #spec.lines >= M.LINES
end

--- Deletes the buffers of a view never shown (a large one's are made
--- before it shows or waits), keeping a file buffer the user has in a
--- window or has edited.
---@param view table claude.diff's view
function M.drop_unshown(view)
  local prop = view.prop_buf or view.staged_buf
  if prop and vim.api.nvim_buf_is_valid(prop) then
    pcall(vim.api.nvim_buf_delete, prop, { force = true })
  end
  local orig = view.orig_buf
  if orig and vim.api.nvim_buf_is_valid(orig) and (view.scratch_orig or view.loaded_orig) then
    if #vim.fn.win_findbuf(orig) == 0 and not vim.bo[orig].modified then
      pcall(vim.api.nvim_buf_delete, orig, {})
    end
  end
end

-- vim.diff's hunks of two texts, as { old_start, old_count, new_start,
-- new_count } lists. Runs in a worker thread: only its arguments and what
-- is global there (vim.diff, vim.mpack) are in reach, and a string is all
-- it can hand back (and take: opts come mpack-encoded).
local function diff_in_thread(old, new, opts)
  local ok, hunks = pcall(vim.diff, old, new, vim.mpack.decode(opts))
  local encoded = ok and vim.mpack.encode(hunks) or nil
  -- The thread's Lua state outlives this call (luv keeps one per worker
  -- thread for the next work) and nothing else runs its collector: the
  -- copies of both texts it was handed stayed resident until the next
  -- large diff (a 5 MiB proposal: 10 MiB of Neovim's RSS after it closed).
  -- Collected here, off the main loop.
  old, new, hunks = nil, nil, nil
  collectgarbage("collect")
  return encoded
end

local function text(lines)
  return #lines > 0 and table.concat(lines, "\n") .. "\n" or ""
end

-- Lines read from a buffer in one step: getting 75,000 lines and joining
-- them took 30-100 ms; this many take a few.
local READ_LINES = 8192

-- Calls done(text, tick) with buf's text (lines joined by "\n", one after
-- the last) and the changedtick it is of, read in steps of READ_LINES lines
-- with the main loop free between them; a change meanwhile starts it again.
local function read_text(buf, done)
  local parts, from, tick = {}, 0, nil
  local function step()
    if not vim.api.nvim_buf_is_valid(buf) then
      return done(nil, nil)
    end
    local now = vim.api.nvim_buf_get_changedtick(buf)
    if now ~= tick then
      parts, from, tick = {}, 0, now
    end
    local lines = vim.api.nvim_buf_get_lines(buf, from, from + READ_LINES, false)
    table.insert(parts, text(lines))
    from = from + #lines
    if #lines < READ_LINES then
      return done(table.concat(parts), tick)
    end
    vim.schedule(step)
  end
  vim.schedule(step) -- open_diff's call ends first
end

--- Computes the hunks of buf's lines against new_text (lines joined by
--- "\n", one after the last) in a worker thread and calls done(hunks,
--- tick) on the main loop, tick being buf's changedtick they belong to
--- (hunks nil if that failed).
---@param buf integer
---@param new_text string
---@param done fun(hunks: integer[][]|nil, tick: integer|nil)
function M.hunks(buf, new_text, done)
  read_text(buf, function(old_text, tick)
    if not old_text then
      return done(nil, nil)
    end
    local work = vim.uv.new_work(diff_in_thread, function(encoded)
      vim.schedule(function()
        done(encoded and vim.mpack.decode(encoded) or nil, tick)
      end)
    end)
    -- The hunks of 'diffopt', as Neovim's diff shows them (and the
    -- per-hunk keys decide them: claude.diff.hunks).
    work:queue(old_text, new_text, vim.mpack.encode(require("claude.diff.hunks").diff_opts()))
  end)
end

-- Folds the unchanged stretches of win, keeping 'diffopt' context lines
-- (6 by default) around each change, as diff folds would; side is 1 for
-- the file's line numbers in hunks, 3 for the proposal's.
local function fold_unchanged(win, hunks, side, line_count)
  local context = tonumber(vim.o.diffopt:match("context:(%d+)")) or 6
  vim.api.nvim_win_call(win, function()
    local from = 1
    for _, h in ipairs(hunks) do
      local start, count = h[side], h[side + 1]
      local first = count == 0 and start + 1 or start -- a pure insertion sits after start
      if first - context - 1 > from then
        vim.cmd(string.format("%d,%dfold", from, first - context - 1))
      end
      from = first + math.max(count, 1) + context
    end
    if from < line_count then
      vim.cmd(string.format("%d,%dfold", from, line_count))
    end
  end)
end

--- Native diff mode (]c, do, dp, highlights) with manual folds, made by
--- M.fold on the next step: the file's window joins by :diffthis while it
--- is the only one in diff mode (nothing to compare, so no folds to
--- compute; it saves the user's options for :diffoff), then takes manual
--- folds; the proposal's window, ours and closed with the view, joins by
--- its options. Neovim diffs the two buffers then, in one step.
---@param view table claude.diff's view: orig_win, prop_win
function M.join(view)
  vim.api.nvim_win_call(view.orig_win, function()
    vim.cmd("diffthis")
    vim.wo.foldmethod = "manual"
    vim.cmd("normal! zE")
  end)
  local wo = vim.wo[view.prop_win]
  wo.foldmethod, wo.foldenable, wo.foldlevel = "manual", true, 0
  wo.foldcolumn = vim.wo[view.orig_win].foldcolumn
  wo.scrollbind, wo.cursorbind, wo.wrap = true, true, false
  wo.diff = true
  view.manual_folds = true -- claude.diff removes them with the view
end

--- Folds the unchanged stretches of both sides, with the hunks of M.hunks
--- when they still match the file's buffer, else computed here; returns
--- the hunks.
---@param view table claude.diff's view: orig_win, prop_win, orig_buf, hunks, hunks_tick
---@param lines string[] the proposal
function M.fold(view, lines)
  local hunks = view.hunks
  if not hunks or view.hunks_tick ~= vim.api.nvim_buf_get_changedtick(view.orig_buf) then
    -- The file's buffer changed while the view waited (or the thread
    -- failed): the hunks are computed again, here.
    local old = vim.api.nvim_buf_get_lines(view.orig_buf, 0, -1, false)
    hunks = vim.diff(text(old), text(lines), require("claude.diff.hunks").diff_opts())
  end
  view.hunks = nil -- claude.diff.hunks keeps them as extmarks
  fold_unchanged(view.orig_win, hunks, 1, vim.api.nvim_buf_line_count(view.orig_buf))
  fold_unchanged(view.prop_win, hunks, 3, #lines)
  return hunks
end

return M
