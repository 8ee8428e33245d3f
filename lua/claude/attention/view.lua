-- :Claude sessions over the attention list (attention.lua): every terminal
-- and chat session grouped by state, with its workspace, last prompt and
-- how long ago; choosing one goes to what waits there (the diff, the
-- chat's question at the end of its transcript, the terminal in Terminal
-- mode at its prompt). Also :Claude sessions restore, and the autocmds
-- that tell Go where the user looks (WinEnter, BufEnter: one async call,
-- only when the session under the cursor changes) and whether Neovim has
-- the focus.
local M = {}

local attention = require("claude.attention")

local labels = { needs_you = "needs you", working = "working", done = "done", exited = "exited", unreviewed = "unreviewed" }

-- What a session needing the user waits for, in the words the diff and
-- :Claude changes use: an edit is a "review", whatever asked for it.
local kinds = {
  diff = "review",
  permission = "permission",
  question = "question",
  plan = "plan",
  idle = "turn finished, not seen",
}

-- The order of the inbox: what waits for the user first, then what was
-- written and not reviewed, then the rest.
local rank = { needs_you = 1, unreviewed = 2, working = 3, done = 4, exited = 5 }

-- The attention key of buf: its terminal session's or its chat's, or "".
local function key_of(buf)
  for _, s in ipairs(require("claude.sessions").live()) do
    if s.buf == buf then
      return "terminal:" .. s.id
    end
  end
  local name = vim.api.nvim_buf_get_name(buf)
  if name:find("claude", 1, true) and package.loaded["claude.chat"] then
    for _, s in ipairs(attention.all()) do
      local dir = s.key:match("^chat:(.*)$")
      local b = dir and require("claude.chat").buffers(dir)
      if b and (b.transcript == buf or b.input == buf) then
        return s.key
      end
    end
  end
  return ""
end

local told = ""

local function tell_here()
  local key = key_of(vim.api.nvim_get_current_buf())
  if key ~= told then
    told = key
    require("claude.host").tell_attention("here", key)
  end
end

local watching = false

--- Starts the autocmds (once; the first push from Go calls it).
function M.watch()
  if watching then
    return
  end
  watching = true
  local group = vim.api.nvim_create_augroup("ClaudeAttention", { clear = true })
  vim.api.nvim_create_autocmd({ "WinEnter", "BufEnter" }, {
    group = group,
    desc = "claude.nvim: tell the attention list which session the user looks at",
    callback = tell_here,
  })
  vim.api.nvim_create_autocmd("TermClose", {
    group = group,
    desc = "claude.nvim: a terminal's CLI that ended without its SessionEnd hook has exited",
    callback = function(ev)
      local key = key_of(ev.buf)
      if key ~= "" then
        require("claude.host").tell_attention("gone", key)
      end
    end,
  })
  vim.api.nvim_create_autocmd("FocusLost", {
    group = group,
    desc = "claude.nvim: notices go out while Neovim is not focused",
    callback = function()
      attention.set_focused(false)
    end,
  })
  vim.api.nvim_create_autocmd("FocusGained", {
    group = group,
    desc = "claude.nvim: no notices while Neovim is focused",
    callback = function()
      attention.set_focused(true)
    end,
  })
  tell_here()
end

-- "3m ago" from a Unix time.
local function ago(since)
  local d = math.max(0, os.time() - (since or 0))
  if d < 60 then
    return d .. "s ago"
  elseif d < 3600 then
    return math.floor(d / 60) .. "m ago"
  elseif d < 86400 then
    return math.floor(d / 3600) .. "h ago"
  end
  return math.floor(d / 86400) .. "d ago"
end

--- The list's entries: the attention list's sessions, then the terminal
--- sessions it knows nothing of (a CLI whose hooks have not reported).
function M.entries()
  local out = {}
  local known = {}
  for _, s in ipairs(attention.all()) do
    known[s.key] = true
    table.insert(out, vim.tbl_extend("force", {}, s))
  end
  for _, t in ipairs(require("claude.terminal").sessions()) do
    local key = "terminal:" .. t.id
    if not known[key] then
      table.insert(out, { key = key, state = t.running and "done" or "exited", kind = "", cwd = t.cwd or "", prompt = "", since = 0 })
    end
  end
  local current = require("claude.sessions").current()
  for _, e in ipairs(out) do
    e.current = current ~= nil and e.key == "terminal:" .. current.id
  end
  -- Everything written and not reviewed, from every session: one entry a
  -- file (the ledger's signs, claude.changes.signs).
  local signs = package.loaded["claude.changes.signs"]
  for _, f in ipairs(signs and signs.files() or {}) do
    table.insert(out, { key = "file:" .. f.path, state = "unreviewed", kind = "", cwd = f.path, hunks = f.hunks, line = f.line, since = 0 })
  end
  -- Stable: within a state, the order the attention list gave.
  for i, e in ipairs(out) do
    e.order = i
  end
  table.sort(out, function(a, b)
    local ra, rb = rank[a.state] or 9, rank[b.state] or 9
    return ra == rb and a.order < b.order or ra < rb
  end)
  return out
end

--- One line of the list for entry e.
function M.format(e)
  local what = labels[e.state] or e.state
  if e.state == "unreviewed" then
    return string.format(
      "%s · %s · %d hunk%s to review",
      what,
      vim.fn.fnamemodify(e.cwd, ":~:."),
      e.hunks,
      e.hunks == 1 and "" or "s"
    )
  end
  if e.state == "needs_you" and e.kind ~= "" then
    what = what .. " (" .. (kinds[e.kind] or e.kind) .. ")"
  end
  local kind, name = e.key:match("^(%a+):(.*)$")
  local parts = {
    what,
    (kind == "chat" and "chat " or "terminal " .. name .. " ") .. vim.fn.fnamemodify(e.cwd ~= "" and e.cwd or "?", ":~"),
  }
  if e.prompt and e.prompt ~= "" then
    table.insert(parts, '"' .. vim.split(e.prompt, "\n", { plain = true })[1] .. '"')
  end
  if (e.since or 0) > 0 then
    table.insert(parts, ago(e.since))
  end
  if e.current then
    table.insert(parts, "current")
  end
  return table.concat(parts, " · ")
end

-- Goes to terminal session id, in Terminal mode at its prompt, or to its
-- diff when one waits.
local function go_to_terminal(id)
  local terminal = require("claude.terminal")
  if not terminal.go_to(id) then
    require("claude.notify").info("session " .. id .. " is gone")
    return
  end
  if require("claude.diff").waiting(id) > 0 then
    require("claude.diff").focus()
    return
  end
  local s = require("claude.sessions").get(id)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if s and vim.api.nvim_win_get_buf(win) == s.buf then
      vim.api.nvim_set_current_win(win)
      -- Picked to answer its question: the keys go to the CLI.
      require("claude.terminal.window").start_insert()
      return
    end
  end
end

-- Opens dir's chat with the cursor on the line of the question that waits
-- (where <CR> answers it), else at the end of its transcript; an edit under
-- review is answered in its diff, so that goes to the diff.
local function go_to_chat(dir, kind)
  local chat = require("claude.chat")
  chat.open(dir)
  if kind == "diff" and require("claude.diff").count() > 0 then
    require("claude.diff").focus()
    return
  end
  local b = chat.buffers(dir)
  if not b then
    return
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == b.transcript then
      vim.api.nvim_set_current_win(win)
      local lines = vim.api.nvim_buf_get_lines(b.transcript, 0, -1, false)
      local at = #lines
      for i = #lines, 1, -1 do
        if lines[i]:find("waiting for you: <CR>", 1, true) then
          at = i
          break
        end
      end
      vim.api.nvim_win_set_cursor(win, { math.max(at, 1), 0 })
      return
    end
  end
end

--- Goes to entry e's session, or to the first unreviewed change of its file.
function M.go(e)
  local kind, name = e.key:match("^(%a+):(.*)$")
  if kind == "file" then
    vim.cmd.edit(vim.fn.fnameescape(name))
    pcall(vim.api.nvim_win_set_cursor, 0, { e.line or 1, 0 })
  elseif kind == "terminal" then
    go_to_terminal(tonumber(name))
  elseif kind == "chat" then
    go_to_chat(name, e.state == "needs_you" and e.kind or nil)
  end
end

--- :Claude sessions next: goes to the first thing waiting for the user (a
--- review, a permission, a question, a plan), else the first file written
--- and not reviewed. False when nothing waits.
function M.next()
  for _, e in ipairs(M.entries()) do
    if e.state == "needs_you" or e.state == "unreviewed" then
      M.go(e)
      return true
    end
  end
  require("claude.notify").info("nothing waits for you: no review, question or plan, nothing unreviewed")
  return false
end

--- :Claude sessions: picks a session and goes to it.
function M.pick()
  local list = M.entries()
  if #list == 0 then
    require("claude.notify").info("no Claude session (:Claude open or :ClaudeChat starts one; :Claude sessions restore brings last time's back)")
    return
  end
  vim.ui.select(list, { prompt = "Claude sessions", format_item = M.format }, function(choice)
    if choice then
      M.go(choice)
    end
  end)
end

-- Whether the CLI trusts dir (the chat's trust gate, chatctl/trust.go).
local function trusted(dir)
  local args = require("claude.chat.state").start_args(dir)
  if not args then
    return false
  end
  local t = require("claude.host").chat_trust_state({ dir = dir, env = args.env })
  return t ~= nil and t.trusted
end

--- :Claude sessions restore: brings back the sessions last seen in the
--- working directory (and below it): each terminal's conversation in a tab
--- page of its own (`claude --resume`), the chat's resumed. A folder the
--- CLI does not trust is skipped, with a message: nothing of a workspace
--- runs before the user trusts it. Returns how many came back.
--- With no session remembered here, the folders that have some are
--- offered in a picker (M.restore_from). root: restore under this folder
--- instead of the working directory.
function M.restore(root)
  local cwd = vim.fs.normalize(root or vim.fn.getcwd())
  local running = {}
  for _, s in ipairs(attention.all()) do
    if s.state ~= "exited" then
      running[s.conversation] = true
    end
  end
  local remembered = attention.remembered()
  local dirs = {}
  for dir in pairs(remembered) do
    if dir == cwd or vim.startswith(dir, cwd .. "/") then
      table.insert(dirs, dir)
    end
  end
  table.sort(dirs)
  if #dirs == 0 and not root and next(remembered) then
    M.restore_from()
    return 0
  end
  local n, skipped, ok_dirs = 0, {}, {}
  for _, dir in ipairs(dirs) do
    if vim.fn.isdirectory(dir) ~= 1 then
      table.insert(skipped, dir .. " (gone)")
    elseif not trusted(dir) then
      table.insert(skipped, dir .. " (not trusted: open it with :Claude open or :ClaudeChat first)")
    else
      table.insert(ok_dirs, dir)
    end
  end
  -- The chats first, in this tab page; then each terminal in a tab page of
  -- its own.
  for _, dir in ipairs(ok_dirs) do
    local id = remembered[dir].chat
    if type(id) == "string" and id ~= "" and not running[id] then
      local chat = require("claude.chat")
      local found
      for _, c in ipairs(chat.conversations(dir) or {}) do
        if c.id == id then
          found = c
        end
      end
      if not found then
        table.insert(skipped, dir .. " (its chat's conversation is gone)")
      elseif chat.resume(found, dir) then
        n = n + 1
      end
    end
  end
  for _, dir in ipairs(ok_dirs) do
    local ids = {}
    for _, id in pairs(remembered[dir].terminals or {}) do
      if type(id) == "string" and not running[id] and not vim.tbl_contains(ids, id) then
        table.insert(ids, id)
      end
    end
    -- One CLI runs per directory (sessions.lua): the first conversation.
    table.sort(ids)
    if ids[1] then
      vim.cmd.tabnew()
      vim.cmd.tcd(vim.fn.fnameescape(dir))
      if require("claude.terminal").open({ "--resume", ids[1] }) then
        n = n + 1
      end
    end
  end
  local msg = string.format("%d session%s restored", n, n == 1 and "" or "s")
  if #skipped > 0 then
    msg = msg .. "; skipped: " .. table.concat(skipped, ", ")
  end
  require("claude.notify").info(msg)
  return n
end

--- :Claude sessions restore-from: picks one of the folders sessions were
--- last seen in, any folder, and brings its sessions back (M.restore).
function M.restore_from()
  local dirs = {}
  for dir in pairs(attention.remembered()) do
    table.insert(dirs, dir)
  end
  table.sort(dirs)
  if #dirs == 0 then
    require("claude.notify").info("no session remembered in any folder")
    return
  end
  vim.ui.select(dirs, {
    prompt = "Bring back the Claude sessions last seen in:",
    format_item = function(dir)
      return vim.fn.fnamemodify(dir, ":~")
    end,
  }, function(dir)
    if dir then
      M.restore(dir)
    end
  end)
end

return M
