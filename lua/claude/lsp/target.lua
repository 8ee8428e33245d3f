-- Where a language-server question is asked: the file (only one of the
-- workspace, loaded into a buffer if it is not, so its server attaches),
-- the position (a 1-based line and a symbol's name or a 1-based column in
-- characters, as a model counts them) and the text of the lines the
-- answers name. Every refusal is one line the model can act on.
local M = {}

local buffers = require("claude.buffers")

local new_api = vim.fn.has("nvim-0.11") == 1

-- A file larger than this is not read for the lines quoted in answers.
local MAX_READ_BYTES = 4 * 1024 * 1024
-- How much of a file not loaded is read to tell whether it is binary.
local SNIFF_BYTES = 8192

--- The workspace's directories as real paths: Neovim's working
--- directories and those of the terminal sessions.
function M.folders()
  local dirs = require("claude.tools").workspace_folders()
  for _, s in ipairs(require("claude.sessions").list()) do
    if s.cwd then
      table.insert(dirs, s.cwd)
    end
  end
  local out, seen = {}, {}
  for _, d in ipairs(dirs) do
    local real = vim.uv.fs_realpath(d)
    if real and not seen[real] then
      seen[real] = true
      table.insert(out, real)
    end
  end
  return out
end

--- path's real path when it is in the workspace (links resolved: a link
--- out of it is out), else nil.
function M.inside(path, folders)
  local real = vim.uv.fs_realpath(path)
  if not real then
    return nil
  end
  for _, dir in ipairs(folders or M.folders()) do
    if real == dir or vim.startswith(real, dir == "/" and dir or (dir .. "/")) then
      return real
    end
  end
  return nil
end

--- An absolute, normalized path (relative ones are from the working
--- directory).
function M.absolute(path)
  local abs = vim.fs.normalize(vim.fn.fnamemodify(path, ":p")):gsub("(.)/$", "%1")
  return abs
end

-- Whether the first bytes of a file hold a NUL: no language server reads it.
local function binary(path)
  local f = io.open(path, "rb")
  if not f then
    return false
  end
  local head = f:read(SNIFF_BYTES) or ""
  f:close()
  return head:find("\0", 1, true) ~= nil
end

-- Servers commonly used for a filetype, for the answer that none runs.
local KNOWN = {
  go = "gopls", gomod = "gopls", lua = "lua_ls", python = "pyright, basedpyright or pylsp",
  typescript = "ts_ls or vtsls", javascript = "ts_ls or vtsls", typescriptreact = "ts_ls or vtsls",
  javascriptreact = "ts_ls or vtsls", rust = "rust_analyzer", c = "clangd", cpp = "clangd", objc = "clangd",
  java = "jdtls", ruby = "ruby_lsp or solargraph", php = "intelephense or phpactor", sh = "bashls",
  bash = "bashls", zig = "zls", haskell = "hls", ocaml = "ocamllsp", elixir = "elixirls", cs = "omnisharp",
  kotlin = "kotlin_language_server", swift = "sourcekit", scala = "metals", nix = "nil_ls or nixd",
  terraform = "terraformls", yaml = "yamlls", json = "jsonls", html = "html", css = "cssls", vue = "volar",
  svelte = "svelte", dart = "dartls", tex = "texlab", markdown = "marksman",
}

--- The one line saying no server is attached to buf's file, and which
--- would answer for its filetype.
function M.no_server(buf, path)
  local ft = vim.bo[buf].filetype
  if ft == "" then
    ft = vim.filetype.match({ buf = buf }) or "" -- filetype detection is off
  end
  if ft == "" then
    return string.format("No language server is attached to %s, and Neovim knows no filetype for it.", path)
  end
  local known = KNOWN[ft]
  local which = known and string.format("a %s server such as %s would answer for it", ft, known)
    or string.format("a language server for %s would answer for it", ft)
  return string.format("No language server is attached to %s (filetype %s): %s, once the user starts it in Neovim.", path, ft, which)
end

--- Opens the file of a question: { buf, path, loaded_now } or nil and the
--- one-line reason. A file of the workspace that no buffer holds is
--- loaded (unlisted), which starts its language server the way the user
--- set Neovim up; a file outside the workspace is never read.
function M.open(path, folders)
  local abs = M.absolute(path)
  local stat = vim.uv.fs_stat(abs)
  local buf = buffers.find_buf(abs)
  if not stat and not (buf and vim.api.nvim_buf_is_loaded(buf)) then
    return nil, string.format("%s does not exist (paths are absolute or relative to %s).", abs, vim.fn.getcwd())
  end
  if stat and stat.type == "directory" then
    return nil, string.format("%s is a directory; name a file in it.", abs)
  end
  -- A buffer of a file not written yet is judged by its directory.
  if not M.inside(stat and abs or vim.fs.dirname(abs), folders) then
    return nil, string.format("%s is outside the workspace (%s); the editor's language servers are asked about its files only.", abs, table.concat(folders or M.folders(), ", "))
  end
  local loaded_now = false
  if not (buf and vim.api.nvim_buf_is_loaded(buf)) then
    if binary(abs) then
      return nil, string.format("%s is a binary file; no language server reads it.", abs)
    end
    buf = buf or vim.fn.bufadd(abs)
    -- bufload asks nothing (an existing swap file is passed over); its
    -- autocommands set the filetype, which starts the file's server.
    local ok, err = pcall(vim.fn.bufload, buf)
    if not ok then
      return nil, string.format("%s could not be loaded: %s", abs, tostring(err))
    end
    loaded_now = true
  elseif vim.bo[buf].binary then
    return nil, string.format("%s is a binary file; no language server reads it.", abs)
  end
  return { buf = buf, path = abs, loaded_now = loaded_now }
end

--- Characters of encoding ("utf-8", "utf-16", "utf-32") before byte b of s.
function M.char_index(s, b, encoding)
  b = math.max(0, math.min(b, #s))
  if encoding == "utf-8" then
    return b
  end
  if new_api then
    return vim.str_utfindex(s, encoding, b, false)
  end
  local ok, u32, u16 = pcall(vim.str_utfindex, s, b)
  if not ok then
    return b
  end
  return encoding == "utf-16" and u16 or u32
end

--- The byte of s where character c (of encoding) starts; the end of s
--- past it.
function M.byte_index(s, c, encoding)
  c = math.max(0, c)
  if encoding == "utf-8" then
    return math.min(c, #s)
  end
  if new_api then
    return vim.str_byteindex(s, encoding, c, false)
  end
  local ok, b = pcall(vim.str_byteindex, s, c, encoding == "utf-16")
  return ok and b or #s
end

-- The byte where name starts on line s: as a whole word first, else
-- anywhere; nil when it is not there.
local function find_symbol(s, name)
  local from = 1
  while true do
    local a, b = s:find(name, from, true)
    if not a then
      break
    end
    local before, after = s:sub(a - 1, a - 1), s:sub(b + 1, b + 1)
    if not before:match("[%w_]") and not after:match("[%w_]") then
      return a - 1
    end
    from = a + 1
  end
  local a = s:find(name, 1, true)
  return a and (a - 1) or nil
end

-- The word (identifier) at byte b of s, or "".
local function word_at(s, b)
  local a = b + 1
  while a > 1 and s:sub(a - 1, a - 1):match("[%w_]") do
    a = a - 1
  end
  local e = b
  while e < #s and s:sub(e + 1, e + 1):match("[%w_]") do
    e = e + 1
  end
  return s:sub(a, e)
end

--- The position of a question in buf: { row (0-based), byte, line, col
--- (1-based characters), symbol } or nil and the one-line reason.
function M.position(buf, path, q)
  local count = vim.api.nvim_buf_line_count(buf)
  if q.line > count then
    return nil, string.format("Line %d is past the end of %s, which has %d lines.", q.line, path, count)
  end
  local row = q.line - 1
  local s = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ""
  local byte
  if q.symbol and q.symbol ~= "" then
    byte = find_symbol(s, q.symbol)
    if not byte then
      return nil, string.format("`%s` is not on line %d of %s, which reads: %s", q.symbol, q.line, path, vim.trim(s))
    end
  else
    local chars = M.char_index(s, #s, "utf-32")
    if q.column > chars + 1 then
      return nil, string.format("Column %d is past the end of line %d of %s, which has %d characters: %s", q.column, q.line, path, chars, vim.trim(s))
    end
    byte = M.byte_index(s, q.column - 1, "utf-32")
  end
  return {
    row = row,
    byte = byte,
    line = q.line,
    col = M.char_index(s, byte, "utf-32") + 1,
    text = s,
    symbol = (q.symbol and q.symbol ~= "") and q.symbol or word_at(s, byte),
  }
end

--- Reads lines of files for the answers, each file once per question: a
--- loaded buffer's, else a workspace file's from disk (never a file
--- outside the workspace, nor one over MAX_READ_BYTES).
function M.line_reader(folders)
  local files = {}
  return function(path, row)
    local f = files[path]
    if f == nil then
      f = false
      local buf = buffers.find_buf(path)
      -- Outside the workspace only the server's place is shown, even for
      -- a file the user has open.
      local inside = M.inside(path, folders) ~= nil
      if inside and buf and vim.api.nvim_buf_is_loaded(buf) then
        f = { buf = buf }
      elseif inside then
        local stat = vim.uv.fs_stat(path)
        if stat and stat.type == "file" and stat.size <= MAX_READ_BYTES and not binary(path) then
          local ok, lines = pcall(vim.fn.readfile, path)
          f = ok and { lines = lines } or false
        end
      end
      files[path] = f
    end
    if not f then
      return nil
    end
    if f.buf then
      return vim.api.nvim_buf_get_lines(f.buf, row, row + 1, false)[1]
    end
    return f.lines[row + 1]
  end
end

return M
