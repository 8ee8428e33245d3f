-- Reloads buffers whose files Claude changed on disk. A buffer with unsaved
-- edits is never reloaded: the user gets a warning and keeps their text,
-- and the buffer is marked as conflicting so nothing of ours (saveDocument)
-- writes over the disk version until the user reloads or writes it.
local M = {}

local GROUP = "ClaudeReload"
local checking = false
local quiet = false
local conflicts = {} -- buf -> true: changed on disk while it had unsaved edits
local kept = {} -- files kept during this check, reported once it ends
-- Buffers check() reloaded: buf -> { tick = b:changedtick after the
-- reload, at = vim.uv.now() }. The CLI asks for diagnostics a few
-- milliseconds after its write, and that answer must still wait for
-- whatever lints the new text: tools.refresh reports these reloads, and
-- nvimapi/settle.go decides whether and how long to wait. Every reload
-- counts, not only the watcher's: when Neovim is slow to close an accepted
-- diff, the CLI's write lands first and the BufEnter of the closing
-- reloads the buffer before the watcher gets to it.
local fresh = {}

-- Runs only while we run :checktime ourselves; otherwise the user's usual
-- behaviour ('autoread', the W11/W12 prompts) is left alone.
local function on_file_changed(ev)
  if not checking then
    vim.v.fcs_choice = "ask"
    return
  end
  if vim.v.fcs_reason == "deleted" then
    vim.v.fcs_choice = ""
    return
  end
  if vim.bo[ev.buf].modified then
    vim.v.fcs_choice = ""
    conflicts[ev.buf] = true
    if not quiet then
      table.insert(kept, vim.fn.fnamemodify(ev.file, ":~:."))
    end
  else
    vim.v.fcs_choice = "reload"
  end
end

local function ensure_hooks()
  local group = vim.api.nvim_create_augroup(GROUP .. "Core", { clear = false })
  if #vim.api.nvim_get_autocmds({ group = group }) > 0 then
    return
  end
  vim.api.nvim_create_autocmd("FileChangedShell", {
    group = group,
    desc = "claude.nvim: reload files Claude changed, keep unsaved edits",
    callback = on_file_changed,
  })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufWritePost", "BufWipeout" }, {
    group = group,
    desc = "claude.nvim: a reloaded or written buffer no longer conflicts",
    callback = function(ev)
      conflicts[ev.buf] = nil
    end,
  })
end

--- Reloads changed, unmodified buffers (all, or only buf), noting each as
--- fresh (take_fresh); warns about changed buffers with unsaved edits.
---@param buf integer|nil
function M.check(buf)
  if checking or vim.fn.getcmdwintype() ~= "" then
    return
  end
  ensure_hooks()
  checking = true
  -- One buffer at a time: a bare :checktime run from an RPC call or an
  -- autocmd is postponed by Neovim to a moment when our handler is no
  -- longer active.
  local bufs = buf and { buf } or vim.api.nvim_list_bufs()
  local is_file_buf = require("claude.buffers").is_file_buf
  local ok, err = pcall(function()
    for _, b in ipairs(bufs) do
      if vim.api.nvim_buf_is_loaded(b) and is_file_buf(b) then
        local tick = vim.api.nvim_buf_get_changedtick(b)
        vim.cmd.checktime(b)
        if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_changedtick(b) ~= tick then
          fresh[b] = { tick = vim.api.nvim_buf_get_changedtick(b), at = vim.uv.now() }
        end
      end
    end
  end)
  checking = false
  if not ok then
    require("claude.notify").notify("claude.nvim: checktime: " .. tostring(err), vim.log.levels.DEBUG)
  end
  -- Messages given inside FileChangedShell are lost: report afterwards.
  for _, file in ipairs(kept) do
    require("claude.notify").notify(
      string.format("claude.nvim: %s changed on disk but has unsaved edits here; not reloaded (in it, :w !diff %% - compares, :e! takes the disk version)", file),
      vim.log.levels.WARN
    )
  end
  kept = {}
end

-- How many buffers one step of check_all looks at before Neovim gets to
-- process keys again: checking 500 unchanged buffers in one go took a
-- median of 3 ms on a quiet machine, 4-20 ms on a shared one under a load
-- of 16, once per Bash result; a step of SLICE took a fifth of that
-- (chatctl BenchmarkCheckAllFileBuffers).
local SLICE = 50
local all_running, all_again = false, false

--- Checks every loaded buffer as check() does, SLICE at a time with the
--- editor free between steps. Asked again while it runs, it starts over
--- once done, so a file written meanwhile is not missed.
function M.check_all()
  if all_running then
    all_again = true
    return
  end
  all_running = true
  local bufs, i = vim.api.nvim_list_bufs(), 1
  local function step()
    local last = math.min(i + SLICE - 1, #bufs)
    for k = i, last do
      if vim.api.nvim_buf_is_loaded(bufs[k]) then
        M.check(bufs[k])
      end
    end
    i = last + 1
    if i <= #bufs then
      vim.schedule(step)
      return
    end
    all_running = false
    if all_again then
      all_again = false
      M.check_all()
    end
  end
  step()
end

--- Whether buf's file changed on disk while it has unsaved edits (checks
--- now, silently; reloads the buffer if it has none).
---@param buf integer
function M.changed_on_disk(buf)
  quiet = true
  M.check(buf)
  quiet = false
  return conflicts[buf] == true
end

-- How long to wait for the CLI to write a file after the user accepted.
local WATCH_MS = 30000
-- How long a file must be quiet before it counts as written.
local SETTLE_MS = 50

--- After an accepted diff the CLI writes the file itself, a moment later:
--- a watch on its directory reloads the buffer as soon as the write lands.
--- prepare sets the watch up and arm starts it: the diff view prepares one
--- when it opens, so that closing it (close_tab, which the CLI's write
--- follows at once) only arms it — setting it up there took 0.13-0.24 ms of
--- close_tab's answer (issue 42). Events before arm are not the CLI's write.
--- nil when the option is off or the directory cannot be watched.
---@param path string
---@return { arm: fun(), stop: fun() }?
function M.prepare(path)
  if not require("claude.config").get().auto_reload then
    return nil
  end
  local dir, name = vim.fs.dirname(path), vim.fs.basename(path)
  local watcher = vim.uv.new_fs_event()
  local timer = vim.uv.new_timer()
  local settle = vim.uv.new_timer()
  if not watcher or not timer or not settle then
    for _, handle in pairs({ watcher, timer, settle }) do
      handle:close()
    end
    return nil
  end
  local armed = false
  local function stop()
    for _, handle in ipairs({ watcher, timer, settle }) do
      if not handle:is_closing() then
        handle:stop()
        handle:close()
      end
    end
  end
  local function reload()
    local buf = require("claude.buffers").find_buf(path)
    if buf and vim.api.nvim_buf_is_loaded(buf) then
      M.check(buf)
    end
  end
  local ok = watcher:start(dir, {}, function(err, fname)
    if err or not armed or fname ~= name or settle:is_closing() then
      return
    end
    -- One write is several events (truncate, write, rename); reading at
    -- the first could load a half-written file.
    settle:stop()
    settle:start(SETTLE_MS, 0, function()
      stop()
      vim.schedule(reload)
    end)
  end)
  if not ok then
    stop()
    return nil
  end
  return {
    arm = function()
      if armed or timer:is_closing() then
        return
      end
      armed = true
      timer:start(WATCH_MS, 0, stop)
    end,
    stop = stop,
  }
end

--- Prepares and arms a watch at once (see prepare).
---@param path string
function M.watch(path)
  local w = M.prepare(path)
  if w then
    w.arm()
  end
end

--- The buffers check() reloaded since the last call, each returned once:
--- { buf, tick = b:changedtick after the reload, age_ms = how long ago }.
---@return table[]
function M.take_fresh()
  local now, out = vim.uv.now(), {}
  for buf, r in pairs(fresh) do
    if vim.api.nvim_buf_is_valid(buf) then
      table.insert(out, { buf = buf, tick = r.tick, age_ms = now - r.at })
    end
  end
  fresh = {}
  return out
end

--- Turns the automatic checks on or off (the server starts/stops them).
---@param on boolean
function M.enable(on)
  local group = vim.api.nvim_create_augroup(GROUP, { clear = true })
  if not on then
    return
  end
  -- Claude works while the user is in its terminal; look when they leave.
  vim.api.nvim_create_autocmd({ "FocusGained", "TermLeave", "BufEnter" }, {
    group = group,
    -- A reload from inside this callback fires the buffer's BufReadPost
    -- (linters, filetype, the user's own) only when nested: without it the
    -- text changed and nothing looked at it.
    nested = true,
    desc = "claude.nvim: pick up files Claude changed",
    callback = function()
      if vim.bo.buftype ~= "terminal" then
        M.check()
      end
    end,
  })
end

return M
