-- The model picked with :Claude model (chat/models.lua), kept for every
-- CLI started later in this Neovim: chats and :Claude open get
-- `--model {value}`.
local M = {}

-- The model picked with :Claude model, nil until then.
local selected

--- The picked model's value, or nil.
function M.selected()
  return selected
end

--- args with `--model {picked}` added, unless none was picked or args name a
--- model already.
---@param args string[]
---@return string[]
function M.args(args)
  if not selected then
    return args
  end
  for _, a in ipairs(args) do
    if a == "--model" or vim.startswith(a, "--model=") then
      return args
    end
  end
  local out = vim.list_extend({}, args)
  vim.list_extend(out, { "--model", selected })
  return out
end

--- Makes value the model every CLI started from now on gets.
---@param value string
function M.set(value)
  selected = value
end

return M
