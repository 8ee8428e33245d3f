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

-- Full collections to run, one per tick STEP_MS apart. One is not enough:
-- LuaJIT shrinks its string table by half per cycle, and a 5 MiB proposal
-- interned 100,000 lines; after three such diffs one collection left
-- 3.4 MiB of Lua heap, ten left 1.4 (against 0.5 before them). Apart, so
-- that each is a short pause rather than one long one.
local CYCLES = 6
local STEP_MS = 100

--- Once a large proposal shows: one full collection and a trim, now, on a
--- step of its own. What brought the proposal in is garbage by then (its
--- pieces as they came, the texts the hunks were computed from, the RPC
--- arguments), and an editor whose user looks at the view allocates too
--- little to collect it: a 5 MiB proposal held 39 MiB of Lua heap until it
--- closed, 15 after one collection (peerbench, Neovim's RSS 72 -> 52 MiB;
--- the pause 22 ms, 3 for 1 MiB, beside the 100 ms of Neovim's own diff).
function M.release_now()
  collectgarbage("collect")
  trim()
end

--- A moment from now, collects Lua garbage (CYCLES times) and then trims
--- the C heap; calls meanwhile share that one run.
function M.release_soon()
  if pending then
    return
  end
  pending = true
  local left = CYCLES
  local function step()
    collectgarbage("collect")
    left = left - 1
    if left > 0 then
      vim.defer_fn(step, STEP_MS)
      return
    end
    pending = false
    trim()
  end
  vim.defer_fn(step, DELAY_MS)
end

return M
