-- terminal.provider = "external" or a function: the CLI runs in a
-- terminal that is not Neovim's (a tmux pane, say), which the provider
-- makes and manages. Nothing of it is ours to show, focus or type into.
local M = {}

-- The command as a shell command line, with the environment in front:
-- for terminal.provider = "external", whose terminal may not inherit
-- Neovim's environment.
local function shell_command(cmd, env)
  local parts = { "env" }
  local names = vim.tbl_keys(env)
  table.sort(names)
  for _, k in ipairs(names) do
    table.insert(parts, vim.fn.shellescape(k .. "=" .. env[k]))
  end
  if type(cmd) == "table" then
    for _, a in ipairs(cmd) do
      table.insert(parts, vim.fn.shellescape(a))
    end
  else
    table.insert(parts, cmd)
  end
  return table.concat(parts, " ")
end

--- Starts session s's CLI (cmd with env) through provider (a function, or
--- "external": terminal.external_cmd). Returns whether it started.
function M.start(s, cmd, env, provider)
  if type(provider) == "function" then
    local ok, err = pcall(provider, cmd, env, s.cwd)
    if not ok then
      require("claude.notify").error("terminal.provider failed: " .. tostring(err))
      return false
    end
  else
    local line = require("claude.config").get().terminal.external_cmd
    if not line then
      require("claude.notify").error('terminal.provider = "external" needs terminal.external_cmd, e.g. "tmux split-window -h %s"')
      return false
    end
    local job = vim.fn.jobstart(line:gsub("%%s", function()
      return vim.fn.shellescape(shell_command(cmd, env))
    end), { cwd = s.cwd, env = env, detach = true })
    if job <= 0 then
      require("claude.notify").error("could not run terminal.external_cmd: " .. line)
      return false
    end
  end
  s.elsewhere = true
  return true
end

return M
