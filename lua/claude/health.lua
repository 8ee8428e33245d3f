-- :checkhealth claude. Each section is tagged in doc/claude.txt
-- (claude-health-<section>); every problem comes with the command that
-- fixes it. Nothing here starts the server or the Go host.
local M = {}

local health = vim.health

-- The Claude Code versions the end-to-end tests run (make e2e-range): the
-- pinned one (scripts/install-claude-cli) and the oldest still supported.
-- Keep in step with README.md and doc/claude.txt.
local OLDEST_CLI, NEWEST_CLI = "2.1.197", "2.1.332"
-- How long a `--version` may take before we call it hung.
local VERSION_TIMEOUT_MS = 10000

local PROXY_VARS = { "http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY" }

local function octal(mode)
  return string.format("%o", mode % 512)
end

-- Runs argv and returns its first output line, or nil and why not.
local function first_line(argv, env)
  local ok, proc = pcall(vim.system, argv, { text = true, env = env })
  if not ok then
    return nil, tostring(proc)
  end
  local res = proc:wait(VERSION_TIMEOUT_MS)
  if (res.signal or 0) ~= 0 then
    -- wait() kills the process when the time is up.
    return nil, string.format("no answer within %d s (killed)", VERSION_TIMEOUT_MS / 1000)
  end
  local out = vim.trim(res.stdout or "")
  if res.code ~= 0 then
    local err = vim.trim(res.stderr or "")
    return nil, string.format("exit code %d%s", res.code, err ~= "" and (": " .. err:gsub("\n.*", "")) or "")
  end
  return (out:gsub("\n.*", ""))
end

local function check_neovim()
  health.start("Neovim")
  local v = vim.version()
  local have = string.format("%d.%d.%d", v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.10") == 1 then
    health.ok("Neovim " .. have)
  else
    health.error("Neovim " .. have .. " is too old", "claude.nvim needs Neovim 0.10 or newer: upgrade Neovim")
  end
  if vim.g.loaded_claude then
    health.ok("plugin/claude.lua is loaded (the :Claude commands exist)")
  else
    health.error(
      "plugin/claude.lua was not sourced: the :Claude commands are missing",
      "put the plugin directory on 'runtimepath' before startup, or let your plugin manager load it (see :help claude-install)"
    )
  end
end

local function check_setup()
  health.start("Setup")
  local claude = require("claude")
  if claude.setup_called() then
    health.ok("setup() was called")
  else
    health.warn("setup() was not called: the defaults are in use", {
      "add `require('claude').setup({})` to your config",
      "with lazy.nvim, give the spec `opts = {}`",
    })
  end
  local cfg = claude.config()
  health.info(
    string.format("log file: %s (level %s); :Claude log opens it", require("claude.host").log_file(), cfg.log.level)
  )
  local keys = require("claude.keys")
  local off = {}
  for area in pairs(keys.areas) do
    if not keys.on(area) then
      table.insert(off, area)
    end
  end
  table.sort(off)
  if #off == 0 then
    health.info("keys: every default key is on (:help claude-keys)")
  elseif cfg.keys == false then
    health.info("keys = false: no default key is set; each has a <Plug> map to bind (:help claude-keys)")
  else
    health.info("keys: the defaults of " .. table.concat(off, ", ") .. " are off; each has a <Plug> map to bind (:help claude-keys)")
  end
end

-- Where the binary came from (scripts/install-binary's record) and how to
-- update it.
local function report_origin(bin, install)
  local origin = require("claude.host").origin()
  if origin and origin.method == "download" then
    health.info(
      string.format(
        "downloaded from %s and verified against the release's SHA256SUMS; after updating the plugin, update it with `%s` (lazy.nvim does on :Lazy update)",
        origin.url or "?",
        install
      )
    )
  elseif origin and origin.method == "source" then
    health.info(
      string.format("built from source (%s); after updating the plugin, rebuild it with `%s`", origin.go or "go", install)
    )
  elseif vim.g.claude_nvim_binary then
    health.info("set by vim.g.claude_nvim_binary; update it the way you installed it")
  else
    health.info(
      string.format(
        "where it came from is not recorded (no %s.source, or the binary is newer); `%s` installs the release binary",
        bin,
        install
      )
    )
  end
end

local function check_binary()
  health.start("Go binary")
  local host = require("claude.host")
  local bin = host.binary()
  local from = vim.g.claude_nvim_binary and " (from vim.g.claude_nvim_binary)" or ""
  local install = host.install_command()
  local rebuild = string.format("run `%s`", install)
  local lazy = "with lazy.nvim: `:Lazy build claude.nvim`"
  local stat = vim.uv.fs_stat(bin)
  if not stat then
    health.error("binary not found: " .. bin .. from, {
      rebuild .. " (downloads the release binary; no Go needed)",
      lazy,
      "to build from source instead (Go 1.24 or newer): `make` in " .. host.root(),
    })
    return
  end
  if stat.type ~= "file" or vim.fn.executable(bin) ~= 1 then
    health.error("not an executable file: " .. bin .. from, { "run `chmod +x " .. bin .. "`, or " .. rebuild })
    return
  end
  local want = require("claude").version
  local version, err = first_line({ bin, "-version" })
  if not version then
    health.error(string.format("`%s -version` failed: %s", bin, err), { rebuild, lazy })
    return
  end
  if version ~= want then
    health.error(
      string.format("%s is version %s but the plugin is %s (from another version of the plugin)", bin, version, want),
      { "update it: " .. rebuild, lazy }
    )
    return
  end
  health.ok(string.format("%s%s, version %s (matches the plugin)", bin, from, version))
  report_origin(bin, install)
  if vim.fn.filereadable(host.manifest()) ~= 1 then
    health.error(host.manifest() .. " is missing: the checkout is incomplete", "reinstall the plugin (git checkout .)")
  end
end

-- The program terminal_cmd runs (nil when only a shell can tell), and the
-- argv that asks it for its version.
local function cli_command()
  local cmd = require("claude.config").get().terminal_cmd
  local name = require("claude.terminal").program()
  if type(cmd) == "table" then
    return name, vim.list_extend(vim.deepcopy(cmd), { "--version" })
  end
  -- A string is a shell command line (as in the terminal); a single word
  -- needs no shell.
  if name and vim.trim(cmd) == name then
    return name, { name, "--version" }
  end
  local shell = vim.split(vim.trim(vim.o.shell), "%s+")
  return name, vim.list_extend(shell, { vim.o.shellcmdflag, cmd .. " --version" })
end

-- The CLI's version, once check_cli found it (for check_chat).
local cli_version

local function check_cli()
  health.start("Claude CLI")
  local cfg = require("claude.config").get()
  local name, argv = cli_command()
  local path = name and vim.fn.exepath(name) or vim.inspect(cfg.terminal_cmd)
  if path == "" then
    health.error(string.format("`%s` (terminal_cmd) is not an executable on $PATH", name), {
      "install Claude Code: `npm install -g @anthropic-ai/claude-code` (or see https://docs.anthropic.com/en/docs/claude-code)",
      "or point terminal_cmd at it: `require('claude').setup({ terminal_cmd = '/path/to/claude' })`",
    })
    return
  end
  local env = next(cfg.env) and vim.tbl_map(tostring, cfg.env) or nil
  local line, err = first_line(argv, env)
  if not line then
    local shown = name or vim.inspect(cfg.terminal_cmd)
    health.error(string.format("`%s --version` failed: %s", shown, err), "run it in a shell to see why")
    return
  end
  health.ok(string.format("%s: %s", path, line))
  local version = line:match("^(%d+%.%d+%.%d+)")
  cli_version = version
  local range = string.format("%s to %s", OLDEST_CLI, NEWEST_CLI)
  if not version then
    health.info("claude.nvim supports Claude Code " .. range)
  elseif vim.version.lt(version, OLDEST_CLI) then
    health.warn(
      string.format("Claude Code %s is older than the supported %s", version, range),
      "update Claude Code: `claude update` (or `npm install -g @anthropic-ai/claude-code`)"
    )
  elseif vim.version.gt(version, NEWEST_CLI) then
    health.warn(
      string.format("Claude Code %s is newer than the supported %s: it may work, but was not tested", version, range),
      "if something breaks, pin the tested one: `npm install -g @anthropic-ai/claude-code@" .. NEWEST_CLI .. "`"
    )
  else
    health.ok(string.format("Claude Code %s is in the supported range %s", version, range))
  end
  for _, source in ipairs({ cfg.env, vim.env }) do
    local auto = source.CLAUDE_CODE_AUTO_CONNECT_IDE
    if auto == "0" or auto == "false" then
      health.warn(
        "CLAUDE_CODE_AUTO_CONNECT_IDE=" .. auto .. " stops the CLI from connecting to Neovim",
        "unset it (or remove it from the env option); inside claude, /ide still connects by hand"
      )
      break
    end
  end
end

-- What setup()'s cli options pass to the terminal's CLI and to the chat's,
-- and, the CLI's version known, any flag that version does not take.
local function check_flags()
  health.start("CLI flags")
  local cfg = require("claude.config").get()
  local flags = require("claude.flags")
  local function shown(e)
    if not e.value then
      return e.flag
    end
    local v = #e.value > 60 and (e.value:sub(1, 57) .. "...") or e.value
    return e.flag .. " " .. string.format("%q", v)
  end
  local any = false
  for _, kind in ipairs({ "terminal", "chat" }) do
    local entries = flags.configured(cfg.cli, kind)
    if #entries > 0 then
      any = true
      health.ok(string.format("the %s's CLI gets %s", kind, table.concat(vim.tbl_map(shown, entries), " ")))
      for _, u in ipairs(cli_version and flags.unsupported(entries, cli_version) or {}) do
        health.warn(
          string.format("%s may not be taken by this CLI (%s): the %s would not start", u.flag, u.why, kind),
          "update Claude Code, or remove the flag from setup()'s cli options"
        )
      end
    end
  end
  if not any then
    health.info("setup()'s cli options add no flag (:help claude-config-cli)")
    return
  end
  local chat_only = {}
  for _, e in ipairs(flags.configured(cfg.cli, "chat")) do
    local k = flags.known[e.flag]
    if k and k.print then
      table.insert(chat_only, e.flag)
    end
  end
  if #chat_only > 0 then
    health.info(table.concat(chat_only, ", ") .. ": the chat's only (the CLI takes them with --print only)")
  end
  if cfg.cli.fork_session then
    health.info("--fork-session is added only when a conversation is resumed (:Claude open --resume/--continue, :ClaudeChat resume/last)")
  end
  health.info("flags checked against Claude Code " .. table.concat(vim.list_slice(flags.checked, 2), " and "))
end

-- Whether :Claude dictate can run: both commands set and on $PATH.
local function check_dictation()
  health.start("Dictation")
  local cfg = require("claude.config").get().dictation
  if not cfg.record or not cfg.transcribe then
    health.info("off: set dictation.record and dictation.transcribe in setup() to use :Claude dictate (:help claude-dictation)")
    return
  end
  for _, which in ipairs({ "record", "transcribe" }) do
    local prog = cfg[which][1]
    if vim.fn.exepath(prog) == "" then
      health.error(
        string.format("dictation.%s runs `%s`, which is not an executable on $PATH", which, prog),
        "install it, or give its full path in setup()"
      )
    else
      health.ok(string.format("dictation.%s: %s", which, table.concat(cfg[which], " ")))
    end
  end
  health.info(
    "they run only when you use :Claude dictate, without a shell; the audio goes to a private (0700) temporary directory, removed after; the text is put in the chat's input or Claude's prompt and never sent"
  )
end

local function lock_dir()
  local d = vim.env.CLAUDE_CONFIG_DIR
  if d and d ~= "" then
    return d .. "/ide"
  end
  return (vim.uv.os_homedir() or vim.env.HOME or "~") .. "/.claude/ide"
end

-- A lock file's JSON, or nil: read only when it is a regular file of at
-- most 64 KiB, never through a symbolic link (one to /dev/zero would read
-- until memory ran out) and never waiting (a FIFO would hang :checkhealth).
-- The descriptor must be the file lstat saw: a swap in between is refused.
local MAX_LOCK = 64 * 1024
local function read_lock(path, lstat)
  if not lstat or lstat.type ~= "file" or lstat.size > MAX_LOCK then
    return nil
  end
  local uv = vim.uv
  local fd = uv.fs_open(path, uv.constants.O_RDONLY + uv.constants.O_NONBLOCK, 0)
  if not fd then
    return nil
  end
  local st = uv.fs_fstat(fd)
  local data
  if st and st.type == "file" and st.ino == lstat.ino and st.dev == lstat.dev and st.size <= MAX_LOCK then
    data = uv.fs_read(fd, MAX_LOCK, 0)
  end
  uv.fs_close(fd)
  return data
end

-- Lock files: <port>.lock holding JSON; returns { path, port, info, stat }.
local function lock_files(dir)
  local out = {}
  for name, kind in vim.fs.dir(dir) do
    local port = name:match("^(%d+)%.lock$")
    if port and (kind == "file" or kind == "link") then
      local path = dir .. "/" .. name
      local stat = vim.uv.fs_lstat(path)
      local data = read_lock(path, stat)
      local ok, info = pcall(vim.json.decode, data or "")
      table.insert(out, {
        path = path,
        port = tonumber(port),
        info = ok and type(info) == "table" and info or {},
        stat = stat,
      })
    end
  end
  return out
end

local function alive(pid)
  return type(pid) == "number" and pid > 0 and vim.uv.kill(pid, 0) == 0
end

local function inside(dir, folders)
  for _, f in ipairs(type(folders) == "table" and folders or {}) do
    if type(f) == "string" and (dir == f or vim.startswith(dir, f:gsub("/$", "") .. "/")) then
      return true
    end
  end
  return false
end

-- The directory itself: there (or to be made), ours, 0700, writable, not a
-- symbolic link (the server refuses it then: lockfile.EnsureDir).
-- Returns whether it exists as a directory (so its files can be listed).
local function check_dir(dir)
  local stat = vim.uv.fs_lstat(dir)
  local uid = vim.uv.getuid()
  if not stat then
    health.ok(dir .. " does not exist yet; the server creates it with mode 0700")
    return false
  elseif stat.type == "link" then
    health.error(
      string.format("%s is a symbolic link (to %s): the server refuses it", dir, vim.uv.fs_readlink(dir) or "?"),
      "replace it with a directory of your own: `rm " .. dir .. " && mkdir -m 700 " .. dir .. "`"
    )
    return false
  elseif stat.type ~= "directory" then
    health.error(dir .. " is not a directory", "move that file away: `mv " .. dir .. " " .. dir .. ".bak`")
    return false
  elseif stat.uid ~= uid then
    health.error(
      string.format("%s is owned by uid %d, not by you (uid %d): the server refuses it", dir, stat.uid, uid),
      "remove it or fix its owner: `sudo chown $USER " .. dir .. "`"
    )
    return false
  elseif stat.mode % 512 ~= 448 then -- 0700
    local open = stat.mode % 64 ~= 0
    health.error(
      string.format(
        "%s has mode %s, want 700 (%s)",
        dir,
        octal(stat.mode),
        open and "other users could plant lock files or read tokens" or "the owner needs rwx to write lock files"
      ),
      "run `chmod 700 " .. dir .. "`"
    )
  elseif not vim.uv.fs_access(dir, "W") then
    health.error(dir .. " is not writable", "check the file system and its mount options")
  else
    health.ok(dir .. " has mode 700 and is writable")
  end
  return true
end

-- A CLAUDE_CONFIG_DIR set only in the env option: the CLI would look for
-- lock files elsewhere than the server writes them.
local function check_config_dir_env()
  local cfg_dir = require("claude.config").get().env.CLAUDE_CONFIG_DIR
  if cfg_dir and vim.env.CLAUDE_CONFIG_DIR and vim.env.CLAUDE_CONFIG_DIR ~= "" and cfg_dir ~= vim.env.CLAUDE_CONFIG_DIR then
    health.warn(
      string.format(
        "the env option sets CLAUDE_CONFIG_DIR=%s but Neovim has %s: the CLI will not find the lock file",
        cfg_dir,
        vim.env.CLAUDE_CONFIG_DIR
      ),
      "set CLAUDE_CONFIG_DIR in the shell that starts Neovim instead of in the env option"
    )
  end
end

-- The lock files: regular, 0600, and which editors serve this directory.
local function check_lock_files(dir)
  local mine, others = nil, {}
  local pid, cwd, uid = vim.fn.getpid(), vim.fn.getcwd(), vim.uv.getuid()
  local listed, locks = pcall(lock_files, dir)
  if not listed then
    health.error("cannot list " .. dir .. ": " .. tostring(locks), "run `chmod 700 " .. dir .. "`")
    return
  end
  for _, lock in ipairs(locks) do
    local st = lock.stat
    if st and st.type ~= "file" then
      health.error("lock file " .. lock.path .. " is not a regular file", "remove it: `rm " .. lock.path .. "`")
    elseif st and st.uid == uid and st.mode % 512 ~= 384 then -- 0600
      health.error(
        string.format("lock file %s has mode %s, want 600 (others could read its token)", lock.path, octal(st.mode)),
        "run `chmod 600 " .. lock.path .. "`"
      )
    end
    if lock.info.pid == pid then
      mine = lock
    elseif alive(lock.info.pid) and inside(cwd, lock.info.workspaceFolders) then
      table.insert(others, lock)
    end
  end
  if mine then
    health.ok("this Neovim's lock file: " .. mine.path)
  end
  if #others > 0 then
    local names = {}
    for _, l in ipairs(others) do
      table.insert(names, string.format("%s (pid %d, port %d)", l.info.ideName or "?", l.info.pid, l.port))
    end
    local say = mine and health.warn or health.info
    say("other editors also serve this directory: " .. table.concat(names, ", "), {
      "a `claude --ide` started here connects to none of them when more than one is valid",
      "inside claude, type /ide and pick this Neovim; or start Claude with :Claude open (it always connects here)",
    })
  end
end

-- The one judge of the lock directory (the Go side only creates it): it
-- works when the Go binary does not, which is when users run it.
local function check_lock_dir()
  health.start("Lock directory")
  local dir = lock_dir()
  local exists = check_dir(dir)
  check_config_dir_env()
  if exists then
    check_lock_files(dir)
  end
end

local function check_server()
  health.start("Server")
  if not require("claude.host").running() then
    local cfg = require("claude.config").get()
    health.info(
      "not running: :Claude open or :Claude server start starts it"
        .. (cfg.auto_start and " (auto_start starts it on VimEnter)" or " (auto_start is off)")
    )
    return
  end
  local s = require("claude").status()
  if not s.running then
    health.info("the Go host runs but the server is stopped: :Claude server start starts it")
    return
  end
  health.ok(string.format("listening on 127.0.0.1:%d, lock file %s", s.port, s.lockfile))
  if vim.fn.filereadable(s.lockfile) ~= 1 then
    health.error("the lock file " .. s.lockfile .. " is gone: the CLI cannot find this Neovim", "run :Claude server stop then :Claude server start")
  end
  health.info(
    "the connection also answers the WebSocket variant's readFile, writeFile (opens the review, never writes), listFiles, getWorkspaceInfo, getOpenFiles and getCurrentFile, for files inside the workspace folders only (:help claude-variant-methods)"
  )
  if #s.clients == 0 then
    health.info("no Claude CLI connected: :Claude open starts one; or run `claude` in this directory and type /ide")
  end
  for _, c in ipairs(s.clients) do
    health.ok(
      string.format(
        "connected: %s %s, pid %s%s",
        c.name ~= "" and c.name or "?",
        c.version,
        c.pid ~= 0 and c.pid or "?",
        c.ready and "" or " (still connecting)"
      )
    )
  end
  local terminal = require("claude.terminal")
  for _, x in ipairs(s.sessions or {}) do
    if x.session ~= 1 then
      local lock_ok = vim.fn.filereadable(x.lockfile) == 1
      local report = lock_ok and health.ok or health.error
      report(
        string.format(
          "session %d (%s): 127.0.0.1:%d, %d client%s, lock file %s",
          x.session,
          vim.fn.fnamemodify(x.cwd, ":~"),
          x.port,
          #x.clients,
          #x.clients == 1 and "" or "s",
          lock_ok and x.lockfile or (x.lockfile .. " is gone: run :Claude close in its tab page, then :Claude open")
        )
      )
    end
  end
  if terminal.is_running() then
    health.info("the Claude terminal (:Claude open) is running")
  elseif terminal.buf() then
    health.warn(
      "the CLI in the Claude terminal has exited",
      ":Claude focus shows its last output (why it stopped); :Claude open starts a new one"
    )
  end
end

-- Whether a NO_PROXY-style list keeps 127.0.0.1 away from the proxy.
-- Each configured remote (setup's remotes): its transport's command, its
-- map's local directories, and its state as the host last pushed it.
local function check_remotes()
  health.start("Remotes")
  local remotes = require("claude.config").get().remotes or {}
  local names = require("claude.remote").names()
  if #names == 0 then
    health.info("none configured (setup({ remotes = ... }), :help claude-remote)")
    return
  end
  local states = require("claude.remote").states()
  for _, name in ipairs(names) do
    local r = remotes[name]
    local transport = r.command or r.exec
    if vim.fn.executable(transport[1]) ~= 1 then
      health.error(string.format("%s: the transport %q is not on $PATH", name, transport[1]), "install it or give its full path in remotes." .. name .. (r.command and ".command" or ".exec"))
    end
    if not r.command then
      health.info(name .. ": the relay is this claude-nvim, copied there when missing (checksum-verified) into ~/.local/share/claude-nvim/" .. require("claude.version").version)
    end
    if r.terminal and vim.fn.executable(r.terminal[1]) ~= 1 then
      health.error(string.format("%s: the terminal command %q is not on $PATH", name, r.terminal[1]), "install it or give its full path in remotes." .. name .. ".terminal")
    elseif r.terminal then
      health.info(string.format("%s: :Claude open remote=%s starts Claude there with %s%s", name, name, table.concat(r.terminal, " "),
        r.default and " (also plain :Claude open in its map's directories)" or ""))
    end
    for remote, l in pairs(r.map) do
      local dir = vim.fn.expand(l)
      if vim.fn.isdirectory(dir) ~= 1 then
        health.warn(string.format("%s: %s maps to %s, which is not a directory here", name, remote, l), "mount the remote files there (sshfs, a bind mount) or fix the map")
      end
    end
    local s = states[name]
    if not s then
      health.info(name .. ": not connected (:Claude remote connect " .. name .. ")")
    elseif s.state == "connected" then
      health.ok(
        string.format(
          "%s: connected; relay pid %d on its 127.0.0.1:%d, lock %s; %d CLI%s connected",
          name,
          s.pid or 0,
          s.port or 0,
          s.lockfile or "?",
          s.clients or 0,
          (s.clients or 0) == 1 and "" or "s"
        )
      )
      if s.hook_settings and s.hook_settings ~= "" then
        health.info(string.format("%s: its hooks reach the plugin with `claude --settings %s` there (:Claude open remote=%s passes it)", name, s.hook_settings, name))
      end
      if s.mcp_config and s.mcp_config ~= "" then
        local via = r.exec or r.terminal
        health.info(string.format(
          "%s: :Claude chat remote=%s runs the chat's CLI there through %s, with the editor's getDiagnostics and language-server tools from --mcp-config %s",
          name,
          name,
          via and table.concat(via, " ") or "nothing (give the remote exec or terminal)",
          s.mcp_config
        ))
      end
    elseif s.state == "connecting" then
      health.info(name .. ": connecting")
    elseif s.state == "dropped" or s.state == "failed" then
      health.error(string.format("%s: %s: %s", name, s.state, s.error or "?"), ":Claude remote connect " .. name .. " connects again")
    else
      health.info(name .. ": " .. s.state)
    end
  end
end

local function bypasses_loopback(list)
  for item in (list or ""):gmatch("[^,%s]+") do
    if item == "*" or item == "127.0.0.1" or item:match("^127%.") then
      return true
    end
  end
  return false
end

local function check_proxy()
  health.start("Proxy")
  local set = {}
  for _, name in ipairs(PROXY_VARS) do
    local v = vim.env[name]
    if v and v ~= "" then
      table.insert(set, name)
    end
  end
  if #set == 0 then
    health.ok("no proxy variables set")
    return
  end
  -- Programs read one or the other; every one that is set must list
  -- loopback, and at least one must be set.
  local lacking, listed = {}, {}
  for _, name in ipairs({ "NO_PROXY", "no_proxy" }) do
    local v = vim.env[name]
    if v and v ~= "" then
      table.insert(bypasses_loopback(v) and listed or lacking, name)
    end
  end
  if #lacking == 0 and #listed > 0 then
    health.ok(table.concat(set, ", ") .. " set; " .. table.concat(listed, " and ") .. " list 127.0.0.1")
    return
  end
  if #lacking == 0 then
    lacking = { "NO_PROXY", "no_proxy" }
  end
  health.warn(
    string.format(
      "%s set, but 127.0.0.1 is not in %s. :Claude open adds loopback for the CLI it starts; a `claude` you start yourself (/ide, --ide) would send its connection to Neovim through the proxy",
      table.concat(set, ", "),
      table.concat(lacking, " and ")
    ),
    'add to your shell profile: `export NO_PROXY="${NO_PROXY:+$NO_PROXY,}127.0.0.1,localhost,::1" no_proxy="${no_proxy:+$no_proxy,}127.0.0.1,localhost,::1"`'
  )
end

-- Whether Claude's edits reach the review in Neovim: the permission mode a
-- CLI started here would get (permission_mode, the user's Claude settings,
-- or ours), and allow rules that let edits through without asking.
local function check_review()
  health.start("Review of edits")
  local permission = require("claude.permission")
  local cwd = require("claude.terminal").session_cwd()
  local r = permission.resolve({}, cwd)
  local how = "for a review before each edit: `require('claude').setup({ permission_mode = 'default' })`"
  if r.cli_default then
    health.warn("the permission mode is " .. permission.describe(r) .. ": since Claude Code 2.1.332 that is auto, which writes most edits without the review", { how })
  elseif not r.mode then
    health.info("the permission mode is " .. permission.describe(r))
  elseif permission.bypasses_review(r.mode) then
    local fix = { how }
    if not r.flag then
      table.insert(fix, "or remove permissions.defaultMode from " .. (r.source:gsub("^defaultMode in ", "")))
    end
    health.warn("Claude's edits bypass the review: " .. permission.describe(r), fix)
  else
    health.ok("Claude starts in " .. permission.describe(r))
  end
  for _, rule in ipairs(permission.edit_allow_rules(cwd)) do
    health.warn("the allow rule " .. rule .. " lets matching edits through without the review", {
      "remove it from permissions.allow if you want to review those edits",
    })
  end
  local running = require("claude.terminal").permission()
  if running and running.switched then
    local line = "the running Claude terminal is in " .. permission.describe(running)
    if permission.bypasses_review(running.mode) then
      health.warn(line, { "shift+tab in Claude switches back; :Claude changes records the edits written meanwhile" })
    else
      health.info(line)
    end
  elseif running and running.mode ~= r.mode then
    health.info("the running Claude terminal started in " .. permission.describe(running))
  end
  health.info("in Claude, shift+tab switches the mode for the session; claude.nvim sees the switch with the next prompt (the CLI's hooks) and says so")
end

-- The oldest Claude Code whose stream-json mode has what the chat uses
-- (control requests, partial messages, --permission-prompt-tool stdio).
local CHAT_MIN_CLI = "2.0.0"
-- The CLI whose control requests the chat uses all (list_permission_rules,
-- get_task_output came between 2.1.197 and it: chat/doc.go).
local CHAT_FULL_CLI = "2.1.332"

-- The native chat (:ClaudeChat): a CLI it can start without a shell, new
-- enough for its stream-json mode, and the chats of this Neovim.
local function check_chat()
  health.start("Chat")
  if require("claude.terminal").program() then
    health.ok("terminal_cmd names a program: :ClaudeChat can start it without a shell")
  else
    health.error("terminal_cmd is shell syntax: :ClaudeChat starts the CLI without a shell", {
      "give terminal_cmd as a list: `require('claude').setup({ terminal_cmd = { 'claude', '--some-flag' } })`",
    })
  end
  if cli_version then
    if vim.version.lt(cli_version, CHAT_MIN_CLI) then
      health.error(
        string.format("Claude Code %s is older than %s: its stream-json mode lacks what the chat uses", cli_version, CHAT_MIN_CLI),
        "update Claude Code: `claude update` (or `npm install -g @anthropic-ai/claude-code`)"
      )
    else
      health.ok(string.format("Claude Code %s runs the chat (stream-json mode; %s or newer needed)", cli_version, CHAT_MIN_CLI))
    end
    if vim.version.lt(cli_version, CHAT_FULL_CLI) then
      health.info(
        string.format("with Claude Code %s the chat cannot list permission rules (:Claude chat rules) nor show a background task's output: %s or newer can", cli_version, CHAT_FULL_CLI)
      )
    end
  end
  local agents = require("claude.agents")
  for _, name in ipairs(agents.names()) do
    local a = agents.get(name)
    if vim.fn.executable(a.command) == 1 then
      health.ok(string.format("agent %s (ACP, :ClaudeChat %s): %s", name, name, a.command))
    else
      health.warn(string.format("agent %s: %s is not an executable in $PATH", name, a.command))
    end
  end
  if #agents.names() > 0 then
    health.info("ACP agents get: " .. agents.features.yes)
    health.info("ACP agents do not get: " .. agents.features.no .. " (Claude, the built-in, gets all)")
  end
  local chat = package.loaded["claude.chat"]
  local open = chat and chat.describe() or {}
  if #open == 0 then
    health.ok("no chat open (:ClaudeChat starts one)")
  end
  for _, line in ipairs(open) do
    health.ok("chat: " .. line)
  end
end

-- The cheap tools' cache (lua/claude/generation.lua): on unless turned off;
-- the host maps its page at the first cheap tool call, not before.
local function check_tool_cache()
  local st = require("claude.generation").status()
  if st.active then
    health.ok("cheap tools' cache (generation page): active; CLAUDE_NVIM_TOOL_CACHE=0 turns it off")
  elseif vim.env.CLAUDE_NVIM_TOOL_CACHE == "0" then
    health.info("cheap tools' cache: off (CLAUDE_NVIM_TOOL_CACHE=0): every cheap tool call asks Neovim")
  elseif st.why then
    health.info("cheap tools' cache: unavailable (" .. st.why .. "): every cheap tool call asks Neovim")
  else
    health.info("cheap tools' cache: not in use yet (the host maps it at the first cheap tool call; if it could not, its log says why)")
  end
end

-- What the change ledger records for this directory (:Claude changes), or
-- why nothing.
local function check_changes()
  health.start("Change ledger")
  if vim.fn.executable("git") ~= 1 then
    health.error("git is not on $PATH: Claude's turns cannot be recorded", "install git")
    return
  end
  local h = require("claude.host").changes_health(vim.fn.getcwd())
  if not h then
    health.info("the Go host is not running yet: turns are recorded once a Claude started here (:Claude open, :ClaudeChat) works")
    return
  end
  if h.error and h.error ~= "" then
    health.warn("nothing is recorded for " .. vim.fn.getcwd() .. ": " .. h.error, ":Claude changes clear starts a new ledger for this workspace")
    return
  end
  local what = h.repository and "the whole git work tree but nested repositories" or "not a git repository: only the files Claude's file tools name (a shell command's changes are not seen)"
  health.ok(string.format("%s: %s", vim.fn.fnamemodify(h.root, ":~"), what))
  if h.trouble and h.trouble ~= "" then
    health.error("the last turn here was not recorded: " .. h.trouble, "see :Claude changes; the next turn recorded clears this")
  end
  local cfg = require("claude.config").get().changes
  health.info(string.format(
    "%d turn%s kept, %.1f MiB, in %s (mode 700; newest 500 turns, at most 30 days, at most %d MiB; files over %d MiB are listed, not recorded)",
    h.turns,
    h.turns == 1 and "" or "s",
    h.bytes / 1048576,
    vim.fn.fnamemodify(h.store, ":~"),
    cfg.max_store_mb,
    cfg.max_file_mb
  ))
end

-- executeCode: off, or the python that starts kernels and its ipykernel.
local function check_running_code()
  health.start("Running code")
  local cfg = require("claude.config").get().tools
  if not cfg.execute_code then
    health.ok("off: the model is not offered executeCode (tools.execute_code)")
    return
  end
  health.info("on: each executeCode call shows its code; it runs in the notebook's kernel only on :w")
  local python = vim.fn.exepath(cfg.python)
  if python == "" then
    health.error(cfg.python .. " is not executable: no kernel can start", "set tools.python to a python3 with ipykernel")
    return
  end
  -- In the temp directory: `-c` puts the working directory on sys.path,
  -- and the workspace's modules must not run here.
  local ok, proc = pcall(vim.system, { python, "-c", "import ipykernel; print(ipykernel.__version__)" }, { text = true, cwd = vim.fn.fnamemodify(vim.fn.tempname(), ":h") })
  local res = ok and proc:wait(VERSION_TIMEOUT_MS) or { code = -1 }
  if res.code ~= 0 then
    health.error(python .. " has no ipykernel: no kernel can start", { python .. " -m pip install ipykernel", "or on Debian: apt install python3-ipykernel" })
    return
  end
  health.ok(string.format("%s with ipykernel %s", python, vim.trim(res.stdout or "")))
end

-- The language-server tools (claude.lsp): whether Claude gets them, and
-- which servers would answer about the current buffer.
local function check_lsp_tools()
  health.start("Language-server tools")
  if not require("claude.config").get().tools.lsp then
    health.info("off (tools.lsp = false): Claude gets no lsp_ tools")
    return
  end
  health.ok("on: Claude gets the lsp_ tools (tools.lsp = false turns them off)")
  local buf = vim.api.nvim_get_current_buf()
  local names = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    table.insert(names, c.name)
  end
  if #names > 0 then
    health.ok("servers attached to the current buffer: " .. table.concat(names, ", "))
  elseif #vim.lsp.get_clients() > 0 then
    health.info("no server is attached to the current buffer; Claude's questions about its file get that answer")
  else
    health.info("no language server runs in this Neovim: the tools answer that none is attached (start your servers as usual, e.g. vim.lsp.enable or lspconfig)")
  end
end

function M.check()
  check_neovim()
  if vim.fn.has("nvim-0.10") ~= 1 then
    return -- the checks below use 0.10's APIs (vim.system, vim.uv)
  end
  check_setup()
  check_binary()
  check_cli()
  check_flags()
  check_dictation()
  check_review()
  check_chat()
  check_lock_dir()
  check_server()
  check_remotes()
  check_tool_cache()
  check_changes()
  check_running_code()
  check_lsp_tools()
  check_proxy()
end

return M
