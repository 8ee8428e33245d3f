-- :Claude changes: the change ledger's turns, newest first, with the files
-- each changed. The Go host does the git work off the main loop and answers
-- through handlers.changes_reply (reply below); this buffer only shows it.
-- <CR> on a file opens before -> now as a Neovim diff (changes/diff.lua);
-- X reverts the file, or on a turn's line the whole turn.
local M = {}

local notify = require("claude.notify")
local show = require("claude.changes.names").show

local state = {
  troubles = {}, -- workspace root -> why its last turn was not recorded
  buf = nil,
  cwd = nil, -- the workspace the list shows (the directory it was asked for)
  listing = nil, -- the host's answer: { root, repository, turns }
  rows = {}, -- line -> { turn = turn, file = file|nil, open = shown|nil }
  expanded = {}, -- turn id -> whether its files show (the newest's do unless closed)
  show_empty = false, -- whether turns that changed nothing show (a)
  scope = "", -- "" for the turns, or "session", "uncommitted", "branch" (s cycles)
  armed = nil, -- the turn id whose revert X asked to confirm with a second X
}

local function request(op, cwd, turn, path, key, why)
  return require("claude.host").request_changes(op, cwd, turn, path, key, why)
end

--- Opens the list for cwd's workspace (Neovim's working directory when
--- nil); it fills in when the host answers.
function M.open(cwd, scope)
  cwd = cwd or vim.fn.getcwd()
  state.cwd = cwd
  if scope then
    state.scope = scope
  end
  M.show_buffer()
  request("list", cwd, state.scope)
end

-- The scopes s cycles through, and how the header names each.
local SCOPES = { "", "session", "uncommitted", "branch" }
local SCOPE_NAMES = {
  [""] = "each turn",
  session = "the newest session",
  uncommitted = "not committed: HEAD -> now",
  branch = "the branch: merge base -> now",
}

--- The scopes :Claude changes takes (for completion).
function M.scopes()
  return { "turns", "session", "uncommitted", "branch" }
end

local function next_scope()
  for i, scope in ipairs(SCOPES) do
    if scope == state.scope then
      return SCOPES[i % #SCOPES + 1]
    end
  end
  return ""
end

local function status_text(file)
  local counts = file.binary and "binary" or string.format("+%d -%d", file.added, file.deleted)
  if file.too_large then
    counts = "too large to record: not reverted (changes.max_file_mb)"
  end
  local name = show(file.path)
  if file.old_path and file.old_path ~= "" then
    name = show(file.old_path) .. " -> " .. name
  end
  local saved = file.user_saved and "  (you saved it during the turn: revert it hunk by hunk)" or ""
  local reverted = ""
  if file.reverted then
    reverted = "  (reverted)"
  elseif (file.reverted_hunks or 0) > 0 then
    reverted = string.format("  (%d of %d hunks reverted)", file.reverted_hunks, file.hunks)
  end
  return string.format("    %s %s  %s%s%s", file.status, name, counts, saved, reverted)
end

local function first_line(text)
  local line = (text or ""):match("^[^\n]*") or ""
  return line ~= "" and line or "(no prompt)"
end

local function render()
  local buf = state.buf
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    return
  end
  local l = state.listing
  local lines, rows = {}, {}
  if not l then
    lines = { "Claude's changes: asking the host..." }
  else
    table.insert(lines, string.format("Claude's changes in %s%s   (g? for keys)", vim.fn.fnamemodify(l.root, ":~"), l.repository and "" or " (not a git repository: the files Claude's file tools named)"))
    table.insert(lines, "Scope: " .. SCOPE_NAMES[l.scope or ""] .. "   (s: next scope)")
    if l.trouble and l.trouble ~= "" then
      table.insert(lines, "! The last turn was NOT recorded: " .. first_line(l.trouble))
    end
    if #l.turns == 0 then
      table.insert(lines, "")
      table.insert(lines, "No turn recorded yet: the turns of a Claude started by this plugin (:Claude open, :ClaudeChat) show here.")
    end
    -- Turns that changed nothing (a question, a review) hide unless asked for: the
    -- list is about changes. A running turn always shows.
    local turns, hidden = {}, 0
    for _, turn in ipairs(l.turns) do
      if state.show_empty or turn.running or #turn.files > 0 then
        table.insert(turns, turn)
      else
        hidden = hidden + 1
      end
    end
    if hidden > 0 then
      table.insert(lines, string.format("(%d turn%s that changed nothing hidden: a shows them)", hidden, hidden == 1 and "" or "s"))
    end
    for i, turn in ipairs(turns) do
      -- The newest turn shows its files; the others are one line each until
      -- <CR> opens them: a list of hundreds of turns of thousands of files
      -- stays quick to draw.
      local open = state.expanded[turn.id]
      if open == nil then
        open = i == 1
      end
      table.insert(lines, "")
      local where = turn.source ~= "" and ("  [" .. turn.source .. "]") or ""
      local running = turn.running and "  (running)" or ""
      local fold = open and "" or string.format("  (%d file%s: <CR> shows them)", #turn.files, #turn.files == 1 and "" or "s")
      -- A scope (uncommitted, branch) is no turn: it has no start, it is now.
      local when = (turn.started or 0) > 0 and os.date("%Y-%m-%d %H:%M", turn.started) or "now"
      table.insert(lines, string.format("%-16s  %s%s%s%s", when, first_line(turn.prompt), where, running, #turn.files > 0 and fold or ""))
      rows[#lines] = { turn = turn, open = open }
      if open then
        if not turn.running and #turn.files == 0 then
          table.insert(lines, "    (no file changed)")
        end
        for _, file in ipairs(turn.files) do
          table.insert(lines, status_text(file))
          rows[#lines] = { turn = turn, file = file }
        end
      end
    end
  end
  state.rows = rows
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
end

-- The list's keys (claude.keys) and what each does, for g?.
local HELP = {
  { "open", "open the file under the cursor: before -> now as a diff;\n      on a turn's line, show or hide its files" },
  { "revert", "revert the file under the cursor; on a turn's line, twice reverts the whole turn" },
  { "revert_why", "as revert, and tell Claude why (it hears the reason at the next prompt)" },
  { "empty", "show or hide the turns that changed nothing" },
  { "scope", "next scope: each turn, the newest session, not committed (HEAD), the branch" },
  { "refresh", "refresh" },
  { "list_close", "close" },
}

local function help_lines()
  local lines = {}
  for _, h in ipairs(HELP) do
    local lhs = require("claude.keys").lhs("changes." .. h[1])
    if lhs then
      table.insert(lines, string.format("%-5s %s", lhs, h[2]))
    end
  end
  table.insert(lines, "In the diff (see :help claude-changes-keys): revert hunk, mark reviewed,")
  table.insert(lines, "revert file, revert turn; ]c and [c move between hunks.")
  return lines
end

--- The row under the cursor in the list: { turn, file|nil } or nil.
function M.row()
  return state.rows[vim.api.nvim_win_get_cursor(0)[1]]
end

--- Reverts the file under the cursor, or on a turn's line the turn; with
--- why, Claude hears it with the revert note.
function M.revert_under_cursor(why)
  local row = M.row()
  if not row or not state.listing then
    notify.info("claude.nvim: no turn or file under the cursor")
    return
  end
  local root = state.listing.root
  if row.file then
    if not require("claude.changes.guard").refuse_modified(root, { row.file.path }) then
      request("revert_file", state.cwd, row.turn.id, row.file.path, nil, why)
    end
    return
  end
  if #row.turn.files == 0 then
    notify.info("claude.nvim: this turn changed no file")
    return
  end
  -- A whole turn is many files at once: the first X asks, a second X on the same turn
  -- reverts (any other key or line forgets the question).
  if state.armed ~= row.turn.id and not why then
    state.armed = row.turn.id
    notify.info(string.format("claude.nvim: press X again to revert all %d file%s of this turn", #row.turn.files, #row.turn.files == 1 and "" or "s"))
    return
  end
  state.armed = nil
  local paths = {}
  for _, f in ipairs(row.turn.files) do
    table.insert(paths, f.path)
  end
  if not require("claude.changes.guard").refuse_modified(root, paths) then
    request("revert_turn", state.cwd, row.turn.id, nil, nil, why)
  end
end

--- W: asks why, then reverts as X does; Claude hears the reason.
function M.revert_under_cursor_why()
  vim.ui.input({ prompt = "Why take it back (Claude hears it): " }, function(why)
    if why and vim.trim(why) ~= "" then
      M.revert_under_cursor(why)
    end
  end)
end

function M.open_under_cursor()
  local row = M.row()
  if row and not row.file then
    state.expanded[row.turn.id] = not row.open
    render()
    return
  end
  if not row then
    return
  end
  if row.file.binary then
    notify.info("claude.nvim: " .. show(row.file.path) .. " is binary: X reverts it whole (only while it is as Claude left it)")
    return
  end
  request("open", state.cwd, row.turn.id, row.file.path)
end

--- Makes (or shows) the list buffer in the current window.
function M.show_buffer()
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then
    local buf = vim.api.nvim_create_buf(false, true)
    state.buf = buf
    vim.bo[buf].bufhidden = "hide"
    vim.bo[buf].filetype = "claudechanges"
    vim.api.nvim_buf_set_name(buf, "claude://changes")
    local keys = require("claude.keys")
    local function map(name, fn)
      keys.map(buf, "changes." .. name, fn, { nowait = true })
    end
    map("open", M.open_under_cursor)
    map("revert", function()
      M.revert_under_cursor()
    end)
    map("revert_why", M.revert_under_cursor_why)
    map("refresh", function()
      request("list", state.cwd, state.scope)
    end)
    map("scope", function()
      state.scope = next_scope()
      state.listing = nil
      render()
      request("list", state.cwd, state.scope)
    end)
    map("empty", function()
      state.show_empty = not state.show_empty
      render()
    end)
    -- The question X asked about a turn lasts until the cursor leaves its line.
    vim.api.nvim_create_autocmd("CursorMoved", {
      group = vim.api.nvim_create_augroup("ClaudeChangesList", { clear = true }),
      buffer = buf,
      desc = "Claude changes: forget an unconfirmed turn revert",
      callback = function()
        local row = M.row()
        if state.armed and not (row and not row.file and row.turn.id == state.armed) then
          state.armed = nil
        end
      end,
    })
    map("list_close", "<Cmd>close<CR>")
    map("list_help", function()
      vim.api.nvim_echo({ { table.concat(help_lines(), "\n") } }, false, {})
    end)
  end
  local win = vim.fn.bufwinid(state.buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  else
    vim.cmd("botright split")
    vim.api.nvim_win_set_buf(0, state.buf)
  end
  render()
end

-- Reloads the buffers of the reverted files (never one with unsaved edits:
-- reload.check leaves those and says so).
local function reload(paths)
  for _, path in ipairs(paths) do
    local buf = vim.fn.bufnr(path)
    if buf > 0 and vim.api.nvim_buf_is_loaded(buf) then
      require("claude.reload").check(buf)
    end
  end
end

local handle

--- The host's answer to request(op, cwd, ...): result, or err ("" if none).
function M.reply(op, cwd, result, err)
  handle(op, cwd, result, err)
  -- For statuslines and scripts (and the tests): a request was answered.
  vim.api.nvim_exec_autocmds("User", { pattern = "ClaudeChanges", modeline = false, data = { op = op, error = err } })
end

handle = function(op, cwd, result, err)
  if err and err ~= "" then
    notify.warn("claude.nvim: " .. err)
    return
  end
  if op == "list" then
    -- A late answer for another directory or scope is not this list's.
    if cwd == state.cwd and (result.scope or "") == state.scope then
      state.listing = result
      render()
    end
  elseif op == "open" then
    require("claude.changes.diff").show(cwd, result)
  elseif op == "revert_hunk" or op == "revert_file" or op == "revert_turn" then
    reload(result.paths)
    notify.info("claude.nvim: " .. result.what)
    require("claude.changes.diff").reverted(op, result)
    if state.cwd then
      request("list", state.cwd, state.scope)
    end
  elseif op == "review" or op == "unreview" then
    require("claude.changes.diff").reviewed(result, op == "review")
  elseif op == "clear" then
    notify.info("claude.nvim: forgot the recorded changes of " .. vim.fn.fnamemodify(result, ":~"))
    if cwd == state.cwd then
      state.listing = nil
      request("list", cwd, state.scope)
    end
  elseif op == "qf" then
    M.fill_quickfix(result)
  end
end

--- Fills the quickfix list with the unreviewed hunks (one entry each). A
--- name that does not show as plain text (a newline in it) shows escaped,
--- as the list shows it (the entry's module); the entry keeps its real name.
function M.fill_quickfix(marks)
  local items = {}
  for path, list in pairs(marks.files or {}) do
    local module = show(path) ~= path and show(vim.fn.fnamemodify(path, ":~:.")) or nil
    for _, m in ipairs(list) do
      local text = m.kind == "delete" and "Claude deleted lines here"
        or string.format("Claude %s %d line%s", m.kind == "add" and "added" or "changed", m.count, m.count == 1 and "" or "s")
      table.insert(items, { filename = path, module = module, lnum = math.max(m.start, 1), text = text })
    end
  end
  table.sort(items, function(a, b)
    return a.filename == b.filename and a.lnum < b.lnum or a.filename < b.filename
  end)
  vim.fn.setqflist({}, " ", { title = "Claude's unreviewed changes", items = items })
  notify.info(string.format("claude.nvim: %d unreviewed hunk%s in the quickfix list", #items, #items == 1 and "" or "s"))
end

--- The host says the ledger of root could not record a turn (told once per
--- reason), or with reason "" that it records again.
function M.trouble(root, reason)
  if reason == "" then
    if state.troubles[root] then
      notify.info("claude.nvim: Claude's changes in " .. vim.fn.fnamemodify(root, ":~") .. " are recorded again")
    end
    state.troubles[root] = nil
  else
    state.troubles[root] = reason
    notify.warn("claude.nvim: Claude's changes in " .. vim.fn.fnamemodify(root, ":~") .. " are not being recorded: " .. reason)
  end
  vim.cmd("redrawstatus")
end

--- Whether the ledger of the workspace holding dir (Neovim's working
--- directory when nil) failed to record its last turn: for the statusline.
function M.troubled(dir)
  dir = dir or vim.fn.getcwd()
  for root in pairs(state.troubles) do
    if dir == root or vim.startswith(dir, root .. "/") or vim.startswith(root, dir .. "/") then
      return true
    end
  end
  return false
end

--- :Claude changes [qf|clear].
function M.command(arg)
  local cwd = vim.fn.getcwd()
  if arg == nil or arg == "" then
    M.open(cwd)
  elseif arg == "qf" then
    request("qf", cwd)
  elseif arg == "clear" then
    request("clear", cwd)
  elseif vim.tbl_contains(M.scopes(), arg) then
    M.open(cwd, arg == "turns" and "" or arg)
  else
    notify.error("claude.nvim: :Claude changes takes nothing, qf, clear, or a scope (turns, session, uncommitted, branch); got " .. arg)
  end
end

return M
