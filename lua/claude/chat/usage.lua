-- The chat's usage (:Claude chat usage): the tokens and cost of the chat's
-- CLI since it started, by model, and the account's plan windows where the
-- CLI reports them (a claude.ai sign-in; an API key has none). The Go host
-- asks the CLI (get_usage: chatctl/usage.go); the winbar's context meter
-- shows the total after each turn.
local M = {}

local panel = require("claude.chat.panel")
local state = require("claude.chat.state")

local function request(dir)
  require("claude.host").chat_usage(dir)
end

local KEYS = { panel.refresh_key(request) }

--- Opens the usage of dir's chat and asks for it.
---@param dir string|nil
function M.open(dir)
  panel.open_asking("usage", dir or state.current_dir(), KEYS, "Usage of the chat's Claude: asking…", request)
end

local function seconds(ms)
  return string.format("%.1f s", (ms or 0) / 1000)
end

--- The host's "usage" item fills the list.
function M.show(c, _, it)
  local p = panel.get("usage", c.dir, KEYS)
  local lines = { "Usage of the chat's Claude since its CLI started" .. require("claude.chat.panel").hint({ { "panels.refresh", "refreshes" }, { "panels.close", "closes" } }) }
  local u = it.usage
  if not u then
    table.insert(lines, "Error: " .. tostring(it.text))
  else
    table.insert(lines, string.format("Session: %d tokens in, %d out · $%.4f · API %s of %s · %d lines added, %d removed", u.tokens_in, u.tokens_out, u.cost_usd, seconds(u.api_ms), seconds(u.wall_ms), u.lines_added, u.lines_removed))
    if (u.context_max or 0) > 0 then
      table.insert(lines, string.format("Context window: %d of %d tokens", u.context_tokens, u.context_max))
    end
    for _, m in ipairs(u.models or {}) do
      table.insert(lines, string.format("  %s: %d in, %d out, %d cache read, %d cache write · $%.4f", m.model, m.input, m.output, m.cache_read, m.cache_create, m.cost_usd))
    end
    if not u.limits_known then
      table.insert(lines, "Plan: none reported (an API key or a provider: no plan windows)")
    else
      table.insert(lines, "Plan" .. (u.plan ~= "" and (" (" .. u.plan .. ")") or "") .. ":")
      for _, l in ipairs(u.limits or {}) do
        local used = l.percent >= 0 and string.format("%.0f%% used", l.percent) or "use not known"
        local reset = l.resets_at ~= "" and (", starts again " .. l.resets_at) or ""
        table.insert(lines, string.format("  %s window: %s%s", l.name, used, reset))
      end
    end
  end
  panel.set(p, lines)
  panel.show(p, false)
end

return M
