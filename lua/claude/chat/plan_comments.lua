-- Line comments on Claude's plan (claude.chat.ask's plan buffer, issue 36):
-- the user comments on lines of the plan, each shown under its line, and
-- keeping on planning (gk) sends them to Claude as one structured feedback
-- with what the user typed for the whole. A comment's place is an extmark:
-- it follows the line as the user edits the plan.
local M = {}

local ns = vim.api.nvim_create_namespace("claude_plan_comments")

-- buf -> extmark id -> comment text
local comments = {}

local function show(buf, id, row, text)
  vim.api.nvim_buf_set_extmark(buf, ns, row, 0, {
    id = id,
    virt_lines = { { { "  ✎ " .. text, "Comment" } } },
    right_gravity = false,
  })
end

--- Asks for a comment on the cursor's line (in buf, the current window's)
--- and shows it under the line; a comment already there is offered to edit,
--- and emptied it goes.
function M.comment(buf)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  comments[buf] = comments[buf] or {}
  local here = vim.api.nvim_buf_get_extmarks(buf, ns, { row, 0 }, { row, -1 }, {})
  local id = here[1] and here[1][1]
  vim.ui.input({ prompt = "Comment on this line of the plan: ", default = id and comments[buf][id] or nil }, function(text)
    if text == nil or not vim.api.nvim_buf_is_valid(buf) then
      return
    end
    text = vim.trim(text)
    if text == "" then
      if id then
        vim.api.nvim_buf_del_extmark(buf, ns, id)
        comments[buf][id] = nil
      end
      return
    end
    id = vim.api.nvim_buf_set_extmark(buf, ns, row, 0, { id = id })
    comments[buf][id] = text
    show(buf, id, row, text)
  end)
end

--- buf's comments in line order: { line (1-based), text (the line's), comment }.
function M.list(buf)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, {})) do
    local comment = (comments[buf] or {})[m[1]]
    if comment then
      local line = vim.api.nvim_buf_get_lines(buf, m[2], m[2] + 1, false)[1] or ""
      table.insert(out, { line = m[2] + 1, text = line, comment = comment })
    end
  end
  return out
end

--- The feedback Claude gets when the user keeps on planning: the comments,
--- each after the line it is on (quoted: a line of the plan must not read
--- as the user's words), then what the user said of the whole. Just that
--- when there is no comment.
function M.feedback(buf, overall)
  local list = M.list(buf)
  if #list == 0 then
    return overall
  end
  local parts = { string.format("The user commented on %d line%s of your plan:", #list, #list == 1 and "" or "s") }
  for _, c in ipairs(list) do
    table.insert(parts, string.format("- line %d, %q: %s", c.line, c.text, c.comment))
  end
  if overall ~= "" then
    table.insert(parts, "And on the whole plan: " .. overall)
  end
  return table.concat(parts, "\n")
end

--- Forgets buf's comments (the plan is answered).
function M.forget(buf)
  comments[buf] = nil
end

return M
