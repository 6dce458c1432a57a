-- Version guards. Everything that exists only in some Neovim releases goes
-- through this file, so the rest of the plugin runs unchanged on 0.7 (Debian
-- bookworm) up to the current release. Each wrapper names the release that
-- introduced or deprecated what it wraps.
local M = {}

--- True when the running Neovim is at least `version` ("0.8", "0.11", ...).
function M.has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- vim.uv replaced vim.loop in 0.10; vim.loop stays as an alias for now.
M.uv = vim.uv or vim.loop

-- Drops the clients that are stopping. vim.lsp.stop_client marks a client
-- stopped at once, but get_clients keeps listing it (and, on 0.12, as
-- attached to its buffers for ~230 ms until the server exits): a request
-- sent to it fails with "server is shut down".
local function live(all)
  local out = {}
  for _, c in ipairs(all) do
    if not M.is_stopped(c) then
      table.insert(out, c)
    end
  end
  return out
end

--- All running (not stopping) clients named `name` (vim.lsp.get_clients is
--- 0.10+, get_active_clients is deprecated there).
function M.clients(name)
  if vim.lsp.get_clients then
    return live(vim.lsp.get_clients({ name = name }))
  end
  local all = {}
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if name == nil or c.name == name then
      table.insert(all, c)
    end
  end
  return live(all)
end

--- Running (not stopping) clients named `name` attached to buffer `bufnr`.
function M.buf_clients(bufnr, name)
  if vim.lsp.get_clients then
    return live(vim.lsp.get_clients({ bufnr = bufnr, name = name }))
  end
  local out = {}
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == name then
      table.insert(out, c)
    end
  end
  return live(out)
end

-- From 0.11 client methods are called with ':' and the '.' form is
-- deprecated; before 0.11 only the '.' form exists.
local method_call = M.has('0.11')

--- client.request / client:request. Returns ok, request_id.
function M.request(client, method, params, handler, bufnr)
  if method_call then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- client.notify / client:notify.
function M.notify(client, method, params)
  if method_call then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

--- client.is_stopped / client:is_stopped.
function M.is_stopped(client)
  if method_call then
    return client:is_stopped()
  end
  return client.is_stopped()
end

--- The LSP diagnostic a vim.diagnostic entry came from: user_data.lsp holds
--- the whole LSP diagnostic from 0.10, and code/data from 0.6 on.
function M.lsp_diagnostic(d)
  return (d.user_data and d.user_data.lsp) or {}
end

--- vim.health report functions: vim.health.start/ok/... (0.10+),
--- vim.health.report_* (0.8-0.9), health#report_* (0.7).
function M.health()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  if h and h.report_start then
    return {
      start = h.report_start,
      ok = h.report_ok,
      warn = h.report_warn,
      error = h.report_error,
      info = h.report_info,
    }
  end
  local function fn(name)
    return function(...)
      return vim.fn['health#' .. name](...)
    end
  end
  return {
    start = fn('report_start'),
    ok = fn('report_ok'),
    warn = fn('report_warn'),
    error = fn('report_error'),
    info = fn('report_info'),
  }
end

--- Byte column of UTF-16 code unit `character` in `line` (LSP positions are
--- UTF-16 unless the client negotiated otherwise). vim.str_byteindex took
--- (s, index, use_utf16) before 0.11 and (s, encoding, index) from 0.11.
function M.utf16_to_byte(line, character)
  if character <= 0 or line == '' then
    return 0
  end
  local ok, col
  if M.has('0.11') then
    ok, col = pcall(vim.str_byteindex, line, 'utf-16', character, false)
  else
    ok, col = pcall(vim.str_byteindex, line, character, true)
  end
  if not ok or col == nil then
    return #line
  end
  return col
end

return M
