-- chat.prestart: the workspace's chat CLI started shortly after Neovim
-- starts, before :ClaudeChat, so that the first message goes to a CLI that
-- has already started (its start-up is most of a cold first token:
-- peerbench/chatpeer's BenchmarkChatColdBreakdown). Only in a folder the
-- CLI trusts: nothing of an untrusted folder runs, and no question is
-- asked before the user opened the chat (they get it there, as usual).
-- The chat is made as :ClaudeChat makes it, without its windows.
local M = {}

local state = require("claude.chat.state")

-- How long to wait again while the user types (ms), and how many times
-- (a minute) before giving up (:ClaudeChat starts it then): starting the Go
-- host and the CLI makes a few synchronous calls, which must not land
-- between their keys.
local RETRY_MS = 500
local TRIES = 120

-- What the last run did, for tests: "started", "chat" (one was there),
-- "untrusted", "failed" (the user was told why), "typing" (gave up).
M.outcome = nil

--- Starts dir's chat CLI (default: the current workspace) unless a chat is
--- there already or the folder is not trusted; true when it started one.
---@param dir string|nil
---@return boolean
function M.run(dir)
  dir = dir or state.current_dir()
  if state.chats[dir] then
    M.outcome = "chat"
    return false
  end
  local args = state.start_args(dir)
  local trust = args and require("claude.host").chat_trust_state({ dir = args.dir, env = args.env, quiet = true })
  if not trust then
    M.outcome = "failed"
    return false
  end
  if not trust.trusted then
    M.outcome = "untrusted"
    return false
  end
  local c = require("claude.chat.windows").chat(dir)
  local started = require("claude.chat.revive").start(c)
  M.outcome = started and "started" or "failed"
  return started
end

--- Runs M.run once the user is not typing.
---@param tries integer|nil
function M.when_idle(tries)
  tries = tries or TRIES
  local typing = require("claude.typing")
  typing.watch()
  if typing.busy() then
    if tries > 1 then
      vim.defer_fn(function()
        M.when_idle(tries - 1)
      end, RETRY_MS)
    else
      M.outcome = "typing"
    end
    return
  end
  M.run()
end

return M
