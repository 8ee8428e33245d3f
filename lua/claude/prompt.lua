-- :Claude ask and :Claude type: text typed into Claude's input box as if
-- the user typed it there, a prompt with the selected lines as an
-- @-mention (submitted), or any text (left for the user to finish).
local M = {}

-- The CLI takes a burst of input that ends in Enter for a paste and makes
-- the Enter a new line: Enter goes on its own, a moment later.
local SUBMIT_DELAY_MS = 200
-- A CLI that has just connected draws its input box a moment later; keys
-- typed before that are lost.
local READY_DELAY_MS = 700

local function notify_error(msg)
  require("claude.notify").error(msg)
end

-- path as the CLI names it: relative to its working directory when inside.
local function relative(path, cwd)
  cwd = (cwd or vim.fn.getcwd()):gsub("/+$", "")
  if vim.startswith(path, cwd .. "/") then
    return path:sub(#cwd + 2)
  end
  return path
end

-- Types text into the running CLI, Enter after it when submit; with
-- paste, as one bracketed paste (its newlines stay in the input: typed,
-- the first would send the message).
local function type_now(text, submit, paste)
  local terminal = require("claude.terminal")
  terminal.send(paste and ("\27[200~" .. text .. "\27[201~") or text)
  if submit then
    vim.defer_fn(function()
      if terminal.is_running() then
        terminal.send("\r")
      end
    end, SUBMIT_DELAY_MS)
  end
  terminal.focus(true) -- at the text typed for the user, to go on with it
end

--- Types text into Claude's input (starting Claude first if none runs).
---@param text string
---@param submit boolean press Enter after it
---@param paste boolean|nil into the terminal's CLI as a paste (text of several lines)
function M.type(text, submit, paste)
  if require("claude.chat").take_text(text, submit) then -- a chat open in this tab takes it
    return true
  end
  local terminal = require("claude.terminal")
  if terminal.elsewhere() then
    notify_error("Claude runs in a terminal of its own (terminal.provider): claude.nvim cannot type into it")
    return false
  end
  if terminal.is_running() and terminal.clients() > 0 then
    type_now(text, submit, paste)
    return true
  end
  if not terminal.is_running() and not terminal.open() then
    return false
  end
  -- Claude is starting: type once it has connected and drawn its input.
  vim.api.nvim_create_autocmd("User", {
    pattern = "ClaudeConnected",
    once = true,
    desc = "claude.nvim: type the text that waited for Claude to start",
    callback = function()
      vim.defer_fn(function()
        if terminal.is_running() then
          type_now(text, submit, paste)
        end
      end, READY_DELAY_MS)
    end,
  })
  return true
end

--- :Claude ask: asks Claude about lines line1..line2 of buf (or about the
--- file, without a range) with question; without a question, asks for one.
---@param buf integer
---@param line1 integer|nil
---@param line2 integer|nil
---@param question string|nil
function M.ask(buf, line1, line2, question)
  buf = buf == 0 and vim.api.nvim_get_current_buf() or buf
  if not require("claude.buffers").is_file_buf(buf) then
    notify_error("this buffer is not a file; :Claude ask asks about lines of a file")
    return false
  end
  local path = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p")
  local mention = "@" .. relative(path, require("claude.terminal").cwd())
  if line1 then
    line2 = line2 or line1
    if line2 < line1 then
      line1, line2 = line2, line1
    end
    mention = mention .. (line1 == line2 and ("#L" .. line1) or string.format("#L%d-%d", line1, line2))
  end
  local function send(text)
    if text == nil or vim.trim(text) == "" then
      return false
    end
    return M.type(mention .. " " .. vim.trim(text), true)
  end
  if question and vim.trim(question) ~= "" then
    return send(question)
  end
  vim.ui.input({ prompt = "Ask Claude about " .. mention .. ": " }, send)
  return true
end

--- :Claude type: types text into Claude's input without submitting it.
---@param text string
function M.send_text(text)
  if not text or text == "" then
    notify_error("usage: :Claude type {text}")
    return false
  end
  return M.type(text, false)
end

return M
