-- :Claude send and :Claude add: tell Claude about a file or some lines of
-- it. The CLI types `@file#L3-7` into its prompt; the user presses Enter.
local M = {}

local function notify_error(msg)
  require("claude.notify").error(msg)
end

-- Mentions go to the CLI in the Claude terminal: bring it up so the user
-- sees the mention land (and can press Enter). If none runs yet, opening it
-- starts one; the server queues the mention until that CLI connects.
local function show_claude()
  local terminal = require("claude.terminal")
  if terminal.elsewhere() and terminal.clients() > 0 then
    return -- in the user's own terminal (terminal.provider)
  elseif terminal.is_running() then
    terminal.focus(true) -- the user goes on typing the prompt after it
  elseif terminal.clients() == 0 then
    terminal.open(nil, true)
  end
end

local function mention(path, line1, line2)
  if require("claude.chat").take_mention(path, line1, line2) then -- a chat open in this tab takes it
    return true
  end
  -- With a remote connected and no Claude terminal here, the mention is
  -- the remote CLI's (the host maps it, or refuses a path outside the map).
  local remote_only = require("claude.remote").any_connected() and not require("claude.terminal").is_running()
  if not remote_only and not require("claude.terminal").ensure_server() then
    return false
  end
  local lo, hi = vim.NIL, vim.NIL
  if line1 then
    lo = line1 - 1
    hi = (line2 or line1) - 1
    if hi < lo then
      lo, hi = hi, lo
    end
  end
  require("claude.host").send_mention(path, lo, hi)
  if remote_only then
    return true
  end
  local connected = require("claude.terminal").clients() > 0
  if not connected and require("claude.terminal").is_running() then
    -- The server keeps it for the CLI; say so rather than seem to drop it.
    require("claude.notify").info("Claude is not connected yet: the mention goes to it when it connects")
  end
  show_claude()
  return true
end

--- Mentions lines of a buffer's file (the whole file without a range).
---@param buf integer 0 for the current buffer
---@param line1 integer|nil 1-based
---@param line2 integer|nil 1-based
--- The lines of a Visual selection still up, and leaves Visual mode: a
--- <Cmd> mapping in Visual mode runs a command with no range while the
--- selection is up, where ":" would have given the range.
---@return integer|nil line1
---@return integer|nil line2
function M.visual_lines()
  local mode = vim.api.nvim_get_mode().mode
  if mode == "v" or mode == "V" or mode == "\22" then
    local line1, line2 = vim.fn.line("v"), vim.fn.line(".")
    vim.api.nvim_feedkeys(vim.keycode("<Esc>"), "nx", false)
    return line1, line2
  end
  return nil, nil
end

function M.send_buffer(buf, line1, line2)
  buf = buf == 0 and vim.api.nvim_get_current_buf() or buf
  if not line1 then
    line1, line2 = M.visual_lines()
  end
  if not require("claude.buffers").is_file_buf(buf) then
    notify_error("this buffer is not a file; :Claude send works in file buffers (use :Claude add {path} for others)")
    return false
  end
  return mention(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p"), line1, line2)
end

--- Mentions a file or directory by path.
---@param path string
---@param line1 integer|nil 1-based
---@param line2 integer|nil 1-based
function M.send_path(path, line1, line2)
  if not path or path == "" then
    notify_error(":Claude add needs a path")
    return false
  end
  -- `%` and `#` arrive expanded to their buffer's name: for Claude's
  -- terminal and other buffers that are no file (term://, fugitive://)
  -- that is a URL, not a path.
  if path:find("://", 1, true) then
    local buf = vim.fn.bufnr("^" .. vim.fn.escape(path, "\\^$.*[]~") .. "$")
    local what = buf > 0 and vim.b[buf].claude_terminal and "Claude's terminal" or path
    notify_error(string.format("%s is not a file; use :Claude add {path}", what))
    return false
  end
  local abs = vim.fn.fnamemodify(vim.fn.expand(path), ":p")
  local stat = vim.uv.fs_stat(abs)
  if not stat then
    notify_error("no such file or directory: " .. path)
    return false
  end
  if stat.type == "directory" then
    if line1 then
      notify_error("a directory has no lines: " .. path)
      return false
    end
    abs = abs:gsub("/+$", "")
    if abs == vim.fs.normalize(require("claude.terminal").cwd() or vim.fn.getcwd()) then
      -- The CLI mentions paths relative to its own directory: this one
      -- would be a bare "@".
      notify_error(path .. " is Claude's working directory: Claude sees all of it already; add a file or a subdirectory")
      return false
    end
    abs = abs .. "/"
  else
    abs = abs:gsub("/+$", "")
  end
  return mention(abs, line1, line2)
end

--- :Claude add @qf (and :Claude send @qf): the editor's state as a block of
--- context (claude.context) in Claude's input, where the user sees it
--- before sending: the chat's input when a chat is open in this tab page,
--- else the terminal CLI's prompt (as a paste; nothing is submitted).
---@param token string "@qf", "@term", "@diag", "@diag:FILE", "@hunks:FILE", "@buffers"
function M.send_context(token)
  local block, why = require("claude.context").expand(token)
  if not block then
    notify_error(token .. ": " .. why)
    return false
  end
  return require("claude.prompt").type(block .. "\n", false, true)
end

--- Whether a :Claude add argument names editor context rather than a path.
function M.is_context(arg)
  return arg ~= nil and require("claude.context").is_token(arg)
end

--- Completion of :Claude add and :Claude send: the editor's context after @,
--- else file names.
function M.complete(arglead)
  if vim.startswith(arglead, "@") then
    local context = require("claude.context")
    local out = {}
    for _, t in ipairs(context.tokens(context.current_file())) do
      if vim.startswith(t[1], arglead) then
        table.insert(out, t[1])
      end
    end
    return out
  end
  return vim.fn.getcompletion(arglead, "file")
end

--- :Claude add with no path: the entries on lines line1..line2 of the file
--- explorer in buf (netrw), each as a mention.
---@param buf integer 0 for the current buffer
---@param line1 integer
---@param line2 integer
function M.send_explorer(buf, line1, line2)
  buf = buf == 0 and vim.api.nvim_get_current_buf() or buf
  local explorer = require("claude.explorer")
  if not explorer.is_explorer(buf) then
    notify_error("usage: :Claude add {path} [start-line] [end-line] (without a path only in a file explorer: netrw, oil, nvim-tree, neo-tree, mini.files, the snacks explorer)")
    return false
  end
  local paths, err = explorer.paths(buf, math.min(line1, line2), math.max(line1, line2))
  if not paths then
    notify_error(err)
    return false
  end
  for _, path in ipairs(paths) do
    if not M.send_path(path) then
      return false
    end
  end
  return true
end

return M
