-- @hunks:FILE (context.lua): the file's unstaged git hunks, as the file
-- is in Neovim (its buffer, unsaved changes included, else the disk)
-- against git's index. git is only asked for the index's copy of the file
-- (ls-files, cat-file: no filter, no textconv, no external diff, no
-- fsmonitor, no pager, nothing the repository's config names is run) and
-- the diff is made here (vim.diff), so a cloned workspace's config cannot
-- make us run a program. The repository is the nearest .git above the file:
-- no discovery through GIT_* variables or core.worktree.
local M = {}

-- How long git may take for each of its two small answers.
local GIT_TIMEOUT_MS = 3000

-- The environment git runs in: fsmonitor off whatever the configs say, no
-- system config, no lock taken, no prompt, no pager.
local function git_env(gitdir, top)
  local env = {
    GIT_DIR = gitdir,
    GIT_WORK_TREE = top,
    GIT_CONFIG_NOSYSTEM = "1",
    GIT_CONFIG_COUNT = "1",
    GIT_CONFIG_KEY_0 = "core.fsmonitor",
    GIT_CONFIG_VALUE_0 = "false",
    GIT_OPTIONAL_LOCKS = "0",
    GIT_TERMINAL_PROMPT = "0",
    GIT_PAGER = "cat",
  }
  return env
end

-- The command that runs git with args, without the GIT_* variables the
-- editor has and we did not set (a commit's GIT_INDEX_FILE when Neovim is
-- git's editor): env -u, as vim.system can add variables, not remove them.
local function git_command(args, env)
  local cmd = { "env" }
  for k in pairs(vim.fn.environ()) do
    if k:match("^GIT_") and env[k] == nil then
      vim.list_extend(cmd, { "-u", k })
    end
  end
  return vim.list_extend(vim.list_extend(cmd, { "git", "--no-pager" }), args)
end

local function git(args, env, top)
  local ok, proc = pcall(vim.system, git_command(args, env), { env = env, cwd = top, text = false })
  if not ok then
    return nil, "git could not be run: " .. tostring(proc)
  end
  local r = proc:wait(GIT_TIMEOUT_MS)
  if r.code ~= 0 then
    if r.signal and r.signal ~= 0 then
      return nil, "git took longer than " .. GIT_TIMEOUT_MS / 1000 .. " s"
    end
    return nil, "git " .. args[1] .. ": " .. vim.trim(r.stderr or "")
  end
  return r.stdout or ""
end

-- The work tree top and git directory of the repository path is in.
local function repository(path)
  local dotgit = vim.fs.find(".git", { upward = true, path = vim.fs.dirname(path) })[1]
  if not dotgit then
    return nil
  end
  local top = vim.fs.dirname(dotgit)
  local stat = vim.uv.fs_stat(dotgit)
  if stat and stat.type == "file" then
    local f = io.open(dotgit)
    local line = f and f:read("*l") or ""
    if f then
      f:close()
    end
    local dir = line:match("^gitdir:%s*(.-)%s*$")
    if not dir then
      return nil
    end
    if not vim.startswith(dir, "/") then
      dir = top .. "/" .. dir
    end
    return top, dir
  end
  return top, dotgit
end

--- The unstaged hunks of the file at path (rel: its name for the user) as
--- the lines and attributes of a block (context.lua makes it), or nil and
--- why not.
---@param path string absolute
---@param rel string
function M.hunks(path, rel)
  local text, unsaved = require("claude.buffers").current_text(path)
  if not text then
    return nil, rel .. " cannot be read"
  end
  local top, gitdir = repository(path)
  if not top then
    return nil, rel .. " is in no git repository"
  end
  local real_top = vim.uv.fs_realpath(top) or top
  local real = vim.uv.fs_realpath(path) or path
  if not vim.startswith(real, real_top .. "/") then
    return nil, rel .. " is not inside its repository's work tree (a link?)"
  end
  local env = git_env(gitdir, top)
  local inrepo = real:sub(#real_top + 2)
  local staged, err = git({ "ls-files", "--stage", "-z", "--", ":(literal)" .. inrepo }, env, top)
  if not staged then
    return nil, err
  end
  local oid = staged:match("^%d+ (%x+) 0\t")
  if not oid then
    return nil, rel .. " is not tracked by git (or has conflicts): it has no index copy to compare with"
  end
  local base
  base, err = git({ "cat-file", "blob", oid }, env, top)
  if not base then
    return nil, err
  end
  local diff = vim.diff(base, text, { result_type = "unified", ctxlen = 3 })
  if diff == "" then
    return nil, "no unstaged changes in " .. rel
  end
  local lines = { "--- a/" .. inrepo, "+++ b/" .. inrepo }
  -- A CRLF file's lines end in "\r" on both sides: the model reads them
  -- without it, as the buffer shows them.
  for _, line in ipairs(vim.split(diff:gsub("\n$", ""), "\n", { plain = true })) do
    table.insert(lines, (line:gsub("\r$", "")))
  end
  local attrs = { { "file", rel } }
  if unsaved then
    table.insert(attrs, { "note", "the buffer, unsaved changes included" })
  end
  return lines, attrs
end

return M
