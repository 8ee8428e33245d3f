-- The native chat's keys that are not about one turn: the help (g?) and
-- the jumps between the user's prompts ([r and ]r, through <Plug> maps).
-- render.lua marks each prompt's first line with an extmark in NS: marks
-- follow the text, and a transcript started over loses them with its lines.
local M = {}

local NS = vim.api.nvim_create_namespace("claude_chat_prompts")
M.NS = NS

--- Marks line row (0-based) of the transcript buf as a prompt's first line;
--- returns the mark's id.
---@param buf integer
---@param row integer
---@return integer
function M.mark_prompt(buf, row)
  return vim.api.nvim_buf_set_extmark(buf, NS, row, 0, {})
end

--- The prompt at or above line row (0-based) of buf: its mark's id and
--- row, or nil when none is.
---@param buf integer
---@param row integer
---@return integer|nil, integer|nil
function M.prompt_at(buf, row)
  local marks = vim.api.nvim_buf_get_extmarks(buf, NS, { row, 0 }, 0, { limit = 1 })
  if #marks == 0 then
    return nil
  end
  return marks[1][1], marks[1][2]
end

--- Moves the cursor to the count-th next (step 1) or previous (step -1)
--- prompt of the transcript in the current window; stays put at either end,
--- as Vim's [[ and ]] do past the last section.
---@param step integer
function M.jump_prompt(step)
  local buf = vim.api.nvim_get_current_buf()
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _ = 1, vim.v.count1 do
    local marks
    if step > 0 then
      marks = vim.api.nvim_buf_get_extmarks(buf, NS, { row + 1, 0 }, -1, { limit = 1 })
    elseif row > 0 then
      marks = vim.api.nvim_buf_get_extmarks(buf, NS, { row - 1, 0 }, 0, { limit = 1 })
    end
    if not marks or #marks == 0 then
      break
    end
    row = marks[1][2]
  end
  vim.cmd("normal! m'") -- a jump: <C-o> comes back
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
end

-- What g? shows: the chat's keys (claude.keys), by buffer. Kept beside
-- the maps' documentation (:help claude-chat-keys).
local HELP = {
  { "Input" },
  { { "input.submit", "input.send" }, "send the message" },
  { { "input.interrupt" }, "interrupt Claude's turn; in Insert mode leaves it too" },
  { { "input.recall_prev", "input.recall_next", "input.recall_up", "input.recall_down" }, "recall earlier prompts (arrows: at the edge)" },
  { { "input.complete" }, "after / or @: complete a /command or an @path" },
  { { "input.background" }, "(Insert mode) send what runs to the background" },
  { { "input.mode" }, "switch the permission mode" },
  { "Transcript" },
  { { "chat.answer" }, "answer the request waiting (permission, rewind)" },
  { { "chat.prev_prompt", "chat.next_prompt" }, "previous / next prompt" },
  { { "chat.rewind" }, "rewind, fork or edit from the prompt here" },
  { { "chat.input" }, "type in the input" },
  { { "chat.tasks" }, "task list on / off" },
  { { "chat.cancel_agent" }, "stop the subagent here" },
  { { "chat.mode" }, "switch the permission mode" },
  { { "chat.interrupt" }, "interrupt Claude's turn" },
  { { "chat.help" }, "this help" },
  { "  zo zc zR", "open / close a tool's or an Agent's fold" },
  { "Commands", ":Claude chat {sub} (:help claude-chat lists them)" },
}

local function help_lines()
  local keys = require("claude.keys")
  local out = {}
  for _, h in ipairs(HELP) do
    if type(h[1]) == "string" then
      table.insert(out, { h[1], h[2] or "" })
    else
      local shown = {}
      for _, name in ipairs(h[1]) do
        table.insert(shown, keys.shown(name))
      end
      if #shown > 0 then
        table.insert(out, { "  " .. table.concat(shown, " "), h[2] })
      end
    end
  end
  return out
end

--- Shows the chat's keys as a message: it takes no focus, and :messages
--- shows it again.
function M.help()
  local chunks = { { "claude.nvim chat keys (:help claude-chat-keys)\n", "Title" } }
  for _, row in ipairs(help_lines()) do
    if row[2] == "" then
      table.insert(chunks, { row[1] .. "\n", "Special" })
    else
      -- Narrow enough that no row wraps in 80 columns: the whole help then
      -- fits a 24-line screen without a hit-enter prompt.
      table.insert(chunks, { string.format("%-27s %s\n", row[1], row[2]) })
    end
  end
  chunks[#chunks][1] = chunks[#chunks][1]:gsub("\n$", "")
  vim.api.nvim_echo(chunks, true, {})
end

return M
