-- Whether the user is in the middle of typing. Nothing Claude asks for (a
-- diff, a permission, a question) may move the cursor or take a key from a
-- user who is typing: whatever comes in while they are waits where they can
-- see it until they go to it.
--
-- "Typing" is any mode but Normal (Insert, Replace, Visual, Select, the
-- command line, a terminal, an operator or count half typed, a mapping half
-- way, the command-line window), or Normal mode with a key typed within the
-- last QUIET_MS. Modes alone miss the commonest case: between two `dd`s the
-- editor is in Normal mode, and a window opened then catches the next `dd`.
-- A second is longer than the gap between keys of someone at work (a few
-- hundred ms) and shorter than the pause of someone who stopped to read
-- what Claude did, who then sees the review at once, as before.
--
-- Keys pressed in one of Claude's proposals are review keys, not typing:
-- the next proposal of the turn, which comes within a second of the `:w`
-- that answered one, comes forward (claude.diff.round) instead of waiting
-- unseen for :Claude review focus.
local M = {}

--- How long after the last typed key the user counts as idle (ms).
M.QUIET_MS = 1000

local last_key -- now() when the user last typed a key; nil: never

local watching = false

-- Milliseconds on a monotonic clock (not the loop's cached time, which a
-- long call in the same loop iteration leaves behind).
local function now()
  return vim.uv.hrtime() / 1e6
end

--- Starts noting typed keys (once; cheap: one assignment per key).
function M.watch()
  if watching then
    return
  end
  watching = true
  vim.on_key(function(_, typed)
    -- typed is empty for keys our own code feeds (nil before 0.10.?).
    if (typed == nil or typed ~= "") and vim.b.claude_diff == nil then
      last_key = now()
    end
  end, vim.api.nvim_create_namespace("claude_typing"))
end

--- Forgets the last typed key: the user answered a review where they
--- were (the keys that took them there were review keys too).
function M.forget()
  last_key = nil
end

local MODES = {
  i = "Insert mode",
  R = "Replace mode",
  v = "Visual mode",
  V = "Visual mode",
  ["\22"] = "Visual mode",
  s = "Select mode",
  S = "Select mode",
  ["\19"] = "Select mode",
  c = "the command line",
  t = "the terminal",
  r = "a prompt",
  ["!"] = "a shell command",
}

--- What the user is busy with, or nil when they are idle in Normal mode.
---@param opts? { modes_only: boolean } ignore how recent the last key was
---@return string|nil
function M.busy(opts)
  if vim.fn.getcmdwintype() ~= "" then
    return "the command-line window"
  end
  local mode = vim.api.nvim_get_mode()
  if mode.blocking then
    return "a prompt"
  end
  local m = mode.mode
  if m ~= "n" and m ~= "nt" then
    return MODES[m:sub(1, 1)] or "a command" -- "no…": the d of dd; "niI": i_CTRL-O
  end
  if vim.fn.state("mo") ~= "" then
    return "a command" -- a mapping or operator half way
  end
  if not (opts and opts.modes_only) and last_key and now() - last_key < M.QUIET_MS then
    return "typing"
  end
  return nil
end

return M
