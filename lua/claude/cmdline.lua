-- The engine of :Claude {sub} and :ClaudeChat {sub}: walks the command
-- tree (claude.cmdtree) to run a subcommand or to complete one, at any
-- depth. The tree is data; this file knows nothing of what a node does.
--
-- A node: { desc, run = fn(o) or nil, subs = { { name, node }, ... } or
-- nil, complete = fn(lead, args) or a list, range = true if it takes a
-- range }. o: { args (the rest of the line, a string), fargs (its words),
-- range, line1, line2, bang, usage (how the user names this node) }.
local M = {}

--- The child of node named word, or nil.
local function child(node, word)
  for _, s in ipairs(node.subs or {}) do
    if s[1] == word then
      return s[2]
    end
  end
end

--- The subcommand names of node, in their order.
function M.names(node)
  local out = {}
  for _, s in ipairs(node.subs or {}) do
    table.insert(out, s[1])
  end
  return out
end

-- Drops the first word (and the blanks around it) of line.
local function drop_word(line)
  return (line:gsub("^%s*%S+%s*", "", 1))
end

--- Finds the node the words of line name, from root: the node, the rest
--- of the line (its arguments) and the words that led there.
---@return table node
---@return string rest
---@return string[] path
function M.resolve(root, line)
  local node, rest, path = root, vim.trim(line or ""), {}
  while true do
    local word = rest:match("^(%S+)")
    local next_node = word and child(node, word)
    if not next_node then
      return node, rest, path
    end
    node, rest = next_node, drop_word(rest)
    table.insert(path, word)
  end
end

--- Runs the node the command line names. prefix: how the user typed the
--- root (":Claude"), for messages. o: the user command's table.
function M.run(root, prefix, o)
  local node, rest, path = M.resolve(root, o.args)
  local usage = table.concat(vim.list_extend({ prefix }, path), " ")
  if not node.run then
    local word = rest:match("^(%S+)")
    require("claude.notify").error(
      string.format(
        "%s %s; it takes one of: %s",
        usage,
        word and ("has no subcommand " .. word) or "needs a subcommand",
        table.concat(M.names(node), ", ")
      )
    )
    return
  end
  if o.range and o.range > 0 and not node.range then
    require("claude.notify").error(usage .. " takes no range")
    return
  end
  node.run({
    args = rest,
    fargs = vim.split(rest, "%s+", { trimempty = true }),
    range = o.range or 0,
    line1 = o.line1,
    line2 = o.line2,
    bang = o.bang,
    usage = usage,
  })
end

-- The words typed after the command name, up to the cursor; the last one
-- is the word being completed ("" after a blank).
local function typed_words(cmdline, cursorpos)
  local line = cmdline:sub(1, cursorpos or #cmdline)
  -- Past the range and the command's name (and a bang).
  local after = line:match("^.-%f[%a]Claude%w*!?(.*)$") or ""
  local words = vim.split(after, "%s+", { trimempty = true })
  if after == "" or after:match("%s$") then
    table.insert(words, "")
  end
  return words
end

--- The completions of the word under the cursor, for a command whose
--- words start at root.
function M.complete(root, lead, cmdline, cursorpos)
  local words = typed_words(cmdline, cursorpos)
  local node, args = root, {}
  for i = 1, #words - 1 do
    local next_node = #args == 0 and child(node, words[i])
    if next_node then
      node = next_node
    else
      table.insert(args, words[i])
    end
  end
  lead = words[#words] or lead or ""
  local out = {}
  if #args == 0 then
    vim.list_extend(out, M.names(node))
  end
  local c = node.complete
  if type(c) == "function" then
    vim.list_extend(out, c(lead, args) or {})
  elseif type(c) == "table" and #args == 0 then
    vim.list_extend(out, c)
  end
  return vim.tbl_filter(function(w)
    return vim.startswith(w, lead)
  end, out)
end

return M
