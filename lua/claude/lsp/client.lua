-- The user's language-server clients (vim.lsp), as both supported Neovims
-- spell them: 0.11 made a client's functions methods (client:request) and
-- 0.12 warns about the old calls. Every request here is asynchronous and
-- bounded: a server that does not answer in time is cancelled and named,
-- and the editor never waits on it.
local M = {}

local methods = vim.fn.has("nvim-0.11") == 1

-- How often a client still starting is looked at again.
local POLL_MS = 30

local function call(c, name, ...)
  if methods then
    return c[name](c, ...)
  end
  return c[name](...)
end

--- A client's name for the model ("gopls").
function M.name(c)
  return c.name or ("language server " .. tostring(c.id))
end

--- Whether client c answers method for buf.
function M.supports(c, method, buf)
  if methods then
    return c:supports_method(method, buf)
  end
  return c.supports_method(method, { bufnr = buf })
end

--- The clients attached to buf, started or still starting.
function M.attached(buf)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf, _uninitialized = true })) do
    if not call(c, "is_stopped") then
      table.insert(out, c)
    end
  end
  return out
end

--- Every running client (workspace symbols ask them all).
function M.running()
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients()) do
    if not call(c, "is_stopped") then
      table.insert(out, c)
    end
  end
  return out
end

--- Calls done(clients, starting) once the clients attached to buf can take
--- requests: clients are those initialized, starting the names of those
--- still starting at deadline (vim.uv.now() milliseconds). With
--- wait_attach (the buffer was loaded just now), a buffer with no client
--- yet is given until attach_by for one to attach (lspconfig and
--- vim.lsp.enable attach on FileType; vim.lsp.start can come later).
function M.when_ready(buf, deadline, attach_by, done)
  local timer = vim.uv.new_timer()
  local function check()
    local all, ready, starting = M.attached(buf), {}, {}
    for _, c in ipairs(all) do
      if c.initialized then
        table.insert(ready, c)
      else
        table.insert(starting, M.name(c))
      end
    end
    local now = vim.uv.now()
    local waiting = (#all == 0 and now < math.min(attach_by, deadline)) or (#starting > 0 and now < deadline)
    if waiting then
      return false
    end
    timer:stop()
    timer:close()
    done(ready, starting)
    return true
  end
  if check() then
    return
  end
  timer:start(POLL_MS, POLL_MS, vim.schedule_wrap(function()
    if not timer:is_closing() then
      check()
    end
  end))
end

--- Sends method to each client (params_of(client) its params) and calls
--- done(replies) once all answered or timeout_ms passed: replies[i] is
--- { client, err, result } or { client, timed_out = true }. Returns a
--- function that cancels what is still out (done is then not called).
function M.ask(clients, method, params_of, buf, timeout_ms, done)
  local replies, out, finished = {}, {}, false
  local timer = vim.uv.new_timer()
  local function finish(cancelled)
    if finished then
      return
    end
    finished = true
    if not timer:is_closing() then
      timer:stop()
      timer:close()
    end
    for i, c in ipairs(clients) do
      if replies[i] == nil then
        replies[i] = { client = c, timed_out = true }
        if out[i] then
          pcall(call, c, "cancel_request", out[i])
        end
      end
    end
    if not cancelled then
      done(replies)
    end
  end
  local left = #clients
  for i, c in ipairs(clients) do
    local ok, sent, id = pcall(call, c, "request", method, params_of(c), function(err, result)
      if finished or replies[i] then
        return
      end
      replies[i] = { client = c, err = err, result = result }
      left = left - 1
      if left == 0 then
        finish()
      end
    end, buf)
    if ok and sent then
      out[i] = id
    elseif not replies[i] then
      local why = ok and "the request could not be sent (has the server stopped?)" or tostring(sent)
      replies[i] = { client = c, err = { message = why } }
      left = left - 1
    end
  end
  if left == 0 then
    finish()
  else
    timer:start(timeout_ms, 0, vim.schedule_wrap(function()
      finish()
    end))
  end
  return function()
    finish(true)
  end
end

return M
