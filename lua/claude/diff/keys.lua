-- The keys of a diff view (claude.diff): accept, reject, and take back or
-- keep the hunk under the cursor, on the proposal's buffer and, where the
-- user has no map of their own, on their file's; and ZZ/:x accepting.
-- What a key does is claude.diff's, passed in: this module only maps.
local M = {}

-- Maps on the user's own file buffer are shared by every view of that
-- file (each in its tab page): buf -> lhs -> how many views use it. Such a
-- map acts on the view of the current window.
local shared_maps = {}

local KEY_DESC = {
  accept = "Claude: accept the proposal",
  reject = "Claude: reject the proposal",
  take_back = "Claude: take back the hunk under the cursor (keep the file's text there)",
  take_back_why = "Claude: take back the hunk under the cursor and tell Claude why",
  keep = "Claude: keep the hunk under the cursor, go to the next open one",
}

-- The keys that decide one hunk (claude.diff.hunks), not the proposal.
local HUNK_ACTIONS = { take_back = true, take_back_why = true, keep = true }
M.HUNK_ACTIONS = HUNK_ACTIONS

--- Buffer-local maps on a diff buffer. On the user's own file buffer they
--- are only added where the user has no map of their own, and removed again
--- when the last view using them closes. actions: decide(id, decision),
--- decide_hunk(id, action), decide_current(decision) (claude.diff's).
function M.set(view, buf, owned, actions)
  local cfg = require("claude.config").get().diff
  if not cfg.use_default_keymaps or not require("claude.keys").on("review") then
    return
  end
  local keys = cfg.keymaps
  local lhs_of = {
    accept = keys.accept,
    reject = keys.reject,
    take_back = keys.take_back,
    take_back_why = keys.take_back_why,
    keep = keys.keep,
  }
  for decision, lhs in pairs(lhs_of) do
    if lhs then
      local desc = KEY_DESC[decision]
      if owned then
        vim.keymap.set("n", lhs, function()
          local act = HUNK_ACTIONS[decision] and actions.decide_hunk or actions.decide
          act(view.id, decision)
        end, { buffer = buf, nowait = true, desc = desc })
        table.insert(view.maps, { buf = buf, lhs = lhs })
      else
        shared_maps[buf] = shared_maps[buf] or {}
        local uses = shared_maps[buf][lhs]
        -- A key gives way to any map there, global ones too (the user's,
        -- or another plugin's <leader>a…): the proposal's window has it.
        local theirs = next(vim.fn.maparg(lhs, "n", false, true)) ~= nil
        if not uses and not theirs then
          vim.keymap.set("n", lhs, function()
            actions.decide_current(decision)
          end, { buffer = buf, nowait = true, desc = desc })
          uses = 0
        end
        if uses then
          shared_maps[buf][lhs] = uses + 1
          table.insert(view.maps, { buf = buf, lhs = lhs, shared = true })
        end
      end
    end
  end
end

--- Removes the maps M.set gave view.
function M.clear(view)
  for _, m in ipairs(view.maps) do
    local last = true
    if m.shared then
      local uses = (shared_maps[m.buf] or {})[m.lhs] or 1
      last = uses <= 1
      shared_maps[m.buf][m.lhs] = (not last) and uses - 1 or nil
    end
    if last and vim.api.nvim_buf_is_valid(m.buf) then
      pcall(vim.keymap.del, "n", m.lhs, { buffer = m.buf })
    end
  end
  view.maps = {}
end

--- ZZ and :x write a buffer only when it is modified, and an untouched
--- proposal is not: without this they would close it, a rejection, where
--- the user asked to save. In the proposal they accept, like :wq.
function M.save_and_quit_accepts(view, decide)
  require("claude.keys").map(view.prop_buf, "review.accept_zz", function()
    decide(view.id, "accept")
  end)
  vim.api.nvim_buf_call(view.prop_buf, function()
    for _, cmd in ipairs({ "x", "xi", "xit", "exi", "exit" }) do
      vim.cmd(
        string.format(
          "cnoreabbrev <buffer> <expr> %s getcmdtype() ==# ':' && getcmdline() ==# '%s' ? 'wq' : '%s'",
          cmd,
          cmd,
          cmd
        )
      )
    end
  end)
end

return M
