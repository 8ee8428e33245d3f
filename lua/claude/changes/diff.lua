-- One file of one recorded turn as a Neovim diff, in a tab page of its
-- own: on the left a scratch buffer with the file before the turn, on the
-- right the file's own buffer (now). Keys (changes.keymaps, or the
-- <Plug>(ClaudeChange…) maps) revert the hunk under the cursor, mark it
-- reviewed, revert the file or the whole turn; the Go host does the
-- three-way work (the user's later edits survive, or it refuses).
local M = {}

local notify = require("claude.notify")
local show_name = require("claude.changes.names").show

local views = {} -- tab page -> view

local function cfg()
  return require("claude.config").get().changes
end

local function request(op, view, key, why)
  return require("claude.host").request_changes(op, view.cwd, view.turn, view.file.path, key, why)
end

local function abs(view)
  return view.root .. "/" .. view.file.path
end

--- The view of the current tab page, or nil.
function M.current()
  return views[vim.api.nvim_get_current_tabpage()]
end

-- A hunk's lines as a half-open range [s, e) in its old text; an addition
-- (count 0, after line start) is the empty range at start + 1.
local function span(start, count)
  if count == 0 then
    return start + 1, start + 1
  end
  return start, start + count
end

-- Whether two old-text ranges meet: overlap, or an empty one (an addition)
-- touching or inside the other.
local function meet(s1, e1, s2, e2)
  if s1 == e1 or s2 == e2 then
    return s1 <= e2 and s2 <= e1
  end
  return s1 < e2 and s2 < e1
end

-- Whether the cursor's line is on a hunk's lines (new_start, new_count);
-- a deletion (count 0) is on the lines either side of where it was.
local function on(line, start, count)
  if count == 0 then
    return line == start or line == start + 1
  end
  return line >= start and line < start + count
end

-- Claude's hunk whose old lines meet [s, e), or nil.
local function hunk_at(view, s, e)
  for _, h in ipairs(view.hunks) do
    local hs, he = span(h.old_start, h.old_count)
    if meet(s, e, hs, he) then
      return h
    end
  end
  return nil
end

local text_diff = (vim.text and vim.text.diff) or vim.diff

-- The hunk under the cursor. In the before window its old lines are the
-- recorded ones. In the file's window the recorded new lines are stale once
-- the user edited the file (lines added above a hunk move it), so the
-- cursor's line goes through the diff of the before text and the buffer as
-- it is now, on demand: the change under it, in old-text lines, names
-- Claude's hunk there (none when the change is the user's alone).
local function hunk_under_cursor(view)
  local line = vim.api.nvim_win_get_cursor(0)[1]
  if vim.api.nvim_get_current_buf() == view.before_buf then
    return hunk_at(view, line, line + 1)
  end
  local function text(buf)
    return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
  end
  local now = text_diff(text(view.before_buf), text(view.file_buf), { result_type = "indices" })
  for _, d in ipairs(now) do
    if on(line, d[3], d[4]) then
      local h = hunk_at(view, span(d[1], d[2]))
      if h then
        return h
      end
    end
  end
  return nil
end

local function with_hunk(fn)
  local view = M.current()
  if not view then
    notify.info("claude.nvim: not in a :Claude changes diff")
    return
  end
  local h = hunk_under_cursor(view)
  if not h then
    notify.info("claude.nvim: no hunk of this turn under the cursor (]c and [c move between hunks)")
    return
  end
  fn(view, h)
end

function M.revert_hunk()
  with_hunk(function(view, h)
    if not require("claude.changes.guard").refuse_modified(view.root, { view.file.path }) then
      request("revert_hunk", view, h.key)
    end
  end)
end

--- Reverts the hunk under the cursor and tells Claude why: the reason typed
--- goes with the revert note at the next prompt. An empty answer or <Esc>
--- reverts nothing.
function M.revert_hunk_why()
  with_hunk(function(view, h)
    if require("claude.changes.guard").refuse_modified(view.root, { view.file.path }) then
      return
    end
    vim.ui.input({ prompt = "Why take it back (Claude hears it): " }, function(why)
      if why and vim.trim(why) ~= "" then
        request("revert_hunk", view, h.key, why)
      end
    end)
  end)
end

function M.review()
  with_hunk(function(view, h)
    request(h.reviewed and "unreview" or "review", view, h.key)
  end)
end

function M.revert_file()
  local view = M.current()
  if view and not require("claude.changes.guard").refuse_modified(view.root, { view.file.path }) then
    request("revert_file", view)
  end
end

function M.revert_turn()
  local view = M.current()
  if view and not require("claude.changes.guard").refuse_modified_under(view.root) then
    require("claude.host").request_changes("revert_turn", view.cwd, view.turn)
  end
end

local ACTIONS = {
  { "revert_hunk", M.revert_hunk, "revert the hunk under the cursor" },
  { "revert_hunk_why", M.revert_hunk_why, "revert the hunk under the cursor and tell Claude why" },
  { "review", M.review, "mark the hunk under the cursor reviewed (again: not reviewed)" },
  { "revert_file", M.revert_file, "revert the whole file" },
  { "revert_turn", M.revert_turn, "revert the whole turn (every file, or none)" },
}

local function help()
  local lines = {}
  for _, a in ipairs(ACTIONS) do
    local lhs = cfg().use_default_keymaps and cfg().keymaps[a[1]] or nil
    table.insert(lines, string.format("%-12s %s", lhs or "(no key)", a[3]))
  end
  table.insert(lines, "]c / [c      next / previous hunk (Neovim's diff)")
  local close = require("claude.keys").lhs("changes.close")
  if close then
    table.insert(lines, string.format("%-12s close (in the before window)", close))
  end
  vim.api.nvim_echo({ { table.concat(lines, "\n") } }, false, {})
end

-- Buffer-local keys: on the before buffer (ours) always; on the file's own
-- buffer only where the key maps nothing at all, the user's and other
-- plugins' global maps included (avante's and CopilotChat's <leader>a…
-- stay theirs), removed when the view closes. g? and q only on ours.
-- Whether lhs maps anything in buf, buffer-local or global.
local function has_map(buf, lhs)
  return vim.api.nvim_buf_call(buf, function()
    return next(vim.fn.maparg(lhs, "n", false, true)) ~= nil
  end)
end

local function set_keymaps(view)
  local keys = require("claude.keys")
  local targets = { { buf = view.before_buf, owned = true }, { buf = view.file_buf, owned = false } }
  if cfg().use_default_keymaps and keys.on("changes") then
    for _, target in ipairs(targets) do
      for _, a in ipairs(ACTIONS) do
        local lhs = cfg().keymaps[a[1]]
        if lhs and (target.owned or not has_map(target.buf, lhs)) then
          vim.keymap.set("n", lhs, a[2], { buffer = target.buf, nowait = true, desc = "Claude changes: " .. a[3] })
          if not target.owned then
            table.insert(view.maps, { buf = target.buf, lhs = lhs })
          end
        end
      end
    end
  end
  keys.map(view.before_buf, "changes.help", help, { nowait = true })
  keys.map(view.before_buf, "changes.close", "<Cmd>tabclose<CR>", { nowait = true })
end

local function close(tab)
  local view = views[tab]
  if not view then
    return
  end
  views[tab] = nil
  for _, m in ipairs(view.maps) do
    if vim.api.nvim_buf_is_valid(m.buf) then
      pcall(vim.keymap.del, "n", m.lhs, { buffer = m.buf })
    end
  end
end

local function winbar(view)
  local keys = cfg().keymaps
  local hint = cfg().use_default_keymaps and keys.revert_hunk and (" · " .. keys.revert_hunk .. " revert hunk") or ""
  local text = string.format("before: %s%s · g? keys", show_name(view.file.path), hint)
  return text:gsub("%%", "%%%%")
end

--- Shows d (the host's answer to "open": { root, turn, file, before,
--- hunks }) for cwd's workspace.
function M.show(cwd, d)
  local path = d.root .. "/" .. d.file.path
  -- The name as an argument, not in a command line: a name with a newline
  -- or a backslash survives no escaping there.
  vim.cmd.tabnew({ args = { path }, magic = { file = false } })
  local tab = vim.api.nvim_get_current_tabpage()
  local file_win, file_buf = vim.api.nvim_get_current_win(), vim.api.nvim_get_current_buf()
  local before_buf = vim.api.nvim_create_buf(false, true)
  vim.bo[before_buf].bufhidden = "wipe"
  vim.api.nvim_buf_set_lines(before_buf, 0, -1, false, d.before)
  vim.bo[before_buf].modifiable = false
  pcall(vim.api.nvim_buf_set_name, before_buf, string.format("claude-changes://%s/%s", d.turn:sub(1, 8), show_name(d.file.path)))
  local ft = vim.filetype.match({ filename = path })
  if ft then
    vim.bo[before_buf].filetype = ft
  end
  vim.cmd("leftabove vsplit")
  local before_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(before_win, before_buf)
  local view = { cwd = cwd, root = d.root, turn = d.turn, file = d.file, hunks = d.hunks, before_buf = before_buf, file_buf = file_buf, maps = {} }
  views[tab] = view
  for _, win in ipairs({ before_win, file_win }) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("diffthis")
    end)
  end
  vim.wo[before_win].winbar = winbar(view)
  set_keymaps(view)
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = vim.api.nvim_create_augroup("ClaudeChangesDiff" .. before_buf, { clear = true }),
    buffer = before_buf,
    desc = "claude.nvim: drop the :Claude changes diff's keys from the file's buffer",
    callback = function()
      close(tab)
    end,
  })
  -- Start on the first hunk, in the file's window.
  vim.api.nvim_set_current_win(file_win)
  if d.hunks[1] then
    pcall(vim.api.nvim_win_set_cursor, file_win, { math.max(d.hunks[1].new_start, 1), 0 })
  end
end

local function each_view(fn)
  for _, view in pairs(views) do
    fn(view)
  end
end

--- A revert went through (result: { root, paths, what }): the diffs of
--- those files update.
function M.reverted(_, result)
  each_view(function(view)
    if vim.tbl_contains(result.paths, abs(view)) then
      for _, win in ipairs(vim.fn.win_findbuf(view.file_buf)) do
        vim.api.nvim_win_call(win, function()
          vim.cmd("diffupdate")
        end)
      end
    end
  end)
end

--- A hunk (by key) was marked reviewed or not.
function M.reviewed(key, reviewed)
  each_view(function(view)
    for _, h in ipairs(view.hunks) do
      if h.key == key then
        h.reviewed = reviewed
      end
    end
  end)
  notify.info(reviewed and "claude.nvim: hunk marked reviewed" or "claude.nvim: hunk marked not reviewed")
end

return M
