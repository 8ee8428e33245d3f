-- The plugin's version, on floor 0 so that the module that talks to the Go
-- host (host.lua) and :checkhealth read it without requiring the top module.
local M = {}

-- Must equal host.Version in the Go code; a mismatch means bin/claude-nvim
-- comes from another version and must be replaced (scripts/install-binary).
-- scripts/install-binary and scripts/dist read the version from this line:
-- keep it one line, `M.version = "x.y.z"`.
M.version = "0.1.0"

return M
