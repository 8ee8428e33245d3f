-- Generation counters shared with the Go host through a memory page, so the
-- cheap tools (getWorkspaceFolders, getOpenEditors, checkDocumentDirty) can
-- answer from what Go already read, without a round trip, for as long as
-- nothing they depend on changed.
--
-- Why shared memory and not pushed notifications: a push travels through the
-- RPC pipe and then Go's queue of async handlers, so a tool call can reach Go
-- before the push of a change that was complete in Neovim before the call
-- was even sent. A counter bumped in place, synchronously inside the change
-- (its autocmd or on_lines callback), is visible to Go the moment the change
-- is, whatever is still in the pipe. Go compares the counters it read its
-- answer at with the current ones and asks Neovim again when they differ
-- (nvimapi/generation.go).
--
-- The page holds one counter per kind of state (doubles: exact up to 2^53,
-- never wrapping):
--   [0] buffers and windows: the buffer list, names, 'buftype', 'buflisted',
--       'modified', filetypes, line counts, the current and previous window
--   [1] working directories: :cd, :tcd, :lcd, the current window and tab
-- No counter for the cursor: it moves without a synchronous event (an API
-- call's CursorMoved waits for the main loop, and none fires while the user
-- is in the command line), so getCurrentSelection always reads the window's
-- state and reuses only the selected text (nvimapi/current.go).
-- Only Neovim writes; a store of an aligned double is one machine store.
--
-- One hole remains, and Go closes it: a remote-plugin autocmd (the host's
-- DirChanged) and ours for the same event run one after the other, so the
-- host's notification can arrive before our bump. Go code reacting to a
-- remote autocmd therefore reads Neovim, never the cache
-- (nvimapi.Editor.ReadWorkspaceFolders).
--
-- Nothing here runs until Go first asks for a cheap tool (M.map): users
-- whose CLI never calls them pay nothing.
local M = {}

local BUFFERS, DIRS = 0, 1

-- Every page a Go process mapped (normally one; a restarted host maps a new
-- one and the old costs a store per change until Neovim exits).
local pages = {}
local refused -- why the last M.map refused, for :checkhealth
local attached = {} -- buf -> true while our on_lines is attached

local function bump(slot)
  for i = 1, #pages do
    local p = pages[i]
    p[slot] = p[slot] + 1
  end
end

--- The counters now, for Go to label what it reads in the same call.
function M.now()
  local p = pages[1]
  if not p then
    return { -1, -1 }
  end
  return { p[BUFFERS], p[DIRS] }
end

-- Line counts change with every edit, and no autocmd fires synchronously
-- for an edit made through the API (TextChanged waits for the main loop):
-- on_lines does. Every buffer is attached from its creation (BufNew), shown
-- or not, loaded or not: a buffer made with nvim_create_buf and filled
-- through the API is never shown and is in getOpenEditors all the same. An
-- edit bumps only while the buffer holds a file (it may become one later:
-- its name or 'buftype' changing bumps then). A terminal detaches at its
-- first output: Claude's prints all the time and is in no answer.
local function attach(buf)
  if attached[buf] or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local tools = require("claude.buffers")
  local ok = pcall(vim.api.nvim_buf_attach, buf, false, {
    on_lines = function()
      if tools.bufopt(buf, "buftype") == "terminal" then
        attached[buf] = nil
        return true
      end
      if tools.is_file_buf(buf) then
        bump(BUFFERS)
      end
    end,
    on_reload = function()
      bump(BUFFERS)
    end,
    on_detach = function()
      attached[buf] = nil
    end,
  })
  if ok then
    attached[buf] = true
  end
end

local function install()
  local group = vim.api.nvim_create_augroup("ClaudeGeneration", { clear = true })
  local function on(events, slots, opts)
    opts = opts or {}
    opts.group = group
    opts.desc = "claude.nvim: tell the host its cached tool answers are out of date"
    opts.callback = function(ev)
      for _, slot in ipairs(slots) do
        bump(slot)
      end
      if ev.event == "BufNew" or ev.event == "BufReadPost" or ev.event == "BufWinEnter" then
        attach(ev.buf) -- BufReadPost, BufWinEnter: again after an unload detached it
      end
    end
    vim.api.nvim_create_autocmd(events, opts)
  end
  on({
    "BufAdd",
    "BufNew",
    "BufDelete",
    "BufWipeout",
    "BufUnload",
    "BufReadPost",
    "BufNewFile",
    "BufFilePost",
    "BufModifiedSet",
    "BufWritePost",
    "FileType",
    "BufWinEnter",
    "BufWinLeave",
    "WinNew",
    "WinClosed",
    "TabClosed",
    "TermOpen",
  }, { BUFFERS })
  on({ "BufEnter", "WinEnter", "TabEnter" }, { BUFFERS, DIRS })
  on({ "DirChanged", "TabNew" }, { DIRS })
  on("OptionSet", { BUFFERS }, { pattern = { "buftype", "buflisted", "diff", "winfixbuf", "modified" } })
  -- While 'eventignore' hides events nothing above counts; anything may
  -- have changed meanwhile, so its change back (which OptionSet sees)
  -- counts as every change.
  on("OptionSet", { BUFFERS, DIRS }, { pattern = { "eventignore", "eventignorewin" } })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    attach(buf)
  end
end

--- Maps the page Go created at path (4096 bytes, every block allocated, on
--- Linux a sealed memfd: nvimapi/generation_unix.go) and starts counting.
--- Returns false and why when this Neovim cannot (no LuaJIT FFI, Windows)
--- or must not (CLAUDE_NVIM_TOOL_CACHE=0): Go then asks every time.
---@param path string
function M.map(path)
  if vim.env.CLAUDE_NVIM_TOOL_CACHE == "0" then
    refused = "turned off by CLAUDE_NVIM_TOOL_CACHE=0"
    return { ok = false, why = refused }
  end
  if jit == nil or jit.os == "Windows" then
    refused = "needs LuaJIT on a Unix system"
    return { ok = false, why = refused }
  end
  local ffi = require("ffi")
  -- Another plugin may have declared mmap already: then its declaration
  -- is the one we call (same C function).
  pcall(ffi.cdef, "void *mmap(void *addr, size_t length, int prot, int flags, int fd, int64_t offset);")
  local fd, err = vim.uv.fs_open(path, "r+", 384)
  if not fd then
    refused = err
    return { ok = false, why = err }
  end
  local PROT_READ_WRITE, MAP_SHARED = 3, 1 -- the same values on Linux and macOS
  local ok, mem = pcall(ffi.C.mmap, nil, 4096, PROT_READ_WRITE, MAP_SHARED, fd, 0)
  vim.uv.fs_close(fd) -- the mapping outlives the descriptor
  if not ok or mem == nil or ffi.cast("intptr_t", mem) == -1 then
    refused = "mmap failed"
    return { ok = false, why = refused }
  end
  table.insert(pages, 1, ffi.cast("double *", mem))
  if #pages == 1 then
    install()
  end
  return { ok = true, pid = vim.fn.getpid() }
end

--- For :checkhealth: whether a page is mapped, else why the last attempt
--- was refused (nil when the host never asked, or failed on its side).
function M.status()
  return { active = #pages > 0, why = refused }
end

--- getWorkspaceFolders' state and the counters it was read at.
function M.folders()
  return { gen = M.now(), dirs = require("claude.tools").workspace_folders() }
end

--- getOpenEditors' and checkDocumentDirty's state: the open editors, and
--- every file buffer's name and 'modified' in buffer order (find_buf's).
function M.buffers()
  local tools = require("claude.tools")
  local files = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if tools.is_file_buf(buf) then
      table.insert(files, { path = vim.api.nvim_buf_get_name(buf), dirty = tools.bufopt(buf, "modified") == 1 })
    end
  end
  return { gen = M.now(), editors = tools.open_editors(), files = files }
end

return M
