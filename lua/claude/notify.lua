-- What claude.nvim tells the user. Every message goes through here so that
-- none of them can stop the editor on "Press ENTER", raise an error in the
-- middle of a command (a Lua stack trace when lazy.nvim's stub command runs
-- ours), or vanish behind "-- INSERT --" / "-- TERMINAL --".
--
-- A notifier the user installed (nvim-notify, snacks, noice, fidget…)
-- replaces vim.notify and gets every message as it is. With Neovim's own,
-- the message area shows one line (the message, cut to fit) and keeps it in
-- :messages; the whole text shows in a small window at the bottom right
-- when it was cut or when the mode line would hide it.
local M = {}

local PREFIX = "claude.nvim: "
local levels = vim.log.levels

local highlight = {
  [levels.ERROR] = "ErrorMsg",
  [levels.WARN] = "WarningMsg",
}

-- Whether vim.notify is still Neovim's own: defined in its runtime's
-- vim/_editor.lua (0.10), or in runtime code precompiled without debug
-- information, which names no source ("?", 0.12). A replacement comes
-- from a plugin's file or the user's config.
local function builtin_notify()
  local info = debug.getinfo(vim.notify, "S")
  local source = info and info.source or "?"
  return source == "?" or source:find("vim/_editor.lua", 1, true) ~= nil or source:find("vim/_core/", 1, true) ~= nil
end

-- Modes whose mode message ("-- INSERT --") replaces ours at once.
local function mode_hides_messages()
  local mode = vim.api.nvim_get_mode().mode:sub(1, 1)
  return mode == "i" or mode == "R" or mode == "t"
end

-- The text cut to width display cells, with an ellipsis when it was cut.
local function fit(text, width)
  if vim.fn.strdisplaywidth(text) <= width then
    return text, false
  end
  local out = vim.fn.strcharpart(text, 0, math.max(width - 1, 0))
  while vim.fn.strdisplaywidth(out) > width - 1 and #out > 0 do
    out = vim.fn.strcharpart(out, 0, vim.fn.strchars(out) - 1)
  end
  return out .. "…", true
end

-- The floating window showing the latest messages: lines are the
-- messages, { text, highlight, tag }, wrapped as the toast is drawn.
local toast = { win = nil, buf = nil, lines = {}, timer = nil }

-- How long a toast stays: long enough to read it, longer for errors.
local function toast_ms(text, level)
  local base = level == levels.ERROR and 8000 or 4000
  return base + 30 * #text
end

local function close_toast()
  if toast.timer then
    toast.timer:stop()
    toast.timer:close()
    toast.timer = nil
  end
  if toast.win and vim.api.nvim_win_is_valid(toast.win) then
    pcall(vim.api.nvim_win_close, toast.win, true)
  end
  toast.win, toast.lines = nil, {}
end

-- Wraps text into lines of at most width cells, at spaces where it can.
local function wrap(text, width)
  local lines = {}
  for paragraph in (text .. "\n"):gmatch("(.-)\n") do
    local line = ""
    for word in paragraph:gmatch("%S+") do
      local candidate = line == "" and word or (line .. " " .. word)
      if vim.fn.strdisplaywidth(candidate) <= width or line == "" then
        line = candidate
      else
        table.insert(lines, line)
        line = word
      end
    end
    table.insert(lines, line)
  end
  return lines
end

-- The area the toast may take, in editor cells: { bottom, right, width }
-- (bottom row and right column exclusive, width the widest text). The
-- whole editor, above the status and command lines, unless a terminal
-- window is in the tab page: Claude's terminal shows the CLI's own choices
-- at its bottom and must never be hidden, so then the largest window that
-- is no terminal; nil when every window is one (the message area and
-- :messages still have the message).
local function toast_area()
  local bottom = vim.o.lines - vim.o.cmdheight - (vim.o.laststatus > 0 and 1 or 0) - 1
  local best, best_size, terminal = nil, -1, false
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_config(win).relative == "" then
      if vim.bo[vim.api.nvim_win_get_buf(win)].buftype == "terminal" then
        terminal = true
      else
        local w, h = vim.api.nvim_win_get_width(win), vim.api.nvim_win_get_height(win)
        if w * h > best_size then
          best, best_size = win, w * h
        end
      end
    end
  end
  if not terminal then
    return { bottom = math.max(bottom, 1), right = vim.o.columns, width = math.max(20, math.min(80, math.floor(vim.o.columns * 0.6))) }
  end
  if not best or vim.api.nvim_win_get_width(best) < 12 then
    return nil
  end
  local pos = vim.api.nvim_win_get_position(best)
  local w, h = vim.api.nvim_win_get_width(best), vim.api.nvim_win_get_height(best)
  return { bottom = pos[1] + h, right = pos[2] + w, width = math.min(80, w - 2) }
end

local function show_toast(text, level, tag)
  table.insert(toast.lines, { text, highlight[level] or "NormalFloat", tag })
  if #toast.lines > 20 then -- more than a third of any screen shows
    table.remove(toast.lines, 1)
  end
  return M.render_toast(toast_ms(text, level))
end

-- Draws the messages in toast.lines (closing the toast when there are
-- none); ms: how long it stays from now, nil to keep its timer.
function M.render_toast(ms)
  local area = #toast.lines > 0 and toast_area()
  if not area then
    close_toast()
    return #toast.lines == 0
  end
  local lines, newest = {}, 0
  for _, m in ipairs(toast.lines) do
    local wrapped = wrap(m[1], area.width)
    for _, l in ipairs(wrapped) do
      table.insert(lines, { l, m[2] })
    end
    newest = #wrapped
  end
  -- The newest lines, as many as fit in a third of the screen, and the
  -- newest message whole as far as the screen allows.
  local room = math.min(math.max(3, math.floor(vim.o.lines / 3), newest), math.max(vim.o.lines - 6, 3))
  while #lines > room do
    table.remove(lines, 1)
  end
  if not (toast.buf and vim.api.nvim_buf_is_valid(toast.buf)) then
    toast.buf = vim.api.nvim_create_buf(false, true)
    vim.bo[toast.buf].bufhidden = "hide"
  end
  local text_lines, widest = {}, 1
  for _, l in ipairs(lines) do
    table.insert(text_lines, l[1])
    widest = math.max(widest, vim.fn.strdisplaywidth(l[1]))
  end
  vim.api.nvim_buf_set_lines(toast.buf, 0, -1, false, text_lines)
  local ns = vim.api.nvim_create_namespace("claude_notify")
  vim.api.nvim_buf_clear_namespace(toast.buf, ns, 0, -1)
  for i, l in ipairs(lines) do
    vim.api.nvim_buf_add_highlight(toast.buf, ns, l[2], i - 1, 0, -1)
  end
  -- The area's bottom right corner (its border inside the area).
  local config = {
    relative = "editor",
    anchor = "SE",
    row = area.bottom,
    col = area.right,
    width = math.min(widest, area.width),
    height = #text_lines,
    style = "minimal",
    border = "rounded",
    title = " claude.nvim ",
    title_pos = "right",
    focusable = false,
    zindex = 250,
  }
  if toast.win and vim.api.nvim_win_is_valid(toast.win) then
    vim.api.nvim_win_set_config(toast.win, config)
  else
    config.noautocmd = true
    local ok, win = pcall(vim.api.nvim_open_win, toast.buf, false, config)
    if not ok then
      return false
    end
    toast.win = win
    vim.wo[win].wrap = true
  end
  if ms then
    if toast.timer then
      toast.timer:stop()
    else
      toast.timer = vim.uv.new_timer()
    end
    toast.timer:start(ms, 0, vim.schedule_wrap(close_toast))
  end
  return true
end

-- The tag of the message the message area shows now, if it had one.
local echoed_tag

local function display(text, level, tag)
  local hl = highlight[level]
  -- One line only: more would stop Neovim on "Press ENTER".
  local first = text:match("^[^\n]*")
  local line, cut = fit(first, math.max(vim.v.echospace - 1, 10))
  cut = cut or first ~= text
  vim.api.nvim_echo({ { line, hl } }, true, {})
  echoed_tag = tag
  if cut or mode_hides_messages() then
    show_toast(text, level, tag)
  end
end

--- Takes back what the messages notified with opts.tag still show: their
--- lines leave the toast, and the message area is cleared when it shows
--- one (:messages keeps them). A message about something that is over (a
--- proposal answered) must not stay in sight.
---@param tag string
function M.withdraw(tag)
  vim.schedule(function() -- after a message of the same tag still on its way
    local kept = {}
    for _, l in ipairs(toast.lines) do
      if l[3] ~= tag then
        table.insert(kept, l)
      end
    end
    if #kept ~= #toast.lines then
      toast.lines = kept
      M.render_toast()
    end
    if echoed_tag == tag then
      echoed_tag = nil
      vim.api.nvim_echo({ { "" } }, false, {})
    end
  end)
end

--- Tells the user msg at level ("claude.nvim: " is put in front unless
--- msg starts with it). DEBUG and TRACE are not shown.
---@param msg string
---@param level integer|nil vim.log.levels.*, INFO by default
---@param opts? { tag: string } tag: what M.withdraw takes back
function M.notify(msg, level, opts)
  level = level or levels.INFO
  if level < levels.INFO then
    return
  end
  local text = vim.startswith(msg, PREFIX) and msg or (PREFIX .. msg)
  if not builtin_notify() then
    vim.notify(text, level, { title = "claude.nvim" })
    return
  end
  if #vim.api.nvim_list_uis() == 0 then
    -- Nothing is drawn (headless), so nothing can block or be hidden:
    -- keep the whole message, now.
    vim.api.nvim_echo({ { text, highlight[level] } }, true, {})
    return
  end
  -- Outside the command or callback that raised it: messages given there
  -- pile up under the command line and end in "Press ENTER".
  vim.schedule(function()
    display(text, level, opts and opts.tag)
  end)
end

function M.error(msg)
  M.notify(msg, levels.ERROR)
end

function M.warn(msg)
  M.notify(msg, levels.WARN)
end

function M.info(msg, opts)
  M.notify(msg, levels.INFO, opts)
end

--- The lines the message window shows now (tests, :checkhealth).
function M.shown()
  if not (toast.win and vim.api.nvim_win_is_valid(toast.win)) then
    return {}
  end
  return vim.api.nvim_buf_get_lines(toast.buf, 0, -1, false)
end

return M
