-- executeCode (tools.execute_code): the model's Python, shown in a scratch
-- buffer before it runs in the notebook's Jupyter kernel. Go (nvimapi/code.go)
-- owns the request and the kernels; this module owns the view: it shows the
-- code, and reports the user's answer (:w runs it, :q or closing it refuses).
-- Like a diff, the view opens without taking the cursor: keys being typed
-- elsewhere never land in it, and nothing runs until the user writes it.
local M = {}

local views = {} -- id -> { buf, decided }
local watched = {} -- notebook path -> true: its kernel ends with its buffer

-- jupytext pairs a script with a notebook by name (x.py <-> x.ipynb) or
-- says so in the script's header.
local function paired(buf, name)
  if vim.fn.filereadable(vim.fn.fnamemodify(name, ":r") .. ".ipynb") == 1 then
    return true
  end
  if not vim.api.nvim_buf_is_loaded(buf) then
    return false
  end
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, 30, false)) do
    if line:find("jupytext:", 1, true) then
      return true
    end
  end
  return false
end

local function notebook_of(buf)
  if not vim.api.nvim_buf_is_valid(buf) or vim.bo[buf].buftype ~= "" then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(buf)
  if name == "" then
    return nil
  end
  if name:match("%.ipynb$") or paired(buf, name) then
    return vim.fn.fnamemodify(name, ":p")
  end
end

--- The notebook code runs for: the one in the window the user last edited
--- in, else the most recently used notebook buffer; nil when none is open.
function M.notebook()
  local win = require("claude.buffers").editor_win()
  local nb = win and notebook_of(vim.api.nvim_win_get_buf(win))
  if nb then
    return nb
  end
  local infos = vim.fn.getbufinfo({ buflisted = 1 })
  table.sort(infos, function(a, b)
    return a.lastused > b.lastused
  end)
  for _, info in ipairs(infos) do
    nb = notebook_of(info.bufnr)
    if nb then
      return nb
    end
  end
end

--- The connection file of the kernel molten.nvim holds for the notebook's
--- buffer, or nil. molten names a kernel it reached through a connection
--- file (`:MoltenInit path/kernel-N.json`) by that path; one it started
--- itself by its kernel spec ("python3"), which gives no way in.
function M.molten_connection(nb)
  local buf = vim.fn.bufnr(nb)
  if buf < 0 or vim.fn.exists("*MoltenRunningKernels") ~= 1 then
    return nil
  end
  -- MoltenRunningKernels(v:true) lists the current buffer's kernels.
  local ok, ids = pcall(vim.api.nvim_buf_call, buf, function()
    return vim.fn.MoltenRunningKernels(true)
  end)
  if not ok or type(ids) ~= "table" then
    return nil
  end
  for _, id in ipairs(ids) do
    if type(id) == "string" and id:match("%.json$") and vim.fn.filereadable(id) == 1 then
      return vim.fn.fnamemodify(id, ":p")
    end
  end
end

local function watch_notebook(nb)
  local buf = vim.fn.bufnr(nb)
  if watched[nb] or buf < 0 then
    return
  end
  watched[nb] = true
  vim.api.nvim_create_autocmd({ "BufDelete", "BufWipeout" }, {
    group = vim.api.nvim_create_augroup("ClaudeKernel", { clear = false }),
    buffer = buf,
    once = true,
    desc = "claude.nvim: the notebook's kernel ends with its buffer",
    callback = function()
      watched[nb] = nil
      require("claude.host").close_kernel(nb)
    end,
  })
end

local function close_view(view)
  if vim.api.nvim_buf_is_valid(view.buf) then
    vim.bo[view.buf].modified = false
    pcall(vim.api.nvim_buf_delete, view.buf, { force = true })
  end
end

--- Reports the answer to proposal id ("accept" with the buffer's code, or
--- "reject"); the first answer counts. The view closes.
function M.decide(id, decision)
  local view = views[id]
  if not view or view.decided then
    return
  end
  view.decided = true
  views[id] = nil
  local text = ""
  if decision == "accept" and vim.api.nvim_buf_is_valid(view.buf) then
    text = table.concat(vim.api.nvim_buf_get_lines(view.buf, 0, -1, false), "\n") .. "\n"
  end
  require("claude.host").answer_code(id, decision, text)
  -- Later: in ":wq" the quit comes next and must find the window.
  vim.schedule(function()
    close_view(view)
  end)
end

--- Shows proposal id (the code's lines) below the editor window, without
--- entering it. Returns { notebook, connection }: the notebook it is for
--- ("" and nothing shown when none is open) and molten's kernel for it.
function M.propose(id, lines)
  local nb = M.notebook()
  if not nb then
    return { notebook = "" }
  end
  local buf = vim.api.nvim_create_buf(false, true)
  local view = { buf = buf }
  views[id] = view
  vim.bo[buf].buftype = "acwrite" -- :w reaches BufWriteCmd, never the disk
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_name(buf, string.format("claude://run-code/%d.py", id))
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].filetype = "python"
  vim.bo[buf].modified = false
  local group = vim.api.nvim_create_augroup("ClaudeCode" .. id, { clear = true })
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: :w runs Claude's code",
    callback = function()
      M.decide(id, "accept")
    end,
  })
  vim.api.nvim_create_autocmd("QuitPre", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: :q refuses Claude's code, edited or not",
    callback = function()
      vim.bo[buf].modified = false
    end,
  })
  vim.api.nvim_create_autocmd({ "BufWipeout", "BufUnload" }, {
    group = group,
    buffer = buf,
    desc = "claude.nvim: closing Claude's code refuses it",
    callback = function()
      M.decide(id, "reject")
    end,
  })
  local anchor = require("claude.buffers").editor_win() or vim.api.nvim_get_current_win()
  local win = vim.api.nvim_open_win(buf, false, { split = "below", win = anchor })
  local connection = M.molten_connection(nb)
  vim.wo[win].winbar = string.format(
    "Claude wants to run this in %s of %s   :w runs it · :q refuses",
    connection and "molten's kernel" or "the kernel",
    vim.fn.fnamemodify(nb, ":~:.")
  )
  watch_notebook(nb)
  require("claude.notify").info("Claude wants to run Python in " .. vim.fn.fnamemodify(nb, ":t") .. ": :w runs it, :q refuses")
  return { notebook = nb, connection = connection or "" }
end

--- Closes proposal id without an answer (the CLI gave up the call).
function M.close(id)
  local view = views[id]
  views[id] = nil
  if view then
    view.decided = true
    close_view(view)
  end
end

--- The proposals waiting for an answer (tests, :checkhealth).
function M.pending()
  local ids = {}
  for id in pairs(views) do
    table.insert(ids, id)
  end
  return ids
end

return M
