-- Starting `planls serve`, finding the right client for a buffer, and
-- sending requests to it. Three start paths, newest first:
--   0.11+   vim.lsp.config('planls', ...) + vim.lsp.enable('planls')
--   0.8+    vim.lsp.start(config) from a FileType autocmd
--   0.7     vim.lsp.start_client + vim.lsp.buf_attach_client, reusing by root
local compat = require('planls.compat')
local config = require('planls.config')
local rootmod = require('planls.root')

local M = {}

--- Client name; also the vim.lsp.config entry name on 0.11+.
M.name = 'planls'

local listeners = {}

--- Registers fn(client_id, params) for `planls/stateChanged` notifications
--- (docs/PROTOCOL.md). Returns nothing; listeners live as long as Neovim.
function M.on_state_changed(fn)
  table.insert(listeners, fn)
end

local function state_changed_handler(err, params, ctx)
  if err then
    return
  end
  for _, fn in ipairs(listeners) do
    -- One broken listener must not keep the others from refreshing.
    local ok, e = pcall(fn, ctx.client_id, params or {})
    if not ok then
      vim.notify('planls: stateChanged listener failed: ' .. tostring(e), vim.log.levels.DEBUG)
    end
  end
end

-- Exposed for nvim-lspconfig users, who pass it in their handlers table.
M.state_changed_handler = state_changed_handler

-- The last Error-type window/showMessage text per client id. The server
-- shows some request errors that way as well as answering with them
-- (docs/PROTOCOL.md "Commands": an item that is gone), and the notification
-- is written before the answer, so a caller can tell the user already saw it.
local shown_errors = {}

-- awaiting[client_id][item id] is true while the plugin's own command on
-- that item runs, then the server's deferral message for it
-- ("planls: Deferred #3 <subject>, reason: <reason>", docs/PROTOCOL.md
-- "Commands"), which the command shows as its one message.
local awaiting = {}

local function show_message_handler(err, result, ctx, cfg)
  if type(result) == 'table' and result.type == 1 and type(result.message) == 'string' then
    shown_errors[ctx.client_id] = result.message
  end
  if type(result) == 'table' and type(result.message) == 'string' then
    local id = tonumber(result.message:match('^planls: Deferred #(%d+) '))
    local waiting = awaiting[ctx.client_id]
    if id and waiting and waiting[id] == true then
      waiting[id] = result.message
      return result
    end
  end
  -- Looked up per call so a user's own vim.lsp.handlers entry still applies.
  return vim.lsp.handlers['window/showMessage'](err, result, ctx, cfg)
end

--- True when the server of client `client_id` already showed `message` as
--- an Error window/showMessage and nothing took it since; takes it, so the
--- same text failing again later is reported unless shown again.
function M.take_shown_error(client_id, message)
  if message ~= nil and shown_errors[client_id] == message then
    shown_errors[client_id] = nil
    return true
  end
  return false
end

--- Marks a command of client `client_id` on item `id` as running: until
--- take_deferral, the server's deferral message for that item is kept for
--- the command to show instead of shown at once.
function M.await_deferral(client_id, id)
  awaiting[client_id] = awaiting[client_id] or {}
  awaiting[client_id][id] = true
end

--- Ends await_deferral for item `id` and returns the server's deferral
--- message for it, or nil when none came.
function M.take_deferral(client_id, id)
  local waiting = awaiting[client_id]
  local msg = waiting and waiting[id]
  if waiting then
    waiting[id] = nil
  end
  return type(msg) == 'string' and msg or nil
end

local function settings_value()
  local s = config.options.settings or {}
  if next(s) == nil then
    -- An empty Lua table encodes as a JSON array; the server expects an object.
    return vim.empty_dict()
  end
  return s
end

--- The client config shared by every start path, without root_dir.
--- initializationOptions and settings carry {"settings": {"planls": ...}}
--- and {"planls": ...} as docs/PROTOCOL.md "Settings" describes.
function M.base_config()
  local o = config.options
  local s = settings_value()
  local base = {
    name = M.name,
    cmd = o.cmd,
    init_options = { settings = { planls = s } },
    settings = { planls = s },
    handlers = {
      ['planls/stateChanged'] = state_changed_handler,
      ['window/showMessage'] = show_message_handler,
    },
    on_init = function(client)
      -- 0.7 never sends the settings after initialize (lspconfig does it the
      -- same way); later releases may, and a second copy is harmless.
      compat.notify(client, 'workspace/didChangeConfiguration', { settings = client.config.settings })
    end,
  }
  return vim.tbl_deep_extend('force', base, o.lsp or {})
end

--- Full client config for the project at `root` (an absolute directory).
function M.config_for(root)
  local c = M.base_config()
  c.root_dir = root
  return c
end

--- The running planls client whose root is `root`, or nil.
function M.for_root(root)
  for _, c in ipairs(compat.clients(M.name)) do
    if c.config.root_dir == root then
      return c
    end
  end
  return nil
end

--- Starts (or reuses) the client for `root` without attaching a buffer.
--- Returns the client, or nil and an error message.
function M.ensure(root)
  local existing = M.for_root(root)
  if existing then
    return existing
  end
  local cfg = M.config_for(root)
  local id
  if compat.has('0.11') then
    id = vim.lsp.start(cfg, { attach = false })
  else
    id = vim.lsp.start_client(cfg)
  end
  if not id then
    return nil, 'planls: could not start ' .. table.concat(cfg.cmd, ' ')
  end
  return vim.lsp.get_client_by_id(id)
end

--- Attaches the planls client to `bufnr` when the buffer is inside a project.
--- Used by the FileType autocmd on 0.7-0.10; 0.11+ goes through vim.lsp.enable.
--- Returns the client id or nil.
function M.attach(bufnr)
  local o = config.options
  local root = rootmod.for_buf(bufnr, o.root_markers)
  if not root then
    return nil
  end
  if compat.has('0.8') then
    local cfg = M.config_for(root)
    if compat.has('0.10') then
      return vim.lsp.start(cfg, { bufnr = bufnr })
    end
    -- Before 0.10 vim.lsp.start attaches the current buffer.
    local id
    vim.api.nvim_buf_call(bufnr, function()
      id = vim.lsp.start(cfg)
    end)
    return id
  end
  local client = M.for_root(root)
  local id = client and client.id or vim.lsp.start_client(M.config_for(root))
  if not id then
    return nil
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local augroup

--- Installs the automatic start: a vim.lsp.config entry on 0.11+, a FileType
--- autocmd before. Buffers already open are attached too, so setup() may run
--- after the plan was opened.
function M.enable()
  local o = config.options
  -- A second setup() replaces the first one's autocmd, or drops it.
  augroup = vim.api.nvim_create_augroup('planls_start', { clear = true })
  if compat.has('0.11') and vim.lsp.config and vim.lsp.enable then
    local cfg = M.base_config()
    cfg.filetypes = o.filetypes
    cfg.root_dir = function(bufnr, on_dir)
      local r = rootmod.for_buf(bufnr, o.root_markers)
      if r then
        on_dir(r)
      end
    end
    vim.lsp.config(M.name, cfg)
    vim.lsp.enable(M.name, o.autostart)
    return
  end
  if not o.autostart then
    return
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = augroup,
    pattern = o.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(o.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
end

--- Root for a buffer: its attached planls client's root, else its file's
--- project, else the cwd's project. nil outside any project.
function M.root_for(bufnr)
  local attached = compat.buf_clients(bufnr, M.name)[1]
  if attached then
    return attached.config.root_dir
  end
  local markers = config.options.root_markers
  return rootmod.for_buf(bufnr, markers) or rootmod.find(vim.fn.getcwd(), markers)
end

--- The client for `bufnr` (attached, same project, or the only one running),
--- starting one for the buffer's project when none runs. Returns the client,
--- or nil and a message for the user.
function M.get(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local attached = compat.buf_clients(bufnr, M.name)[1]
  if attached then
    return attached
  end
  local root = M.root_for(bufnr)
  if root then
    return M.ensure(root)
  end
  local all = compat.clients(M.name)
  if #all == 1 then
    return all[1]
  end
  local markers = table.concat(config.options.root_markers, ', ')
  return nil, 'planls: no project here (none of ' .. markers .. ' above ' .. vim.fn.getcwd() .. ')'
end

--- Runs fn once `client` finished initialize (requests sent earlier would
--- reach the server before initialize). Gives up after timeout_ms (default
--- 10000) with a notification.
function M.when_ready(client, fn, timeout_ms)
  if client.initialized then
    return fn()
  end
  local waited, step = 0, 25
  local limit = timeout_ms or 10000
  local function poll()
    if compat.is_stopped(client) then
      vim.notify('planls: the server stopped before it was ready', vim.log.levels.ERROR)
      return
    end
    if client.initialized then
      return fn()
    end
    waited = waited + step
    if waited >= limit then
      vim.notify('planls: the server did not initialize in time', vim.log.levels.ERROR)
      return
    end
    vim.defer_fn(poll, step)
  end
  vim.defer_fn(poll, step)
end

--- Sends `method` with `params` once the client is ready; cb(err, result),
--- never before this returns (a request that could not be sent too), so a
--- user command reporting from cb has returned by then.
function M.request(client, method, params, cb)
  M.when_ready(client, function()
    local ok = compat.request(client, method, params, function(err, result)
      cb(err, result)
    end)
    if not ok then
      vim.schedule(function()
        cb({ message = 'planls: request ' .. method .. ' could not be sent' }, nil)
      end)
    end
  end)
end

--- file:// URI of the project root of `client`.
function M.root_uri(client)
  return vim.uri_from_fname(client.config.root_dir)
end

return M
