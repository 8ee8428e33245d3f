-- The transcript's markdown highlighting, at a cost in proportion to what
-- changed. Neovim's tree-sitter highlighter treats the transcript as one
-- document: markdown's inline parser is one combined tree over every
-- paragraph, so each streamed batch re-parsed the whole conversation (on
-- 0.12, where the markdown ftplugin starts it: about 6 ms a batch after
-- 1 MiB, half of Neovim's CPU while streaming). Markdown blocks start
-- afresh after a blank line outside a code fence, so the text from the
-- last such line on is all a new batch can change: only that is parsed
-- (a string parser, injections included: code blocks get their language's
-- highlights) and its highlights set as extmarks. Earlier blocks keep
-- theirs. Finished blocks, a long history (a resumed conversation) above
-- all, are done in steps, the newest first, each a few milliseconds with
-- the editor free in between: with steps of 400 lines (a resumed history's
-- answers and code) the longest stall while streaming into a resumed
-- 2,000-message conversation was 142 ms, 34 ms with steps of STEP_MS.
--
-- The buffer keeps filetype markdown, so renderers that parse it
-- themselves (render-markdown.nvim, markview.nvim) work as before.
local M = {}

local ns = vim.api.nvim_create_namespace("claude_chat_markdown")
M.ns = ns

-- STEP_MS: how long one step of finished blocks may run before it lets the
-- editor answer; STEP_LINES: the most lines one paint takes (a few
-- milliseconds of prose; a single longer block is painted whole).
local STEP_MS = 4
local STEP_LINES = 60

-- PAINT_GAP_MS: the shortest time between two paints of the open block.
-- A paint is a parse, about 2 ms whatever the block's size (four fifths of
-- a streamed write's cost when each write painted): text shows at once and
-- its colours follow within this gap, as render-markdown.nvim's debounce
-- does. The first write after a quiet gap is painted at once.
local PAINT_GAP_MS = 40

-- By buffer: scanned (lines before it are scanned), fence (the fence
-- scanning is in, or nil), starts (0-based rows where a block starts outside
-- a fence, ascending), open (where the last block, the one still growing,
-- starts), todo (ranges {from, to} of finished blocks not yet highlighted,
-- newest last), pending (a step is scheduled).
local states = {}

local function available()
  return pcall(vim.treesitter.language.add, "markdown") and pcall(vim.treesitter.language.add, "markdown_inline")
end

--- Takes over buf's highlighting: no buffer-wide tree-sitter highlighter,
--- no regex syntax. Without the markdown parsers it leaves both alone.
function M.attach(buf)
  if not available() then
    return
  end
  pcall(vim.treesitter.stop, buf)
  vim.bo[buf].syntax = "OFF"
  states[buf] = { scanned = 0, fence = nil, starts = { 0 }, open = 0, todo = {} }
  vim.api.nvim_create_autocmd("BufWipeout", {
    buffer = buf,
    once = true,
    callback = function()
      states[buf] = nil
    end,
  })
end

-- A fence opens with ``` or ~~~ (up to three spaces in) and closes with the
-- same character, at least as many times.
local function fence_of(line)
  local indent, marks = line:match("^( *)([`~][`~][`~]+)")
  if not marks or #indent > 3 or marks:find(marks:sub(1, 1) == "`" and "~" or "`", 1, true) then
    return nil
  end
  return marks
end

-- Scans the lines that can no longer change (all but the last) for block
-- starts.
local function scan(buf, st, n)
  if st.scanned >= n - 1 then
    return
  end
  local lines = vim.api.nvim_buf_get_lines(buf, st.scanned, n - 1, false)
  for i, line in ipairs(lines) do
    local row = st.scanned + i - 1
    local marks = fence_of(line)
    if st.fence then
      if marks and marks:sub(1, 1) == st.fence:sub(1, 1) and #marks >= #st.fence and line:match("^ *[`~]+%s*$") then
        st.fence = nil
      end
    elseif marks then
      st.fence = marks
    elseif line:match("^%s*$") then
      table.insert(st.starts, row + 1)
    end
  end
  st.scanned = n - 1
end

-- Highlights rows [from, to) of buf, replacing what they had.
local function paint(buf, from, to)
  local lines = vim.api.nvim_buf_get_lines(buf, from, to, false)
  vim.api.nvim_buf_clear_namespace(buf, ns, from, to)
  local text = table.concat(lines, "\n")
  local ok, parser = pcall(vim.treesitter.get_string_parser, text, "markdown")
  if not ok then
    return
  end
  parser:parse(true)
  local seen = {} -- a node several patterns capture under one name is marked once
  parser:for_each_tree(function(tree, ltree)
    local lang = ltree:lang()
    local query = vim.treesitter.query.get(lang, "highlights")
    if not query then
      return
    end
    for id, node, metadata in query:iter_captures(tree:root(), text, 0, -1) do
      local name = query.captures[id]
      if name:sub(1, 1) ~= "_" and name ~= "spell" and name ~= "nospell" and name ~= "conceal" then
        local sr, sc, er, ec = node:range()
        local key = table.concat({ sr, sc, er, ec, name, lang }, ":")
        if not seen[key] then
          seen[key] = true
          pcall(vim.api.nvim_buf_set_extmark, buf, ns, from + sr, sc, {
            end_row = from + er,
            end_col = ec,
            hl_group = "@" .. name .. "." .. lang,
            priority = tonumber(metadata.priority or (metadata[id] and metadata[id].priority)) or 100,
            strict = false,
          })
        end
      end
    end
  end)
end

-- The last block start at or before row.
local function start_before(st, row)
  local lo, hi = 1, #st.starts
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if st.starts[mid] <= row then
      lo = mid
    else
      hi = mid - 1
    end
  end
  return st.starts[lo]
end

local step

-- Highlights the blocks finished since, newest first, STEP_LINES a paint,
-- for STEP_MS; the rest in a later step.
function step(buf)
  local st = states[buf]
  if not st or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  st.pending = false
  local deadline = vim.uv.hrtime() + STEP_MS * 1e6
  while #st.todo > 0 and vim.uv.hrtime() < deadline do
    local range = st.todo[#st.todo]
    local from = start_before(st, math.max(range[2] - STEP_LINES, range[1]))
    if from < range[1] then
      from = range[1]
    end
    if from >= range[2] then -- one block longer than STEP_LINES: whole
      from = math.max(start_before(st, range[2] - 1), range[1])
    end
    paint(buf, from, range[2])
    range[2] = from
    if range[2] <= range[1] then
      table.remove(st.todo)
    end
  end
  if #st.todo > 0 then
    st.pending = true
    vim.schedule(function()
      step(buf)
    end)
  end
end

--- Called when n lines were inserted at 0-based row of buf, above its end
--- (chat/agents.lua, a subagent's lines under its tool line): what was
--- scanned and painted below moves down with them. The lines themselves
--- are tool lines, with no block start nor fence to find.
function M.inserted(buf, row, n)
  local st = states[buf]
  if not st then
    return
  end
  local function move(r)
    return r >= row and r + n or r
  end
  if st.scanned > row then
    st.scanned = st.scanned + n
  end
  for i, r in ipairs(st.starts) do
    st.starts[i] = move(r)
  end
  st.open = move(st.open)
  for _, range in ipairs(st.todo) do
    range[1], range[2] = move(range[1]), range[2] > row and range[2] + n or range[2]
  end
end

-- Highlights the open block at the end (what the user watches), then the
-- blocks finished since for one step (unless a step is scheduled already).
local function update(buf, st)
  st.painted = vim.uv.now()
  local n = vim.api.nvim_buf_line_count(buf)
  scan(buf, st, n)
  local open = start_before(st, math.max(n - 1, 0))
  local from = open
  if open > st.open then
    -- The blocks finished since the last write lie right above the open one. While
    -- streaming they are a paragraph or two: painted with it, in one parse (each parse
    -- has a fixed cost: with two a write, highlighting took 79% of the chat's render of a
    -- 1 MiB answer). More go to the steps.
    if n - st.open <= STEP_LINES then
      from = st.open
    else
      table.insert(st.todo, { st.open, open })
    end
  end
  st.open = open
  paint(buf, from, n)
  if #st.todo > 0 and not st.pending then
    step(buf)
  end
end

--- Called after each write to the transcript buf: highlights what the
--- write changed, at once after a quiet PAINT_GAP_MS, else when the gap
--- has passed (one paint for all the writes meanwhile).
function M.update(buf)
  local st = states[buf]
  if not st then
    return
  end
  -- Checked at each write, not at the paint: lines written after a cut
  -- (a rewind) could otherwise outgrow what was scanned before it.
  if vim.api.nvim_buf_line_count(buf) - 1 < st.scanned then -- lines went: start over
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    st.scanned, st.fence, st.starts, st.open, st.todo = 0, nil, { 0 }, 0, {}
  end
  if st.deferred then
    return
  end
  local wait = (st.painted or -PAINT_GAP_MS) + PAINT_GAP_MS - vim.uv.now()
  if wait <= 0 then
    update(buf, st)
    return
  end
  st.deferred = true
  vim.defer_fn(function()
    st.deferred = false
    if states[buf] == st and vim.api.nvim_buf_is_valid(buf) then
      update(buf, st)
    end
  end, wait)
end

return M
