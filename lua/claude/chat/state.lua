-- The native chat's chats, on the chat folder's lowest step (the other
-- files of chat/ read them here): by workspace directory, what each knows,
-- and how its CLI is started.
local M = {}

-- By workspace directory: { dir, tbuf, ibuf, busy, model, mode, effort (the
-- user's choice, kept for later CLIs), effort_applied and context (what the
-- CLI said at its start and after each turn: { percent, tokens, max }),
-- conversation (the CLI's session id of the one it runs), running (a CLI was started
-- and has not exited), revive (the conversation to resume: its CLI died
-- with the Go host), reviews (edits in a diff review, by request id), streaming,
-- last, queue (permission requests waiting, oldest first), withdrawn, history (prompts sent, oldest first),
-- recalled (the history index in the input; nil: the draft), draft }.
local chats = {}
M.chats = chats

-- The permission modes :Claude mode takes (chat/modes.lua says what
-- each means and which <S-Tab> goes through).
M.modes = { "default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions" }

local function cfg()
  return require("claude.config").get()
end

local function valid(buf)
  return buf ~= nil and vim.api.nvim_buf_is_valid(buf)
end

-- The chat of the current buffer, else the one of the workspace a new CLI
-- would start in.
local function current_dir()
  local dir = vim.b.claude_chat_dir
  if type(dir) == "string" and chats[dir] then
    return dir
  end
  return require("claude.sessions").new_cwd()
end
M.valid, M.current_dir = valid, current_dir

-- Text from the CLI as one buffer line (or a b: variable): a newline would
-- make set_lines fail (and, before each item rendered on its own, took the
-- rest of the batch with it), a NUL makes a Blob of a string (E976 in the
-- winbar's variable); they and the other control characters but tab are
-- shown as ⏎ and ?, so an ESC sequence means nothing here.
function M.clean(s)
  return (tostring(s):gsub("\n", "⏎"):gsub("[%z\1-\8\11-\31\127]", "?"))
end

-- The oldest permission request still waiting for the user, or nil.
local function waiting(c)
  while c.queue[1] and c.withdrawn[c.queue[1].id] do
    table.remove(c.queue, 1)
  end
  return c.queue[1]
end
M.waiting = waiting

-- The winbar's text, most important first: the winbar keeps its start and
-- cuts its end (%< after it), so at narrow widths the model and the state
-- (working, or waiting for the user) stay and the title goes first.
local function status_text(c)
  local parts = {}
  if c.model then
    table.insert(parts, c.model)
  end
  if c.mode == "auto" and c.auto_unchecked then
    table.insert(parts, "auto (no safety check here: actions refused)")
  elseif c.mode and c.mode ~= "default" then
    table.insert(parts, c.mode)
  end
  local effort = c.effort_applied or c.effort
  if effort then
    table.insert(parts, "effort " .. M.clean(effort))
  end
  local ask = waiting(c)
  if c.trust then
    table.insert(parts, "waits for you: trust this folder? (<CR> in the chat, :Claude chat trust)")
  elseif ask then
    table.insert(parts, string.format("waits for you: %s (<CR> in the chat, :Claude chat answer)", M.clean(ask.name)))
  elseif c.checking then
    table.insert(parts, "waiting for auto mode's safety check… (<C-c> interrupts)")
  elseif c.busy then
    table.insert(parts, "working… (<C-c> interrupts)")
  end
  if c.queued and #c.queued > 0 then
    table.insert(parts, string.format("%d queued", #c.queued))
  end
  if c.attached and #c.attached > 0 then
    table.insert(parts, string.format("%d image%s attached", #c.attached, #c.attached > 1 and "s" or ""))
  end
  -- Asked when the CLI starts and after each turn (chatctl/context.go), so
  -- it says how full the window was at the last request; the state above
  -- matters more while Claude works.
  if c.context then
    table.insert(parts, string.format("context %d%%", c.context.percent))
  end
  -- The CLI's usage so far (this run of it: :Claude chat usage says more).
  if c.usage then
    local n = c.usage.tokens
    local tokens = n >= 1000000 and string.format("%.1fM", n / 1000000) or n >= 1000 and string.format("%.1fk", n / 1000) or tostring(n)
    table.insert(parts, string.format("%s tokens · $%.4f", tokens, c.usage.cost))
    if c.usage.plan and c.usage.plan ~= "" then
      table.insert(parts, M.clean(c.usage.plan))
    end
  end
  local label = require("claude.agents").label(c.agent)
  table.insert(parts, c.title and (M.clean(c.title) .. " · " .. label) or label)
  return table.concat(parts, " · ")
end

local function update_status(c)
  if valid(c.tbuf) then
    vim.b[c.tbuf].claude_chat_status = status_text(c)
  end
  -- Statuslines count the requests that wait (claude.statusline()): redraw
  -- them when that changes, not on every batch of a streamed answer.
  local waits = #c.queue
  if waits ~= (c.waits_shown or 0) then
    c.waits_shown = waits
    vim.cmd.redrawstatus({ bang = true })
  end
end
M.update_status = update_status

-- Folds 1-based lines first..last of the transcript (closed) in every
-- window on it, and keeps the range for windows opened later (render.lua's refold).
-- A range inside the closed fold of an Agent's group (at line head, when
-- given: chat/agents.lua) would take that whole fold (Ex ranges do), so
-- that fold is opened around the new one's making.
local function fold(c, first, last, head)
  if last <= first then
    return
  end
  c.folds = c.folds or {}
  table.insert(c.folds, { first, last })
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    vim.api.nvim_win_call(win, function()
      local closed = head and vim.fn.foldclosed(head) ~= -1
      if closed then
        vim.cmd(string.format("silent! %dfoldopen", head))
      end
      vim.cmd(string.format("silent! %d,%dfold", first, last))
      if closed then
        vim.cmd(string.format("silent! %dfoldclose", head))
      end
    end)
  end
end
M.fold = fold

local function window(buf)
  return require("claude.terminal.window").in_tab(buf)
end

-- Keeps every window on the transcript at its end, unless the user moved
-- the cursor up in the current one to read. The end is at the window's
-- bottom, as in a terminal: moving the cursor alone leaves the last line
-- wherever Neovim scrolled it (the middle, after a jump from far, or the
-- top half once folds closed), with the window's rest empty.
local function follow(c)
  local last = vim.api.nvim_buf_line_count(c.tbuf)
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    local row = vim.api.nvim_win_get_cursor(win)[1]
    if win ~= vim.api.nvim_get_current_win() or row >= (c.followed or last) then
      pcall(vim.api.nvim_win_set_cursor, win, { last, 0 })
      vim.api.nvim_win_call(win, function()
        vim.cmd("normal! zb")
      end)
    end
  end
  c.followed = last
end
M.window, M.follow = window, follow

-- terminal_cmd as a program and arguments, without a shell.
local function command()
  local prog = require("claude.cli").program()
  if not prog then
    return nil
  end
  local cmd = cfg().terminal_cmd
  local words = type(cmd) == "table" and cmd or vim.split(vim.trim(cmd), "%s+")
  return prog, vim.list_slice(words, 2)
end

-- The CLI's environment: Neovim's, plus what the terminal gets except the
-- IDE server's port (print mode never connects to it).
local function environment()
  local env = vim.fn.environ()
  for k, v in pairs(require("claude.cli").env(0)) do
    env[k] = v
  end
  env.CLAUDE_CODE_SSE_PORT = nil
  return env
end

-- What starts a chat CLI in dir (ClaudeHostChatStart's argument), or nil
-- after telling the user why it cannot.
local function start_args(dir, mode, resuming, remote)
  -- A remote's CLI is its own there (remotes.NAME.claude).
  if not remote and not require("claude.cli").check_program() then
    return nil
  end
  local prog, args = command()
  if not prog then
    require("claude.notify").error(":ClaudeChat needs terminal_cmd to be a program (a list or a plain command line), not shell syntax")
    return nil
  end
  args = require("claude.model").args(args)
  args = require("claude.cli").with_flags(args, "chat", { resuming = resuming })
  if mode then
    args = vim.list_extend(vim.list_extend({}, args), { "--permission-mode", mode })
  end
  local chosen
  args, chosen = require("claude.permission").args(args, dir)
  local no_lsp = not require("claude.config").get().tools.lsp
  return { dir = dir, bin = prog, args = args, env = environment(), no_lsp_tools = no_lsp }, chosen
end

-- By workspace directory: how the chat was to start when the host found
-- its folder untrusted ({ new, resume }); a yes starts it so
-- (chat/trust.lua).
M.untrusted = {}

-- Starts the chat's CLI unless it runs (resuming the conversation when an
-- earlier one exited); false after telling the user why not, plus
-- "untrusted" when the CLI has not trusted the folder: the host then asks
-- in the transcript (chat/trust.lua), and nothing of the folder runs
-- before a yes. how.new starts a new conversation, how.resume continues
-- that stored session, how.fork forks the conversation just before that
-- prompt (the host's id of it: chat/rewind.lua); each replaces a running CLI,
-- as how.relaunch does (the same conversation, a CLI started anew: chat/modes.lua).
local function start(c, how)
  -- A CLI that runs takes the message as it is: no trust check (a read of
  -- the CLI's config file, which can be megabytes) and no Start round trip
  -- (the host would answer with this same CLI) on every message sent.
  if not how and c.running and not c.revive then
    return true, false
  end
  -- A conversation whose CLI died with the Go host (chat/revive.lua): the
  -- new host does not know it, so it is named. Asking for another one
  -- (new, resume) forgets it.
  local revive = not how and c.revive
  if how then
    c.revive = nil
  elseif revive then
    how = { resume = revive, revive = true }
  end
  local new = how and how.new or false
  if not new and cfg().cli.no_session_persistence and (not how or how.revive) then
    -- Nothing was stored (--no-session-persistence): a CLI started again
    -- cannot resume its conversation, so it starts a new one.
    new, how, revive, c.revive = true, { new = true }, false, nil
  end
  -- A CLI started again for this conversation (the last one exited or
  -- crashed) keeps the mode the user had switched to.
  local keep = not new and c.mode and c.mode ~= "default" and vim.tbl_contains(M.modes, c.mode) and c.mode or nil
  local args, chosen
  if c.agent then
    if not require("claude.agents").get(c.agent) then
      require("claude.notify").error("claude.nvim: no agent " .. c.agent .. " in setup({ chat = { agents = … } })")
      return false
    end
    -- The trust gate reads Claude's config, as for the built-in chat.
    args = require("claude.agents").start_args(c.agent, c.dir, c.cwd or c.dir, keep or c.mode, environment())
  else
    -- cli.fork_session forks a conversation the user chose to resume, not
    -- one started again for itself (its own CLI exited, or died with the host).
    args, chosen = start_args(c.dir, keep, how and how.resume and not how.revive or false, M.remote_for(c.dir))
  end
  if not args then
    return false
  end
  local remote = not c.agent and M.remote_for(c.dir) or nil
  if remote then
    -- The CLI runs on the remote's side (chatctl/remote.go), and the relay
    -- serves its editor tools, so the remote is connected first; the chat
    -- starts once it is. Its folder is trusted by a yes in this Neovim
    -- (chatctl/trust.go: the remote's config is not readable here).
    local r = cfg().remotes[remote]
    local s = require("claude.remote").states()[remote]
    if not (s and s.state == "connected") then
      local ok, err = require("claude.remote").connect(remote)
      if not ok then
        require("claude.notify").error("claude.nvim: " .. tostring(err))
        return false
      end
      return false, "connecting", remote
    end
    args.remote = { name = remote, transport = r.exec or r.terminal, claude = r.claude }
  end
  local trust = require("claude.host").chat_trust_state({ dir = args.dir, cwd = args.cwd, env = args.env, remote = args.remote })
  if not trust then
    return false
  end
  if not trust.trusted then
    M.untrusted[c.dir] = { new = new, resume = how and how.resume or nil }
    return false, "untrusted"
  end
  if chosen then
    require("claude.permission").warn_no_review(chosen)
  end
  if c.bypass_allowed and not c.agent then
    -- The user typed the confirmation for bypassPermissions (chat/modes.lua):
    -- without this flag the CLI refuses to switch to it.
    args.args = vim.list_extend(vim.list_extend({}, args.args), { "--allow-dangerously-skip-permissions" })
  end
  if c.effort and not c.agent then
    -- The effort chosen with :Claude effort outlives the CLI: a
    -- restarted one resumes with it.
    args.args = vim.list_extend(vim.list_extend({}, args.args), { "--effort", c.effort })
  end
  args.new, args.resume, args.revive = new, how and how.resume or "", how and how.revive or false
  args.fork = how and how.fork or ""
  args.relaunch = how and how.relaunch or false
  if require("claude.host").start_chat(args) == nil then
    return false
  end
  c.running = true
  if revive then
    c.revive = nil
  end
  return true, revive and true or false
end
M.start_args, M.start = start_args, start

-- By workspace directory: the remote its chat runs on, as :ClaudeChat
-- remote=NAME chose.
M.remotes = {}

--- The remote dir's chat CLI runs on: :ClaudeChat remote=NAME's, else a
--- remote whose default covers dir, else nil.
function M.remote_for(dir)
  return M.remotes[dir] or require("claude.terminal.remote").default_for(dir)
end

return M
