-- :Claude add without a path in a file explorer: the file or directory on
-- the cursor's line, or on each line of the range (a Visual selection),
-- or the entries the explorer has marked (netrw's and nvim-tree's marks,
-- the snacks picker's selection) when the command names a single line.
--
-- An explorer is known by its buffer's filetype and read through what it
-- shows (netrw) or its public API; none of them is a dependency: a tree
-- that is not installed is never asked.
local M = {}

-- A reader reads one explorer: entry(buf, lnum) -> path|nil, err for the
-- entry a line shows (nil: none there), and, where the explorer has marks,
-- marked(buf) -> paths (empty: none marked).

-- netrw's thin listing (the default, g:netrw_liststyle 0): one entry a
-- line, directories ending in "/", executables in "*", links in "@" and
-- " --> target"; the banner's lines start with a double quote.
local function netrw_entry(buf, lnum)
  local style = vim.b[buf].netrw_liststyle or vim.g.netrw_liststyle or 0
  if style ~= 0 then
    return nil, "netrw's thin listing only (press i to switch); or use :Claude add {path}"
  end
  local line = vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ""
  local name = line:gsub("\t%s*%-%->.*$", ""):gsub("[*@=|]$", "")
  if name == "" or name:sub(1, 1) == '"' or name == "./" or name == "../" then
    return nil
  end
  return vim.fs.joinpath(vim.b[buf].netrw_curdir, name)
end

-- netrw's marked files (mf, mr), every directory's: full paths, marked
-- directories ending in "/". netrw keeps them script-local; netrw#Expose
-- is how it hands them out ("n/a" when nothing was ever marked).
local function netrw_marked()
  local ok, list = pcall(vim.fn["netrw#Expose"], "netrwmarkfilelist")
  if not ok or type(list) ~= "table" then
    return {}
  end
  local out = {}
  for _, path in ipairs(list) do
    if type(path) == "string" and path ~= "" then
      table.insert(out, path)
    end
  end
  return out
end

-- The module an explorer's API lives in, or nil and an error naming it.
local function api(module, plugin)
  local ok, mod = pcall(require, module)
  if not ok or type(mod) ~= "table" then
    return nil, plugin .. "'s API (" .. module .. ") is not available; use :Claude add {path}"
  end
  return mod
end

-- oil.nvim: each line an entry of the directory the buffer shows. Lines
-- typed but not saved yet name nothing on disk.
local function oil_entry(buf, lnum)
  local oil, err = api("oil", "oil.nvim")
  if not oil then
    return nil, err
  end
  local dir = oil.get_current_dir(buf)
  if not dir then
    return nil, "oil: only directories on this machine (not ssh or trash); use :Claude add {path}"
  end
  local entry = oil.get_entry_on_line(buf, lnum)
  if not entry or entry.name == ".." then
    return nil
  end
  if not entry.id then
    return nil, "oil: " .. entry.name .. " is not saved yet (:w creates it)"
  end
  return vim.fs.joinpath(dir, entry.name)
end

-- mini.files: each line an entry of the directory its window shows.
local function minifiles_entry(buf, lnum)
  local files, err = api("mini.files", "mini.files")
  if not files then
    return nil, err
  end
  local ok, entry = pcall(files.get_fs_entry, buf, lnum)
  if not ok then
    return nil, "mini.files: " .. tostring(entry)
  end
  return entry and entry.path or nil
end

-- The window showing buf, preferring the current one.
local function window_of(buf)
  if vim.api.nvim_get_current_buf() == buf then
    return vim.api.nvim_get_current_win()
  end
  local win = vim.fn.bufwinid(buf)
  return win > 0 and win or nil
end

-- nvim-tree: its API answers for the line the cursor is on, so the cursor
-- visits the line and comes back.
local function nvimtree_entry(buf, lnum)
  local tree, err = api("nvim-tree.api", "nvim-tree")
  if not tree then
    return nil, err
  end
  local win = window_of(buf)
  if not win then
    return nil, "nvim-tree: its window is not in this tab page"
  end
  local cursor = vim.api.nvim_win_get_cursor(win)
  vim.api.nvim_win_set_cursor(win, { lnum, 0 })
  local ok, node = pcall(tree.tree.get_node_under_cursor)
  vim.api.nvim_win_set_cursor(win, cursor)
  if not ok then
    return nil, "nvim-tree: " .. tostring(node)
  end
  if not node or node.name == ".." then
    return nil
  end
  return node.absolute_path
end

local function nvimtree_marked()
  local tree = api("nvim-tree.api", "nvim-tree")
  local ok, nodes = false, nil
  if tree then
    ok, nodes = pcall(tree.marks.list)
  end
  local out = {}
  for _, node in ipairs(ok and nodes or {}) do
    table.insert(out, node.absolute_path)
  end
  return out
end

-- neo-tree: the state of the source its window shows holds the tree, whose
-- nodes are numbered by line. Messages ("(empty folder)") name no path.
local function neotree_entry(buf, lnum)
  local manager, err = api("neo-tree.sources.manager", "neo-tree")
  if not manager then
    return nil, err
  end
  local win = window_of(buf)
  local state = win and manager.get_state_for_window(win)
  if not state or not state.tree then
    return nil, "neo-tree: no tree shown in this window yet"
  end
  local node = state.tree:get_node(lnum)
  if not node or node.type == "message" or not node.path then
    return nil
  end
  return node.path
end

-- The snacks picker whose list is buf (the explorer is one).
local function snacks_picker(buf)
  local snacks = rawget(_G, "Snacks") or select(2, pcall(require, "snacks"))
  if type(snacks) ~= "table" or not snacks.picker then
    return nil, nil, "snacks.nvim's picker is not available; use :Claude add {path}"
  end
  for _, picker in ipairs(snacks.picker.get({ tab = true })) do
    if picker.list and picker.list.win and picker.list.win.buf == buf then
      return picker, snacks
    end
  end
  return nil, nil, "snacks: no picker shows this list"
end

-- snacks picker (the explorer): the list shows rows of the picker's items
-- from its scroll position on.
local function snacks_entry(buf, lnum)
  local picker, snacks, err = snacks_picker(buf)
  if not picker then
    return nil, err
  end
  local item = picker.list:get(picker.list:row2idx(lnum))
  return item and snacks.picker.util.path(item) or nil
end

local function snacks_marked(buf)
  local picker, snacks = snacks_picker(buf)
  local out = {}
  for _, item in ipairs(picker and picker:selected() or {}) do
    table.insert(out, snacks.picker.util.path(item))
  end
  return out
end

-- By filetype.
local readers = {
  netrw = { entry = netrw_entry, marked = netrw_marked },
  oil = { entry = oil_entry },
  minifiles = { entry = minifiles_entry },
  NvimTree = { entry = nvimtree_entry, marked = nvimtree_marked },
  ["neo-tree"] = { entry = neotree_entry },
  snacks_picker_list = { entry = snacks_entry, marked = snacks_marked },
}

--- Whether buf is a file explorer :Claude add can read.
function M.is_explorer(buf)
  return readers[vim.bo[buf].filetype] ~= nil
end

--- The paths on lines line1..line2 of the explorer in buf; for a single
--- line, the entries the explorer has marked instead, if any.
---@return string[]|nil paths
---@return string|nil error
function M.paths(buf, line1, line2)
  local reader = readers[vim.bo[buf].filetype]
  if not reader then
    return nil, "this buffer is no file explorer :Claude add knows"
  end
  if line1 == line2 and reader.marked then
    local marked = reader.marked(buf)
    if #marked > 0 then
      return marked
    end
  end
  local out = {}
  for lnum = line1, line2 do
    local path, err = reader.entry(buf, lnum)
    if err then
      return nil, err
    end
    if path then
      table.insert(out, path)
    end
  end
  if #out == 0 then
    return nil, "no file or directory on " .. (line1 == line2 and "this line" or "these lines")
  end
  return out
end

return M
