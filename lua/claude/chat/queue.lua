-- The native chat's queued messages: what the user sent while Claude
-- works. The CLI keeps such a message until a turn takes it in (the
-- running one at its next tool result, or a turn of its own after it), and
-- says when (the host's "message" items). Until then it is shown under
-- the transcript as virtual lines, never in the buffer: streamed text keeps
-- flowing into the last line, and folds keep their line numbers.
local M = {}

local state = require("claude.chat.state")

local ns = vim.api.nvim_create_namespace("claude_chat_queued")
M.ns = ns

--- Queues a message of chat c: id names it to the host, quoted is how its
--- prompt lines read once the CLI takes it in, text what the user typed.
function M.add(c, id, text, quoted)
  c.queued = c.queued or {}
  table.insert(c.queued, { id = id, text = text, quoted = quoted })
end

--- Removes the queued message id and returns it, or nil.
function M.take(c, id)
  for i, q in ipairs(c.queued or {}) do
    if q.id == id then
      return table.remove(c.queued, i)
    end
  end
end

--- Removes every queued message and returns them, oldest first.
function M.take_all(c)
  local all = c.queued or {}
  c.queued = {}
  return all
end

function M.count(c)
  return #(c.queued or {})
end

--- Draws the queued messages under the transcript's last line (again after
--- each write, as lines added below would leave them behind).
function M.draw(c)
  local buf = c.tbuf
  if not state.valid(buf) then
    return
  end
  if M.count(c) == 0 then
    pcall(vim.api.nvim_buf_del_extmark, buf, ns, 1)
    return
  end
  local lines = {}
  for _, q in ipairs(c.queued) do
    local first, rest = q.text:match("^([^\n]*)\n?(.*)$")
    local more = rest ~= "" and string.format(" (+%d lines)", #vim.split(rest, "\n", { plain = true })) or ""
    table.insert(lines, { { "⧗ queued: " .. state.clean(first) .. more, "Comment" } })
  end
  local last = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_extmark(buf, ns, last - 1, 0, { id = 1, virt_lines = lines })
end

--- Puts queued messages the CLI will not take (it exited, or they were
--- taken back) into the input, above what is there, so no typed text is
--- lost.
function M.restore(c, msgs)
  if #msgs == 0 or not state.valid(c.ibuf) then
    return
  end
  local lines = {}
  for _, q in ipairs(msgs) do
    vim.list_extend(lines, vim.split(q.text, "\n", { plain = true }))
  end
  local old = vim.api.nvim_buf_get_lines(c.ibuf, 0, -1, false)
  if not (#old == 1 and old[1] == "") then
    vim.list_extend(lines, old)
  end
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, lines)
  require("claude.notify").info(string.format("%d queued message%s put back into the chat's input", #msgs, #msgs > 1 and "s" or ""))
end

return M
