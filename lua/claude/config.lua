-- Options of claude.nvim: the defaults (documented in :help claude-config)
-- and the checker that merges a user's table into them.
local M = {}

---@class claude.Config
M.defaults = {
  -- Start the server when Neovim starts instead of on the first :Claude*
  -- command. The Go host is started asynchronously either way.
  auto_start = false,
  -- Command that starts the CLI in the terminal split (a string or a list).
  terminal_cmd = "claude",
  -- Extra environment for the CLI, merged over ours.
  env = {},
  terminal = {
    -- Where the split opens: "right", "left", "above", "below", "tab" or
    -- "float" (a window over the editor; see float below).
    position = "right",
    -- Width (or height for above/below): a fraction of the editor (< 1)
    -- or a number of columns/lines (>= 1).
    size = 0.4,
    -- The floating window of position = "float": width and height as
    -- fractions (< 1) or columns/lines (>= 1), and its 'border'.
    float = {
      width = 0.8,
      height = 0.8,
      border = "rounded",
    },
    -- Enter insert (terminal) mode when the terminal gets focus.
    auto_insert = true,
  },
  -- Ports the WebSocket server may use, { min, max }; nil lets the OS pick.
  port_range = nil,
  -- Name shown by the CLI ("/ide", "Opened changes in Neovim").
  ide_name = "Neovim",
  diff = {
    -- "vertical" or "horizontal" split between current file and proposal.
    layout = "vertical",
    -- Open each diff in a new tab page instead of the current one.
    open_in_new_tab = false,
    -- Leave focus in the Claude terminal when a diff opens.
    keep_terminal_focus = false,
    -- Buffer-local keys on diff buffers; set a key to false to disable it.
    keymaps = {
      accept = "<leader>aa",
      reject = "<leader>ad",
    },
    -- Install the keymaps above at all.
    use_default_keymaps = true,
  },
  -- Reload buffers whose files Claude changed on disk (never one with
  -- unsaved changes: those get a warning instead).
  auto_reload = true,
  log = {
    -- "error", "warn", "info" or "debug".
    level = "info",
    -- Log file; nil means stdpath("log") .. "/claude.log".
    file = nil,
  },
}

local kinds = {
  auto_start = "boolean",
  terminal_cmd = { "string", "table" },
  env = "table",
  terminal = "table",
  ["terminal.position"] = "string",
  ["terminal.size"] = "number",
  ["terminal.auto_insert"] = "boolean",
  ["terminal.float"] = "table",
  ["terminal.float.width"] = "number",
  ["terminal.float.height"] = "number",
  ["terminal.float.border"] = { "string", "table" },
  port_range = { "table", "nil" },
  ide_name = "string",
  diff = "table",
  ["diff.layout"] = "string",
  ["diff.open_in_new_tab"] = "boolean",
  ["diff.keep_terminal_focus"] = "boolean",
  ["diff.keymaps"] = "table",
  ["diff.keymaps.accept"] = { "string", "boolean" },
  ["diff.keymaps.reject"] = { "string", "boolean" },
  ["diff.use_default_keymaps"] = "boolean",
  auto_reload = "boolean",
  log = "table",
  ["log.level"] = "string",
  ["log.file"] = { "string", "nil" },
}

local choices = {
  ["terminal.position"] = { "right", "left", "above", "below", "tab", "float" },
  ["diff.layout"] = { "vertical", "horizontal" },
  ["log.level"] = { "error", "warn", "info", "debug" },
}

local function type_ok(value, want)
  if type(want) == "string" then
    return type(value) == want
  end
  return vim.tbl_contains(want, type(value))
end

local function describe(want)
  return type(want) == "string" and want or table.concat(want, " or ")
end

-- Walks the user's table against the defaults: wrong types are errors,
-- unknown keys are collected as warnings (a typo should not be silent).
local function check(user, defaults, prefix, unknown)
  for key, value in pairs(user) do
    local name = prefix .. key
    local want = kinds[name]
    if want == nil then
      table.insert(unknown, name)
    elseif want ~= nil then
      if not type_ok(value, want) then
        error(string.format("claude.nvim: option %s must be a %s, got %s", name, describe(want), type(value)), 0)
      end
      if choices[name] and not vim.tbl_contains(choices[name], value) then
        error(
          string.format(
            "claude.nvim: option %s must be one of %s, got %q",
            name,
            table.concat(choices[name], ", "),
            tostring(value)
          ),
          0
        )
      end
      if type(value) == "table" and type(defaults[key]) == "table" and name ~= "env" then
        check(value, defaults[key], name .. ".", unknown)
      end
    end
  end
end

local function check_values(cfg)
  for name, size in pairs({
    ["terminal.size"] = cfg.terminal.size,
    ["terminal.float.width"] = cfg.terminal.float.width,
    ["terminal.float.height"] = cfg.terminal.float.height,
  }) do
    if size <= 0 then
      error("claude.nvim: option " .. name .. " must be > 0 (a fraction < 1 or a number of columns/lines)", 0)
    end
  end
  local range = cfg.port_range
  if range ~= nil then
    local lo, hi = range[1], range[2]
    if type(lo) ~= "number" or type(hi) ~= "number" or lo < 1 or hi > 65535 or lo > hi then
      error("claude.nvim: option port_range must be { min, max } with 1 <= min <= max <= 65535", 0)
    end
  end
  local cmd = cfg.terminal_cmd
  if (type(cmd) == "string" and vim.trim(cmd) == "") or (type(cmd) == "table" and #cmd == 0) then
    error("claude.nvim: option terminal_cmd must name a command", 0)
  end
  for k, v in pairs(cfg.env) do
    if type(k) ~= "string" or (type(v) ~= "string" and type(v) ~= "number") then
      error("claude.nvim: option env must map names to strings", 0)
    end
  end
end

--- Returns defaults merged with opts, or raises an error naming the bad key.
---@param opts table|nil
---@return claude.Config config
---@return string[] unknown keys that were ignored
function M.resolve(opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    error("claude.nvim: setup() takes a table of options, got " .. type(opts), 0)
  end
  local unknown = {}
  check(opts, M.defaults, "", unknown)
  local cfg = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts)
  -- A list replaces the default rather than merging index by index.
  if opts.terminal_cmd ~= nil then
    cfg.terminal_cmd = opts.terminal_cmd
  end
  if opts.port_range ~= nil then
    cfg.port_range = opts.port_range
  end
  check_values(cfg)
  table.sort(unknown)
  return cfg, unknown
end

return M
