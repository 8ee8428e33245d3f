-- :Claude dictate and <Plug>(ClaudeDictate): speech to text, for the chat's
-- input or Claude's terminal prompt (issue 38, item 3). The user's record
-- command records from the microphone into a temporary file until stopped
-- (a second :Claude dictate sends it SIGINT) or until it ends by itself; the
-- user's transcribe command prints the text spoken in that file. Both run
-- with vim.system, never through a shell and never waited on. The text
-- goes where the user was when dictation started, to be edited and sent by
-- the user: nothing is ever submitted, and control characters (a carriage
-- return would press Enter in the terminal) become spaces.
local M = {}

-- After SIGINT, how long a recorder has to write its file and exit before
-- it is killed.
local STOP_GRACE_MS = 5000

-- The dictation under way: { phase = "recording"|"transcribing", proc,
-- dir, file, target, stopping, cancelled }, or nil.
local active

local function notify()
  return require("claude.notify")
end

local function fire(state, data)
  require("claude.events").fire("ClaudeDictation", vim.tbl_extend("force", { state = state }, data or {}))
end

-- What to put in setup() for dictation, with whisper.cpp as the example.
M.HOW = table.concat({
  "claude.nvim: dictation needs a record and a transcribe command in setup(), lists with {file} for the audio file, e.g. with arecord and whisper.cpp:",
  '  dictation = { record = { "arecord", "-q", "-f", "S16_LE", "-r", "16000", "-c", "1", "{file}" },',
  '                transcribe = { "whisper-cli", "-m", vim.fn.expand("~/models/ggml-base.en.bin"), "-nt", "-np", "-f", "{file}" } }',
  "(see :help claude-dictation)",
}, "\n")

-- cmd with {file} replaced in each argument.
local function with_file(cmd, file)
  return vim.tbl_map(function(arg)
    return (arg:gsub("{file}", function()
      return file
    end))
  end, cmd)
end

-- Removes the temporary directory (and the audio in it).
local function clean_up(d)
  if d.dir then
    vim.fn.delete(d.dir, "rf")
    d.dir = nil
  end
end

-- Ends d with an error; nothing is inserted.
local function fail(d, msg)
  clean_up(d)
  if active == d then
    active = nil
  end
  notify().error("dictation: " .. msg .. "; nothing was inserted")
  fire("failed", { error = msg })
end

-- The last non-empty line of a command's stderr, for an error message.
local function last_line(s)
  local last
  for line in (s or ""):gmatch("[^\n]+") do
    if vim.trim(line) ~= "" then
      last = vim.trim(line)
    end
  end
  return last
end

--- The transcriber's output as one line: control characters (a carriage
--- return, an escape sequence) become spaces, blanks are collapsed.
---@param out string
function M.clean(out)
  local text = (out or ""):gsub("[%z\1-\31\127]", " ")
  return vim.trim((text:gsub("%s+", " ")))
end

-- Where the text goes: the chat whose window is current, else the current
-- session's Claude terminal; nil and why when there is neither.
local function target_here()
  local dir = vim.b.claude_chat_dir
  if type(dir) == "string" and package.loaded["claude.chat.state"] and require("claude.chat.state").chats[dir] then
    return { kind = "chat", dir = dir }
  end
  local terminal = require("claude.terminal")
  if terminal.elsewhere() then
    return nil, "Claude runs in a terminal of its own (terminal.provider): claude.nvim cannot type into it"
  end
  local s = require("claude.sessions").current()
  if s and require("claude.sessions").cli_running(s) then
    return { kind = "terminal", session = s.id }
  end
  return nil, "no chat window is current and no Claude terminal runs: go to :ClaudeChat's input or start :Claude open, then :Claude dictate"
end

-- Puts text where d.target says, for the user to edit and send.
local function insert(d, text)
  local t = d.target
  if t.kind == "chat" then
    local c = require("claude.chat.state").chats[t.dir]
    if not c or not require("claude.chat.state").valid(c.ibuf) then
      return false, "the chat was closed"
    end
    local n = vim.api.nvim_buf_line_count(c.ibuf)
    local last = vim.api.nvim_buf_get_lines(c.ibuf, n - 1, n, false)[1]
    local joined = (last == "" or last:match("%s$")) and (last .. text) or (last .. " " .. text)
    vim.api.nvim_buf_set_lines(c.ibuf, n - 1, n, false, { joined })
    return true, "the chat's input"
  end
  local sessions = require("claude.sessions")
  local s = sessions.get(t.session)
  if not s or not sessions.cli_running(s) then
    return false, "Claude's terminal has ended"
  end
  -- No newline: the text waits in Claude's prompt for the user.
  vim.api.nvim_chan_send(s.job, text)
  return true, "Claude's prompt"
end

local function transcribed(d, res)
  if active ~= d then
    return -- cancelled
  end
  active = nil
  clean_up(d)
  if res.code ~= 0 then
    local why = last_line(res.stderr)
    fail(d, string.format("the transcribe command failed (exit %d)%s", res.code, why and (": " .. why) or ""))
    return
  end
  local text = M.clean(res.stdout)
  if text == "" then
    fail(d, "the transcribe command printed nothing (no speech heard?)")
    return
  end
  local ok, where = insert(d, text)
  if not ok then
    fail(d, where .. "; the text was: " .. text)
    return
  end
  notify().info(string.format("dictation: the text is in %s; edit it and send it yourself", where))
  fire("done", { text = text, target = d.target.kind })
end

local function transcribe(d)
  local cfg = require("claude.config").get().dictation
  d.phase, d.proc = "transcribing", nil
  local ok, proc = pcall(vim.system, with_file(cfg.transcribe, d.file), { text = true }, function(res)
    vim.schedule(function()
      transcribed(d, res)
    end)
  end)
  if not ok then
    fail(d, string.format("cannot run the transcribe command %s: %s", cfg.transcribe[1], proc))
    return
  end
  d.proc = proc
  fire("transcribing")
end

local function recorded(d, res)
  d.exited = true
  if active ~= d then
    return -- cancelled
  end
  if not d.stopping and res.code ~= 0 then
    local why = last_line(res.stderr)
    fail(d, string.format("the record command failed (exit %d)%s", res.code, why and (": " .. why) or ""))
    return
  end
  local size = vim.fn.getfsize(d.file)
  if size <= 0 then
    fail(d, "the record command wrote nothing to its {file}")
    return
  end
  transcribe(d)
end

local function start()
  local cfg = require("claude.config").get().dictation
  if not cfg.record or not cfg.transcribe then
    notify().error(M.HOW)
    return false
  end
  local target, why = target_here()
  if not target then
    notify().error("dictation: " .. why)
    return false
  end
  -- A private directory (mkdtemp makes it 0700) for the audio.
  local dir = vim.uv.fs_mkdtemp(vim.fs.joinpath(vim.uv.os_tmpdir(), "claude-dictation-XXXXXX"))
  if not dir then
    notify().error("dictation: cannot make a temporary directory in " .. vim.uv.os_tmpdir())
    return false
  end
  vim.uv.fs_chmod(dir, 448) -- 0700
  local d = { phase = "recording", dir = dir, file = vim.fs.joinpath(dir, "dictation.wav"), target = target }
  local ok, proc = pcall(vim.system, with_file(cfg.record, d.file), { text = true }, function(res)
    vim.schedule(function()
      recorded(d, res)
    end)
  end)
  if not ok then
    clean_up(d)
    notify().error(string.format("dictation: cannot run the record command %s: %s", cfg.record[1], proc))
    return false
  end
  d.proc, active = proc, d
  vim.api.nvim_create_autocmd("VimLeavePre", {
    group = vim.api.nvim_create_augroup("ClaudeDictation", { clear = true }),
    once = true,
    desc = "claude.nvim: stop a dictation and remove its audio",
    callback = function()
      M.cancel(true)
    end,
  })
  notify().info("dictation: recording; :Claude dictate again stops and transcribes, :Claude dictate cancel drops it")
  fire("recording", { target = target.kind })
  return true
end

local function stop()
  local d = active
  d.stopping = true
  d.proc:kill("sigint")
  vim.defer_fn(function()
    if not d.exited and d.proc then
      d.proc:kill("sigkill")
    end
  end, STOP_GRACE_MS)
end

--- Drops the dictation under way: its commands are killed, its audio
--- removed, nothing is inserted.
---@param quiet boolean|nil
function M.cancel(quiet)
  local d = active
  if not d then
    if not quiet then
      notify().info("dictation: nothing to cancel")
    end
    return false
  end
  active = nil
  d.cancelled = true
  if d.proc then
    pcall(d.proc.kill, d.proc, "sigkill")
  end
  clean_up(d)
  if not quiet then
    notify().info("dictation: cancelled; nothing was inserted")
  end
  fire("cancelled")
  return true
end

--- :Claude dictate [stop|cancel]: starts recording, or stops it and
--- transcribes; cancel drops it.
---@param arg string|nil
function M.command(arg)
  arg = vim.trim(arg or "")
  if arg == "cancel" then
    return M.cancel()
  elseif arg ~= "" and arg ~= "stop" then
    notify().error(":Claude dictate takes stop, cancel or nothing, not " .. arg)
    return false
  end
  if not active then
    if arg == "stop" then
      notify().info("dictation: not recording")
      return false
    end
    return start()
  end
  if active.phase == "transcribing" then
    notify().info("dictation: still transcribing; :Claude dictate cancel drops it")
    return false
  end
  stop()
  return true
end

--- The dictation's phase ("recording", "transcribing") or nil.
function M.phase()
  return active and active.phase or nil
end

return M
