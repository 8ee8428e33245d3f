-- The chat's agents (setup({ chat = { agents = { name = { command, args, env } } } })):
-- the built-in Claude on stream-json is the default and needs no entry; any
-- other entry is an Agent Client Protocol agent the host runs (acpchat/).
local M = {}

-- What an ACP agent gets and does not, for :checkhealth and :help.
M.features = {
  yes = "streamed answers and thinking, tool calls with their diffs, permissions (the chat's line and keys), the plan as the task list, / commands, modes, model, effort, usage, interrupt, queued messages, the editor's tools (MCP over http), per-hunk review of edits, :Claude changes and revert, the history browser (where the agent offers session/list)",
  no = "rewind of the conversation, questions, plan approval, subagent tasks, fork, a conversation's preview, rename or delete in the history browser",
}

local function config()
  local cfg = require("claude.config").get()
  return cfg.chat and cfg.chat.agents or {}
end

--- The configured ACP agents' names, sorted.
function M.names()
  local out = vim.tbl_keys(config())
  table.sort(out)
  return out
end

--- What :ClaudeChat takes to pick an agent: "claude" (the built-in) when
--- others are configured, and their names.
function M.choices()
  local names = M.names()
  if #names == 0 then
    return {}
  end
  table.insert(names, 1, "claude")
  return names
end

--- The agent named name, or nil (nil name: the built-in Claude).
function M.get(name)
  if name == nil or name == "" then
    return nil
  end
  return config()[name]
end

--- The name the winbar shows for a chat's agent.
function M.label(name)
  if name == nil or name == "" then
    return "Claude chat"
  end
  return name .. " chat (ACP)"
end

--- The name of agent's chat in folder dir: dir itself for the built-in
--- Claude, "DIR//NAME" for an ACP agent, so both run side by side. No
--- normalized folder holds "//": no folder's chat is another's.
function M.key(dir, agent)
  if agent == nil or agent == "" or agent == "claude" then
    return dir
  end
  return dir .. "//" .. agent
end

--- ClaudeHostChatStart's arguments for the ACP agent name's chat key in
--- folder dir.
function M.start_args(name, key, dir, mode, base_env)
  local a = M.get(name)
  local env = vim.deepcopy(base_env)
  for k, v in pairs(a.env or {}) do
    env[k] = tostring(v)
  end
  return { dir = key, cwd = dir, bin = a.command, args = vim.deepcopy(a.args or {}), env = env, agent = name, mode = mode or "default" }
end

return M
