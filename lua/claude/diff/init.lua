-- The diff view for Claude's proposals (openDiff): the file as it is on
-- the left, the proposal on the right in an editable scratch buffer, in
-- Neovim's own diff mode. The user accepts (:w, :Claude review accept, a key)
-- or rejects (:Claude review reject, a key, closing the proposal); the Go host
-- answers the CLI, which writes the file itself. We never write it.
local M = {}

local keys = require("claude.diff.keys")
local round = require("claude.diff.round")

local views = {} -- id -> view (see open)

-- When the Go host dies nobody can answer Claude for the diffs it showed:
-- host.lua says so with this event rather than calling up into the view.
vim.api.nvim_create_autocmd("User", {
  group = vim.api.nvim_create_augroup("ClaudeDiffHostExit", { clear = true }),
  pattern = "ClaudeHostExit",
  desc = "claude.nvim: close Claude's diffs when the Go host exits",
  callback = function()
    M.close_all()
  end,
})

local function cfg()
  return require("claude.config").get().diff
end

local function valid_win(win)
  return win and vim.api.nvim_win_is_valid(win)
end

local function valid_buf(buf)
  return buf and vim.api.nvim_buf_is_valid(buf)
end

--- The proposal window's winbar ('winbar' evaluates this with %!, so it
--- follows the window's width as it changes; claude.diff.winbar).
function M.winbar()
  local win = vim.g.statusline_winid or vim.api.nvim_get_current_win()
  local counts, place
  for _, view in pairs(views) do
    if view.prop_win == win then
      counts = require("claude.diff.hunks").counts(view)
      place = view.spec.of and { view.spec.place, view.spec.of } -- one of several edits of a message
    end
  end
  return require("claude.diff.winbar").render(counts, place)
end

-- Whether another view of ours is on screen in tab page tab: two in one
-- tab page would make one four-window diff.
local function tab_has_view(tab, except)
  for _, other in pairs(views) do
    if other ~= except and other.tab == tab and valid_win(other.prop_win) then
      return true
    end
  end
  return false
end

-- Whether a new view goes into a tab page of its own.
local function needs_own_tab(view)
  return cfg().open_in_new_tab or tab_has_view(vim.api.nvim_get_current_tabpage(), view)
end

-- The window to show the file in: where the user last edited files, or a
-- new one when only Claude's terminal (or panels) are on screen.
local function target_window(view, buf)
  if needs_own_tab(view) then
    vim.cmd("tab split")
    view.new_tab = true
    local win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    -- Keep Claude in sight in the new tab page too.
    local term = require("claude.terminal").buf(view.spec.session)
    if term then
      local pos = require("claude.config").get().terminal.position
      if pos == "tab" or pos == "float" then
        pos = "right"
      end
      vim.api.nvim_open_win(term, false, { split = pos, win = -1 })
    end
    return win
  end
  local win = require("claude.buffers").editor_win()
  if win then
    view.prev_buf = vim.api.nvim_win_get_buf(win)
    view.prev_view = vim.api.nvim_win_call(win, vim.fn.winsaveview)
    view.prev_winbar = vim.wo[win].winbar
    vim.api.nvim_win_set_buf(win, buf)
    return win
  end
  local side = require("claude.config").get().terminal.position == "left" and "right" or "left"
  view.created_win = true
  return vim.api.nvim_open_win(buf, false, { split = side, win = -1 })
end

local function fire(name, view, extra)
  require("claude.events").fire(
    name,
    vim.tbl_extend("force", { id = view.id, tab_name = view.tab_name, path = view.path }, extra or {})
  )
end

-- Whether a diff can open without touching the window the user types in:
-- not in a tab page of its own (that one becomes current), not while that
-- window floats (it would step aside), not from the command-line window
-- (no other window may change), and only into a window that is not theirs.
local function can_open_beside(view)
  local cur = vim.api.nvim_get_current_win()
  return not needs_own_tab(view)
    and vim.api.nvim_win_get_config(cur).relative == ""
    and vim.fn.getcmdwintype() == ""
    and require("claude.tools").editor_win() ~= cur
end

-- The two windows side by side in diff mode, with their winbars.
local function make_windows(view, spec)
  view.orig_win = target_window(view, view.orig_buf)
  view.tab = vim.api.nvim_win_get_tabpage(view.orig_win)
  view.prop_win = vim.api.nvim_open_win(view.prop_buf, false, {
    split = cfg().layout == "horizontal" and "below" or "right",
    win = view.orig_win,
  })
  if vim.api.nvim_buf_line_count(view.orig_buf) + #spec.lines < require("claude.diff.large").LINES then
    for _, win in ipairs({ view.orig_win, view.prop_win }) do
      vim.api.nvim_win_call(win, function()
        vim.cmd("diffthis")
      end)
    end
  else
    require("claude.diff.large").join(view) -- folded later: show
  end
  vim.wo[view.prop_win].winbar = "%!v:lua.require'claude.diff'.winbar()"
  vim.wo[view.orig_win].winbar = "%#DiffDelete# current %* " .. vim.fn.fnamemodify(spec.old_path, ":~:."):gsub("%%", "%%%%")
  round.mark(view.prop_win, view.id)
  round.mark(view.orig_win, view.id)
end

-- What the user does to the proposal decides it: :w accepts, :q and
-- closing it reject, :e! brings Claude's text back.
local function watch_proposal(view, spec)
  local id = view.id
  local group = vim.api.nvim_create_augroup("ClaudeDiff" .. id, { clear = true })
  view.group = group
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    group = group,
    buffer = view.prop_buf,
    desc = "claude.nvim: :w accepts the proposal",
    callback = function()
      -- Close later: in ":wq" the quit comes next and must close the
      -- proposal's window, not whichever window closing now would leave.
      M.decide(id, "accept", { close_later = true })
    end,
  })
  vim.api.nvim_create_autocmd("BufReadCmd", {
    group = group,
    buffer = view.prop_buf,
    desc = "claude.nvim: :e! brings Claude's proposal back",
    callback = function()
      -- There is no file to read: without this, :e! would empty the
      -- proposal, and accepting it then would empty the file.
      vim.api.nvim_buf_set_lines(view.prop_buf, 0, -1, false, spec.lines)
      vim.bo[view.prop_buf].modified = false
      -- Every hunk is Claude's again: the decisions start over.
      require("claude.diff.hunks").track_buffers(view)
    end,
  })
  keys.save_and_quit_accepts(view, M.decide)
  vim.api.nvim_create_autocmd("QuitPre", {
    group = group,
    buffer = view.prop_buf,
    desc = "claude.nvim: :q rejects the proposal, edited or not",
    callback = function()
      -- Without this an edited proposal would refuse :q (E37), where the
      -- winbar promises a rejection.
      vim.bo[view.prop_buf].modified = false
    end,
  })
  vim.api.nvim_create_autocmd("ExitPre", {
    group = group,
    desc = "claude.nvim: quitting Neovim rejects an open proposal",
    callback = function()
      if valid_buf(view.prop_buf) then
        vim.bo[view.prop_buf].modified = false
      end
    end,
  })
  vim.api.nvim_create_autocmd({ "BufWipeout", "BufUnload" }, {
    group = group,
    buffer = view.prop_buf,
    desc = "claude.nvim: closing the proposal rejects it",
    callback = function()
      vim.schedule(function()
        -- Still there and loaded: it was reloaded (:e!), not closed.
        if not (valid_buf(view.prop_buf) and vim.api.nvim_buf_is_loaded(view.prop_buf)) then
          M.decide(id, "reject")
        end
      end)
    end,
  })
end

-- What the keys of claude.diff.keys do: decide a view's proposal or a
-- hunk of it, or those of the view in the current window (a shared map).
local actions = {
  decide = function(id, decision)
    M.decide(id, decision)
  end,
  decide_hunk = function(id, action)
    M.decide_hunk(id, action)
  end,
  decide_current = function(decision)
    M.decide_current(decision)
  end,
}

-- Sets up the view's buffers and windows. With keep_focus the current
-- window stays current (the user is typing: claude.typing).
local function show(view, spec, keep_focus)
  -- A floating Claude terminal would cover the diff: it comes back when
  -- the diff closes.
  view.hid_float = require("claude.terminal").hide_float()
  local from_win = vim.api.nvim_get_current_win()
  local from_term = vim.bo[vim.api.nvim_win_get_buf(from_win)].buftype == "terminal"
  local stay = keep_focus or (cfg().keep_terminal_focus and from_term)
  if not stay then
    -- The cursor goes back there after the last review: noted before the
    -- view takes that window or moves its cursor (claude.diff.round).
    round.begin(from_win)
  end

  if not view.prop_buf then -- a large one's are made (prepare)
    require("claude.diff.buffers").make(view, spec, from_term)
  end
  make_windows(view, spec)
  if not view.manual_folds then -- a large one's come with its folds
    require("claude.diff.hunks").track_buffers(view)
  end
  keys.set(view, view.prop_buf, true, actions)
  keys.set(view, view.orig_buf, view.scratch_orig, actions)
  watch_proposal(view, spec)

  if vim.bo[view.orig_buf].modified then
    require("claude.notify").warn(
      string.format(
        "%s has unsaved changes: the diff compares the proposal with them (they show as removed unless you `dp` them across). Accepting lets Claude write the file; your buffer is not reloaded over your edits.",
        vim.fn.fnamemodify(spec.old_path, ":~:.")
      )
    )
  end

  if keep_focus then
    -- Never left the window the user types in.
  elseif stay and valid_win(from_win) then
    vim.api.nvim_set_current_win(from_win)
    vim.cmd.startinsert()
  else
    vim.api.nvim_set_current_win(view.prop_win)
    vim.cmd.stopinsert()
  end
  if not view.manual_folds then
    fire("ClaudeDiffOpened", view)
    return
  end
  -- A large diff: our folds and then its filetype come on steps of their
  -- own (claude.diff.large), so Neovim's diff is the longest one.
  vim.schedule(function()
    if views[view.id] ~= view or view.decided then
      return
    end
    if valid_win(view.orig_win) and valid_win(view.prop_win) then
      local hunks = require("claude.diff.large").fold(view, spec.lines)
      require("claude.diff.hunks").track(view, hunks)
      vim.cmd.redrawstatus({ bang = true }) -- the winbar counts them now
    end
    fire("ClaudeDiffOpened", view)
    vim.schedule(function()
      if view.filetype and valid_buf(view.prop_buf) then
        vim.bo[view.prop_buf].filetype = view.filetype
      end
      -- Then the garbage of getting here goes (claude.memory.release_now).
      vim.schedule(require("claude.memory").release_now)
    end)
  end)
end

-- Shows a view that waited (for the user to go to it, or to its session's
-- tab page), now; with keep_focus the current window stays current.
local function show_waiting(view, keep_focus)
  if not view.waiting then
    return true
  end
  if type(view.waiting) == "number" then
    pcall(vim.api.nvim_del_augroup_by_id, view.waiting)
  end
  view.waiting = nil
  local ok, err = pcall(show, view, view.spec, keep_focus)
  if not ok then
    M.close(view.id)
    require("claude.notify").error("could not show Claude's proposal: " .. tostring(err))
  end
  vim.cmd.redrawstatus({ bang = true })
  return ok
end

-- Shows the view once ready() holds after one of events (it is not shown
-- yet; :Claude review focus shows it at once).
local function wait_for(view, events, ready)
  local group = vim.api.nvim_create_augroup("ClaudeDiffWait" .. view.id, { clear = true })
  view.waiting = group
  vim.api.nvim_create_autocmd(events, {
    group = group,
    desc = "claude.nvim: show the diff that came in for another session's tab page",
    callback = function()
      vim.schedule(function()
        if views[view.id] ~= view or not view.waiting or not ready() then
          return
        end
        -- Going to a tab page is no answer to the proposal: it opens
        -- beside the user's window when it can; focused only for a user
        -- who idles; else it waits for :Claude review focus.
        if can_open_beside(view) then
          show_waiting(view, true)
        elseif not require("claude.typing").busy() then
          show_waiting(view)
        else
          pcall(vim.api.nvim_del_augroup_by_id, view.waiting)
          view.waiting = true
        end
      end)
    end,
  })
end

-- Tells the user about view's proposal; the message leaves the screen
-- when the view closes (M.close withdraws it).
local function tell(view, msg)
  view.told = true
  require("claude.notify").info(msg, { tag = "diff:" .. view.id })
end

-- A proposal that came in while the user was typing never takes their
-- window or their keys: it opens beside when it can without touching their
-- window, else it waits, unseen, until they go to it (:Claude review focus),
-- also after they stop (their next keys may be a :w for their own file).
-- A message says so once; the statusline counts it (claude.statusline).
local function offer(view, name)
  if can_open_beside(view) then
    show(view, view.spec, true)
    tell(view, string.format("Claude proposes a change to %s: the diff is open beside; :Claude review focus goes to it", name))
    vim.cmd.redrawstatus({ bang = true })
    return
  end
  view.waiting = true
  tell(view, string.format("Claude proposes a change to %s; it waits until you go to it (:Claude review focus)", name))
  vim.cmd.redrawstatus({ bang = true })
end

-- Shows a view where and when the user can take it: in its session's tab
-- page, beside a typing user or after them, else at once.
local function present(view)
  local spec = view.spec
  local name = vim.fn.fnamemodify(spec.new_path, ":~:.")
  local sessions = require("claude.sessions")
  local typing = require("claude.typing")
  if spec.session and not sessions.is_here(spec.session) then
    -- Another session's tab page is the current one: this proposal opens
    -- in its own session's tab page, when the user goes there.
    wait_for(view, "TabEnter", function()
      return sessions.is_here(spec.session) and not typing.busy({ modes_only = true })
    end)
    tell(
      view,
      string.format(
        "Claude (%s) proposes a change to %s; it opens in that session's tab page (or at once with :Claude review focus)",
        sessions.label(spec.session),
        name
      )
    )
    return
  end
  if typing.busy() then
    offer(view, name)
    return
  end
  -- The user idles in Normal mode: the diff takes the window and the
  -- focus at once, as they expect of a review they wait for.
  show(view, spec)
end

-- Goes to view (showing it first if it waited for the user).
local function focus_view(view)
  -- Where the user asked from: the cursor goes back there after the last
  -- review (claude.diff.round; not from a window of another review).
  round.begin(vim.api.nvim_get_current_win())
  if view.preparing then
    view.focus_asked = true -- once its hunks are ready (prepare)
    return true
  end
  local session = view.spec.session
  if view.waiting and session and not require("claude.terminal").is_here(session) then
    require("claude.terminal").go_to(session)
  end
  if not show_waiting(view) or not valid_win(view.prop_win) then
    return false
  end
  vim.api.nvim_set_current_tabpage(vim.api.nvim_win_get_tabpage(view.prop_win))
  vim.api.nvim_set_current_win(view.prop_win)
  vim.cmd.stopinsert()
  return true
end

-- A large proposal's buffers are made now and its hunks computed in a
-- worker thread; the view is presented when they are ready. The editor
-- answers meanwhile, and no window changes until then.
local function prepare(view)
  view.preparing, view.large = true, true
  local from_term = vim.bo[vim.api.nvim_get_current_buf()].buftype == "terminal"
  require("claude.diff.buffers").make(view, view.spec, from_term)
  local text = view.staged_text or (table.concat(view.spec.lines, "\n") .. "\n")
  view.staged_text = nil
  require("claude.diff.large").hunks(view.orig_buf, text, function(hunks, tick)
    if views[view.id] ~= view or view.decided then
      return -- closed meanwhile (close_tab, a newer proposal, the host)
    end
    view.preparing = nil
    view.hunks, view.hunks_tick = hunks, tick
    local ok, err = pcall(present, view)
    if not ok then
      require("claude.notify").error("could not show Claude's proposal: " .. tostring(err))
      M.decide(view.id, "reject")
    elseif view.focus_asked then
      focus_view(view)
    end
  end)
end

-- The watch for the CLI's write of view's file (claude.reload), set up when
-- the view opens and armed once the CLI may write: the user accepted, or the
-- CLI closed the view after the user answered in its own prompt.
local function arm_watch(view)
  if view.watch then
    view.watch.arm()
  else
    require("claude.reload").watch(view.path)
  end
end

local function stop_watch(view)
  if view.watch then
    view.watch.stop()
  end
end

--- Opens a diff view. Called by the Go host (nvimapi.Editor.OpenDiff).
---@param id integer
---@param spec table { old_path, new_path, tab_name, lines, eol, dos, staged }
function M.open(id, spec)
  local view = { id = id, tab_name = spec.tab_name, path = spec.new_path, maps = {}, spec = spec }
  if spec.staged then -- the lines came first, in pieces (claude.diff.large)
    local staged = require("claude.diff.large").take(id)
    if not staged then
      error("the proposal's text did not arrive", 0)
    end
    spec.lines, view.staged_buf, view.staged_text = staged.lines, staged.buf, staged.text
  end
  view.watch = require("claude.reload").prepare(view.path)
  views[id] = view
  if require("claude.diff.large").looks_large(spec) then
    prepare(view)
  else
    present(view)
  end
  return true
end

--- :Claude review focus: goes to the newest proposal (showing it first if it
--- waited for the user to stop typing).
function M.focus()
  local newest
  for id, view in pairs(views) do
    if not newest or id > newest.id then
      newest = view
    end
  end
  if not newest then
    require("claude.notify").info("no Claude proposal is open")
    return false
  end
  return focus_view(newest)
end

local buffer_text = require("claude.buffers").text

--- Records the user's decision on a diff and closes it.
---@param id integer
---@param decision "accept"|"reject"
---@param opts? { close_later: boolean, reason: string } close on the next loop (from :w);
--- reason: on reject, why (Claude reads it: the chat with the rejection, a terminal's
--- model with the user's next prompt)
function M.decide(id, decision, opts)
  local view = views[id]
  if not view or view.decided then
    return
  end
  view.decided = true
  local here = vim.api.nvim_get_current_win()
  if here == view.prop_win or here == view.orig_win then
    -- Answered in the review: what the user typed there were review keys,
    -- and the next proposal may come forward (claude.diff.round).
    view.answered_here = true
    require("claude.typing").forget()
  end
  local text, reasons = "", {}
  if decision == "accept" then
    if not valid_buf(view.prop_buf) then
      decision = "reject"
    else
      text = buffer_text(view.prop_buf)
      if view.hunks_state and valid_buf(view.orig_buf) then
        require("claude.diff.hunks").accepting(view, text == buffer_text(view.orig_buf))
        reasons = require("claude.diff.hunks").reasons(view)
      end
      -- Before answering: the CLI writes the file as soon as it has it.
      arm_watch(view)
    end
  end
  local why = decision == "reject" and opts and opts.reason and vim.trim(opts.reason) or ""
  local ok, err = require("claude.host").answer_diff(id, decision, text, reasons, why)
  if not ok then
    require("claude.notify").notify("claude.nvim: could not answer Claude: " .. tostring(err), vim.log.levels.ERROR)
  end
  local result = decision == "accept" and "accepted" or "rejected"
  if opts and opts.close_later and valid_buf(view.prop_buf) then
    vim.bo[view.prop_buf].modified = false -- the write "succeeded"
    vim.schedule(function()
      M.close(id, result)
    end)
  else
    M.close(id, result)
  end
end

--- The diff shown in the current window, else the only one open.
local function current_view()
  local win, buf = vim.api.nvim_get_current_win(), vim.api.nvim_get_current_buf()
  local only, count = nil, 0
  for _, view in pairs(views) do
    if win == view.prop_win or win == view.orig_win or buf == view.prop_buf then
      return view
    end
    only, count = view, count + 1
  end
  return count == 1 and only or nil
end

--- :Claude review accept, :Claude review reject, :Claude review take-back, :Claude review keep.
--- reason: :Claude review take-back's argument, why the hunk is taken back,
--- or :Claude review reject's, why the proposal is rejected; "reject_why"
--- asks why (vim.ui.input) and then rejects.
---@param decision "accept"|"reject"|"reject_why"|"take_back"|"take_back_why"|"keep"
---@param reason? string
function M.decide_current(decision, reason)
  local view = current_view()
  if not view then
    require("claude.notify").notify("claude.nvim: no Claude diff here (with several open, run this in one of them)", vim.log.levels.WARN)
    return
  end
  if keys.HUNK_ACTIONS[decision] then
    M.decide_hunk(view.id, decision, reason)
  elseif decision == "reject_why" then
    vim.ui.input({ prompt = "Why reject it? (Claude reads this; empty: say nothing) " }, function(input)
      M.decide(view.id, "reject", { reason = input })
    end)
  else
    M.decide(view.id, decision, { reason = reason })
  end
end

--- Takes back or keeps the hunk under the cursor (claude.diff.hunks).
---@param id integer
---@param action "take_back"|"take_back_why"|"keep"
---@param reason? string why it is taken back (take_back_why)
function M.decide_hunk(id, action, reason)
  local view = views[id]
  if view and not view.decided then
    require("claude.diff.hunks").decide(view, action, reason)
  end
end

-- The proposals that may come forward after the user answered one: the
-- others open or waiting here (not another session's tab page), oldest
-- first.
local function next_here()
  local list = {}
  for _, view in pairs(views) do
    local session = view.spec.session
    if not view.decided and not view.preparing and (not session or require("claude.sessions").is_here(session)) then
      table.insert(list, view)
    end
  end
  table.sort(list, function(a, b)
    return a.id < b.id
  end)
  return list
end

-- Removes a closed view's windows, buffers, maps and autocmds. After a
-- review the user answered (in it, or sitting in it while the CLI's
-- prompt answered), the next proposal waiting here comes forward, or the
-- cursor goes back where the round of reviews began (claude.diff.round).
-- Closed while they were elsewhere (the turn interrupted), it stays where
-- they type.
local function tear_down(view, result)
  local here = vim.api.nvim_get_current_win()
  local was_in_review = view.answered_here or here == view.prop_win or here == view.orig_win
  round.mark(view.orig_win, nil)
  if view.manual_folds then -- a large diff: its memory is worth giving back
    require("claude.memory").release_soon()
  end
  pcall(vim.api.nvim_del_augroup_by_id, view.group)
  keys.clear(view)
  require("claude.diff.hunks").forget(view) -- its marks are on the user's buffer too

  if view.new_tab and vim.api.nvim_tabpage_is_valid(view.tab) and #vim.api.nvim_list_tabpages() > 1 then
    local tabnr = vim.api.nvim_tabpage_get_number(view.tab)
    pcall(vim.cmd, "tabclose " .. tabnr)
  else
    if valid_win(view.prop_win) and #vim.api.nvim_list_wins() > 1 then
      pcall(vim.api.nvim_win_close, view.prop_win, true)
    end
    if valid_win(view.orig_win) then
      vim.api.nvim_win_call(view.orig_win, function()
        if view.manual_folds then
          vim.cmd("normal! zE") -- ours (join_without_diff_folds), not the user's
        end
        vim.cmd("diffoff")
      end)
      vim.wo[view.orig_win].winbar = view.prev_winbar or ""
      if view.created_win and #vim.api.nvim_list_wins() > 1 then
        pcall(vim.api.nvim_win_close, view.orig_win, true)
      elseif view.prev_buf and valid_buf(view.prev_buf) and view.prev_buf ~= view.orig_buf then
        pcall(vim.api.nvim_win_set_buf, view.orig_win, view.prev_buf)
        if view.prev_view then
          pcall(vim.api.nvim_win_call, view.orig_win, function()
            vim.fn.winrestview(view.prev_view)
          end)
        end
      end
    end
  end
  -- Diff mode may linger on the user's buffer in other windows, but not
  -- in another view of the same file.
  local others = {}
  for _, other in pairs(views) do
    if other ~= view then
      others[other.orig_win or -1], others[other.prop_win or -1] = true, true
    end
  end
  for _, win in ipairs(view.orig_buf and vim.fn.win_findbuf(view.orig_buf) or {}) do
    if vim.wo[win].diff and not others[win] then
      vim.api.nvim_win_call(win, function()
        vim.cmd("diffoff")
      end)
    end
  end
  if valid_buf(view.prop_buf) then
    pcall(vim.api.nvim_buf_delete, view.prop_buf, { force = true })
  end
  local orig = view.orig_buf
  if valid_buf(orig) and (view.scratch_orig or view.loaded_orig) then
    local shown = #vim.fn.win_findbuf(orig) > 0
    if not shown and not vim.bo[orig].modified then
      pcall(vim.api.nvim_buf_delete, orig, {})
    end
  end
  if view.hid_float then
    require("claude.terminal").show_float()
  end
  fire("ClaudeDiffClosed", view, { result = result or "closed" })
  -- After the event: the next view's ClaudeDiffOpened comes after it.
  if was_in_review then
    round.answered(next_here(), focus_view)
  elseif next(views) == nil then
    round.abandon()
  end
end

--- Closes a diff view without deciding (the CLI decided, or gave up).
---@param id integer
---@param result string|nil for the ClaudeDiffClosed event; "closed" by default
---@param later boolean|nil tear the windows and buffers down on the next turn of the
--- event loop: the view is gone from the list at once (a second close finds nothing),
--- and the caller is answered before the work (close_tab, nvimapi.Editor.closeDiff).
--- What Neovim runs next in its queue, a request sent after the answer included,
--- comes after the tear-down.
---@return boolean closed whether there was such a view
function M.close(id, result, later)
  require("claude.diff.large").drop(id) -- its openDiff ended while staging
  local view = views[id]
  if not view then
    return false
  end
  views[id] = nil
  view.decided = true
  if not result then
    -- Closed by the CLI (close_tab) after the user answered in its own
    -- prompt: the CLI writes the file right after close_tab's answer, maybe
    -- before the tear-down runs, and a write before the watch is armed is
    -- never seen. So it is armed now, as for an accept (M.decide).
    arm_watch(view)
  elseif result ~= "accepted" then
    stop_watch(view)
  end
  -- "Claude proposes a change…" is over: it leaves the screen. Only a view
  -- that said so withdraws: close_tab answers after this, and loading
  -- claude.notify for nothing took half a millisecond of its 1.8 (issue 42).
  if view.told then
    require("claude.notify").withdraw("diff:" .. id)
  end
  if view.waiting or view.preparing then -- never shown
    pcall(vim.api.nvim_del_augroup_by_id, view.waiting)
    require("claude.diff.large").drop_unshown(view)
    vim.cmd.redrawstatus({ bang = true }) -- one fewer waits for the user
    fire("ClaudeDiffClosed", view, { result = result or "closed" })
    return true
  end
  if vim.fn.getcmdwintype() ~= "" then
    -- Windows cannot close while the command-line window is open.
    vim.api.nvim_create_autocmd("CmdwinLeave", {
      once = true,
      desc = "claude.nvim: close the diff that was closed meanwhile",
      callback = function()
        vim.schedule(function()
          tear_down(view, result)
        end)
      end,
    })
    return true
  end
  if later then
    vim.schedule(function()
      tear_down(view, result)
    end)
    return true
  end
  tear_down(view, result)
  return true
end

--- Closes every diff view of ours, or one session's (0: the chat's, which
--- belong to none); returns how many.
---@param session integer|nil
function M.close_all(session)
  local ids = {}
  for id, view in pairs(views) do
    if session == nil or (view.spec.session or 0) == session then
      table.insert(ids, id)
    end
  end
  local n = 0
  for _, id in ipairs(ids) do
    if M.close(id) then
      n = n + 1
    end
  end
  return n
end

--- How many proposals of session id wait for an answer.
---@param id integer
function M.waiting(id)
  local n = 0
  for _, view in pairs(views) do
    if view.spec.session == id then
      n = n + 1
    end
  end
  return n
end

--- How many proposals wait for an answer (shown or not), in all sessions.
function M.count()
  return vim.tbl_count(views)
end

--- Ids of the open views (for tests).
function M.ids()
  local ids = vim.tbl_keys(views)
  table.sort(ids)
  return ids
end

return M
