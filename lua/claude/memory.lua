-- Gives memory back to the system after a big proposal is gone. Neither the
-- Lua collector nor glibc's allocator does it by itself in an idle editor:
-- after three 5 MiB diffs Neovim kept 66 MiB more than before (issue 15).
local M = {}

-- Wait this long after the view closed: the last references (the request,
-- scheduled callbacks) go first, and a run of diffs shares one collection.
local DELAY_MS = 1000

local pending = false

-- glibc's malloc_trim(0) hands free heap pages back; elsewhere (macOS,
-- musl) there is no such function and the call fails quietly.
local function trim()
  if jit == nil then
    return
  end
  local ffi = require("ffi")
  pcall(ffi.cdef, "int malloc_trim(size_t pad);")
  pcall(function()
    ffi.C.malloc_trim(0)
  end)
end

--- Collects Lua garbage and trims the C heap, once, a moment from now.
function M.release_soon()
  if pending then
    return
  end
  pending = true
  vim.defer_fn(function()
    pending = false
    collectgarbage("collect")
    trim()
  end, DELAY_MS)
end

return M
