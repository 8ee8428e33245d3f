-- Language servers' results, made into what the Go host formats for the
-- model (nvimapi/lsp.go decodes these tables): places as path, 1-based
-- line and 1-based column in characters, with the line's text where the
-- file may be read (target.line_reader).
local M = {}

local target = require("claude.lsp.target")

local function path_of(uri)
  local ok, path = pcall(vim.uri_to_fname, uri)
  return ok and path or uri
end

--- A place from a URI and an LSP position (characters of encoding); read
--- gives lines.
function M.place(uri, pos, encoding, read)
  local path = path_of(uri)
  local row, char = pos and pos.line or 0, pos and pos.character or 0
  local text = read(path, row)
  local col = char + 1 -- outside the workspace: the server's count
  if text then
    col = target.char_index(text, target.byte_index(text, char, encoding), "utf-32") + 1
  end
  return { path = path, line = row + 1, col = col, text = text or "" }
end

--- The places of a Location, Location[] or LocationLink[] answer, added to
--- out (seen drops those listed already: two servers, one answer).
function M.locations(result, encoding, read, out, seen)
  if type(result) ~= "table" then
    return
  end
  if result.uri or result.targetUri then
    result = { result }
  end
  for _, loc in ipairs(result) do
    local uri = loc.uri or loc.targetUri
    local range = loc.range or loc.targetSelectionRange or loc.targetRange
    if uri and range then
      local key = uri .. ":" .. range.start.line .. ":" .. range.start.character
      if not seen[key] then
        seen[key] = true
        table.insert(out, { uri = uri, pos = range.start, encoding = encoding })
      end
    end
  end
end

--- The places gathered by locations, sorted by path and position, the
--- first limit read (their lines), the total counted.
function M.finish_locations(found, limit, read)
  table.sort(found, function(a, b)
    if a.uri ~= b.uri then
      return a.uri < b.uri
    end
    if a.pos.line ~= b.pos.line then
      return a.pos.line < b.pos.line
    end
    return a.pos.character < b.pos.character
  end)
  local out = {}
  for i = 1, math.min(limit, #found) do
    local f = found[i]
    out[i] = M.place(f.uri, f.pos, f.encoding, read)
  end
  return out, #found
end

--- A hover's contents (MarkupContent, MarkedString or a list of them) as
--- text.
function M.hover_text(contents)
  if type(contents) == "string" then
    return contents
  end
  if type(contents) ~= "table" then
    return ""
  end
  if contents.kind then
    return contents.value or ""
  end
  if contents.language then
    return string.format("```%s\n%s\n```", contents.language, contents.value or "")
  end
  local parts = {}
  for _, c in ipairs(contents) do
    local t = M.hover_text(c)
    if t ~= "" then
      table.insert(parts, t)
    end
  end
  return table.concat(parts, "\n\n")
end

--- A SignatureHelp as text: each signature, the active one first.
function M.signature_text(help)
  if type(help) ~= "table" or type(help.signatures) ~= "table" then
    return ""
  end
  local parts = {}
  for _, sig in ipairs(help.signatures) do
    local doc = sig.documentation and M.hover_text(sig.documentation) or ""
    table.insert(parts, sig.label .. (doc ~= "" and ("\n" .. doc) or ""))
  end
  return table.concat(parts, "\n\n")
end

local function kind_name(kind)
  return vim.lsp.protocol.SymbolKind[kind] or "Symbol"
end

--- The symbols of a documentSymbol answer (DocumentSymbol[], nested, or
--- SymbolInformation[]), depth first, up to limit; and how many there are.
function M.document_symbols(result, path, encoding, read, limit)
  local out, total = {}, 0
  local function walk(list, depth)
    for _, s in ipairs(list or {}) do
      total = total + 1
      if #out < limit then
        local range = s.selectionRange or s.range or (s.location and s.location.range)
        local uri = s.location and s.location.uri or vim.uri_from_fname(path)
        table.insert(out, {
          name = s.name or "",
          kind = kind_name(s.kind),
          detail = s.detail or "",
          container = s.containerName or "",
          depth = depth,
          place = M.place(uri, range and range.start, encoding, read),
        })
      end
      walk(s.children, depth + 1)
    end
  end
  walk(type(result) == "table" and result or {}, 0)
  return out, total
end

--- The symbols of workspace/symbol answers (SymbolInformation[] or
--- WorkspaceSymbol[], whose location may lack a range), added to out.
function M.workspace_symbols(result, encoding, read, out, limit, counted)
  for _, s in ipairs(type(result) == "table" and result or {}) do
    counted.n = counted.n + 1
    if #out < limit and s.location then
      table.insert(out, {
        name = s.name or "",
        kind = kind_name(s.kind),
        detail = "",
        container = s.containerName or "",
        depth = 0,
        place = M.place(s.location.uri, s.location.range and s.location.range.start, encoding, read),
      })
    end
  end
end

--- The calls of a callHierarchy/incomingCalls or outgoingCalls answer:
--- the other function, and where the calls are (fromRanges are in the
--- caller for incoming calls, in the function asked about for outgoing).
function M.calls(result, incoming, asked_uri, encoding, read, limit)
  local out = {}
  local list = type(result) == "table" and result or {}
  for i = 1, math.min(limit, #list) do
    local call = list[i]
    local item = incoming and call.from or call.to
    local sites = {}
    local site_uri = incoming and item.uri or asked_uri
    for _, r in ipairs(call.fromRanges or {}) do
      table.insert(sites, M.place(site_uri, r.start, encoding, read))
    end
    table.insert(out, {
      name = item.name or "",
      kind = kind_name(item.kind),
      detail = item.detail or "",
      place = M.place(item.uri, (item.selectionRange or item.range).start, encoding, read),
      sites = sites,
    })
  end
  return out, #list
end

--- The code actions of a codeAction answer: titles only, never applied.
function M.actions(result, out)
  for _, a in ipairs(type(result) == "table" and result or {}) do
    table.insert(out, {
      title = a.title or "",
      kind = a.kind or "",
      preferred = a.isPreferred == true,
      disabled = type(a.disabled) == "table" and a.disabled.reason or "",
    })
  end
end

return M
