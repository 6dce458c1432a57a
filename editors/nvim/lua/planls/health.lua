-- :checkhealth planls: the binary and its version, running clients and
-- their buffers, and whether each project's state file reads as JSON.
local clientmod = require('planls.client')
local compat = require('planls.compat')
local config = require('planls.config')
local rootmod = require('planls.root')

local M = {}

--- First line of `planls version` (or `--version`), or nil.
function M.binary_version(exe)
  for _, args in ipairs({ { 'version' }, { '--version' } }) do
    local out = vim.fn.system(vim.list_extend({ exe }, args))
    if vim.v.shell_error == 0 and out and vim.trim(out) ~= '' then
      return vim.split(vim.trim(out), '\n', { plain = true })[1]
    end
  end
  return nil
end

local function buffer_count(client)
  if client.attached_buffers then
    return vim.tbl_count(client.attached_buffers)
  end
  return #vim.lsp.get_buffers_by_client_id(client.id)
end

--- Checks the state file of the project at `root`; returns level
--- ('ok'|'info'|'error') and message. Never writes.
function M.state_report(root)
  local path = root .. '/.planls/state.json'
  if not compat.uv.fs_stat(path) then
    return 'info', 'no state file yet at ' .. path .. ' (approve the plan to create it)'
  end
  local f, oerr = io.open(path, 'rb')
  if not f then
    return 'error', 'state file ' .. path .. ' is not readable: ' .. tostring(oerr)
  end
  local text = f:read('*a')
  f:close()
  local ok, st = pcall(vim.json.decode, text)
  if not ok or type(st) ~= 'table' then
    return 'error', 'state file ' .. path .. ' does not parse: ' .. tostring(st)
  end
  local tasks = type(st.tasks) == 'table' and #st.tasks or 0
  return 'ok', string.format('state file %s readable (revision %s, %d tasks)', path, tostring(st.revision), tasks)
end

--- Entry point of :checkhealth planls.
function M.check()
  local h = compat.health()
  h.start('planls')

  if compat.has('0.7') then
    h.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch)
  else
    h.error('Neovim 0.7 or later is required')
  end

  local exe = config.options.cmd[1]
  if vim.fn.executable(exe) == 1 then
    local version = M.binary_version(exe)
    h.ok(string.format('binary found: %s (%s)', vim.fn.exepath(exe), version or 'version unknown'))
  else
    h.error('binary not found: ' .. tostring(exe), {
      'in a clone of the planls repository: go install ./cmd/planls (into $(go env GOPATH)/bin; put it on $PATH)',
      'once the module is published: go install github.com/planls/planls/cmd/planls@latest',
      "or set cmd = { '/path/to/planls', 'serve' } in require('planls').setup()",
    })
  end

  local clients = compat.clients(clientmod.name)
  local roots = {}
  if #clients == 0 then
    h.warn('server not attached: no planls client is running', {
      'open a markdown file inside a project (a directory with .planls, .git or PLAN.md)',
    })
    local r = rootmod.find(vim.fn.getcwd(), config.options.root_markers)
    if r then
      table.insert(roots, r)
    end
  else
    for _, c in ipairs(clients) do
      local n = buffer_count(c)
      local msg =
        string.format('server attached: client %d, root %s, %d buffer(s)', c.id, tostring(c.config.root_dir), n)
      if n > 0 then
        h.ok(msg)
      else
        h.info(msg)
      end
      if c.config.root_dir then
        table.insert(roots, c.config.root_dir)
      end
    end
  end

  for _, r in ipairs(roots) do
    local level, msg = M.state_report(r)
    h[level](msg)
  end
end

return M
