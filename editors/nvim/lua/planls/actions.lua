-- The plugin's actions: prompting for evidence or a reason and sending the
-- planls.* commands (docs/PROTOCOL.md "Commands"), the client-side handlers
-- of planls.complete/planls.defer, and the user commands' bodies.
local clientmod = require('planls.client')
local compat = require('planls.compat')
local itemcheck = require('planls.itemcheck')

local M = {}

-- JSON null (vim.NIL) read as an absent field.
local val = require('planls.render').val

--- The text of a `todo` envelope ({content = {{type, text}}, details}), or ''.
function M.envelope_text(result)
  local content = type(result) == 'table' and val(result.content) or nil
  if type(content) == 'table' and type(content[1]) == 'table' then
    return tostring(val(content[1].text) or '')
  end
  return ''
end

--- The seed's text of a plan item's deferral asks the agent to tell the user
--- ("Tell the user this plan item is descoped and why: <reason>"); the user
--- reads it here, so each such line becomes "... → deferred), reason:
--- <reason>". Every other text is returned as it is.
function M.for_people(text)
  local out = text:gsub('%)%. Tell the user this plan item is descoped and why: ', '), reason: ')
  return out
end

--- True when the envelope reports an in-band error (details.error set).
function M.envelope_failed(result)
  local details = type(result) == 'table' and val(result.details) or nil
  if type(details) ~= 'table' then
    return false
  end
  local e = val(details.error)
  return e ~= nil and e ~= false and e ~= ''
end

local function refresh_views()
  -- Lazy: sidebar requires this module.
  local ok, sidebar = pcall(require, 'planls.sidebar')
  if ok then
    sidebar.refresh()
  end
end

--- Sends `command` with the single argument object `arg` through
--- workspace/executeCommand, reports the envelope text with vim.notify
--- (WARN when the envelope carries an error; for a deferral, the server's
--- message naming the item instead) and calls cb(err, result).
function M.execute(client, command, arg, cb)
  local params = { command = command, arguments = { arg } }
  local id = type(arg) == 'table' and tonumber(arg.id) or nil
  if id then
    clientmod.await_deferral(client.id, id)
  end
  clientmod.request(client, 'workspace/executeCommand', params, function(err, result)
    -- A deferral's message from the server names the item as people read
    -- it; shown, it is the one message (the envelope says the same).
    local deferral = id and clientmod.take_deferral(client.id, id)
    if err then
      -- An error the server already showed (window/showMessage) is not
      -- repeated: the user saw it once.
      if not clientmod.take_shown_error(client.id, err.message) then
        vim.notify('planls: ' .. tostring(err.message or err), vim.log.levels.ERROR)
      end
    else
      local text = M.for_people(M.envelope_text(result))
      local failed = M.envelope_failed(result)
      if deferral and not failed then
        vim.notify(deferral, vim.log.levels.INFO)
      elseif text ~= '' then
        vim.notify('planls: ' .. text, failed and vim.log.levels.WARN or vim.log.levels.INFO)
      end
      if not failed then
        refresh_views()
      end
    end
    if cb then
      cb(err, result)
    end
  end)
end

--- What each prompting command asks for: the argument field it fills and
--- the prompt (with the item id).
--- `only`: ask only when the task has this status (reopening a completed
--- item is a person's correction that needs a reason; reopening a deferred
--- or in-progress one needs nothing).
M.prompts = {
  ['planls.complete'] = { field = 'evidence', prompt = 'Evidence for #%s: ' },
  ['planls.defer'] = { field = 'reason', prompt = 'Reason to defer #%s: ' },
  ['planls.reopen'] = { field = 'reason', prompt = 'Reason to reopen #%s (why it is not done): ', only = 'completed' },
}

--- Calls cb(status) with the status of task arg.id (nil when it cannot be
--- read), asking the server with the read-only todo `get`.
local function status_of(client, arg, cb)
  local params = {
    command = 'planls.todo',
    arguments = { { params = { action = 'get', id = val(arg.id) }, uri = val(arg.uri) or clientmod.root_uri(client) } },
  }
  clientmod.request(client, 'workspace/executeCommand', params, function(err, result)
    local details = not err and type(result) == 'table' and val(result.details) or nil
    for _, t in ipairs(type(details) == 'table' and require('planls.render').tables(details.tasks) or {}) do
      if tonumber(val(t.id)) == tonumber(val(arg.id)) then
        return cb(val(t.status))
      end
    end
    cb(nil)
  end)
end

--- Asks with vim.ui.input (so dressing.nvim, snacks and the like apply) for
--- the evidence or reason of `command` (planls.complete, planls.defer, or
--- planls.reopen of a completed item),
--- then sends it added to `arg`. A nil or blank answer cancels: nothing is
--- sent and cb(nil, nil, true) is called. An `arg` that already carries the
--- value (the server's one-click "Complete #3 with <commit>" actions) is
--- sent as it is.
function M.prompt_and_execute(client, command, arg, cb)
  local p = M.prompts[command]
  local given = p and val(arg[p.field])
  if not p or (type(given) == 'string' and vim.trim(given) ~= '') then
    return M.execute(client, command, arg, cb)
  end
  if p.only then
    return status_of(client, arg, function(status)
      if status ~= p.only then
        return M.execute(client, command, arg, cb)
      end
      M.ask_and_execute(client, command, arg, p, cb)
    end)
  end
  M.ask_and_execute(client, command, arg, p, cb)
end

--- Asks with vim.ui.input for p.field (an M.prompts entry) and sends
--- `command` with the answer added to `arg`; a nil or blank answer cancels.
function M.ask_and_execute(client, command, arg, p, cb)
  vim.ui.input({ prompt = string.format(p.prompt, tostring(val(arg.id) or '?')) }, function(answer)
    if answer == nil or vim.trim(answer) == '' then
      vim.notify('planls: cancelled, nothing changed', vim.log.levels.INFO)
      if cb then
        cb(nil, nil, true)
      end
      return
    end
    local a = vim.deepcopy(arg)
    a[p.field] = answer
    M.execute(client, command, a, cb)
  end)
end

--- vim.lsp.commands handler for planls.complete, planls.defer and planls.reopen (code
--- actions and code lenses): command is the LSP Command, ctx the handler
--- context with client_id.
function M.lsp_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    vim.notify('planls: the language server is not running', vim.log.levels.ERROR)
    return
  end
  local arg = (command.arguments or {})[1]
  if type(arg) ~= 'table' then
    arg = {}
  end
  M.prompt_and_execute(client, command.command, arg)
end

--- Registers the client-side command handlers in vim.lsp.commands.
function M.register_lsp_commands()
  for name in pairs(M.prompts) do
    vim.lsp.commands[name] = M.lsp_command
  end
end

--- Fetches the planls/plan result of `client`'s project; cb(err, plan).
function M.fetch_plan(client, cb)
  clientmod.request(client, 'planls/plan', { uri = clientmod.root_uri(client) }, cb)
end

--- The item whose bullet starts at or last before 0-based line `line0` of
--- the plan file, or nil. Items without a range (missing) never match.
function M.item_at_line(plan, line0)
  local best, best_line
  local tables = require('planls.render').tables
  for _, g in ipairs(tables(plan.groups)) do
    for _, item in ipairs(tables(g.items)) do
      local r = val(item.range)
      local line = type(r) == 'table' and type(r.start) == 'table' and r.start.line
      if type(line) == 'number' and line <= line0 and (best_line == nil or line > best_line) then
        best, best_line = item, line
      end
    end
  end
  return best
end

local function same_file(a, b)
  return vim.fn.resolve(vim.fn.fnamemodify(a, ':p')) == vim.fn.resolve(vim.fn.fnamemodify(b, ':p'))
end

-- The id under the cursor in a plan buffer: a planls diagnostic on the line
-- first (exact), else the nearest item above (completed items have none).
-- The diagnostic of an item gone from the file (data.gone) sits where it
-- used to be, on another item's line: it is not that line's item.
local function id_at_cursor(client, bufnr, cb)
  local lnum = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = lnum })) do
    local data = val(compat.lsp_diagnostic(d).data)
    if d.source == 'planls' and type(data) == 'table' and tonumber(val(data.id)) and val(data.gone) ~= true then
      return cb(tonumber(data.id))
    end
  end
  M.fetch_plan(client, function(err, plan)
    if err or not plan then
      return cb(nil, 'planls: ' .. tostring(err and err.message or 'no plan'))
    end
    local name = vim.api.nvim_buf_get_name(bufnr)
    if name == '' or not same_file(name, vim.uri_to_fname(plan.planUri)) then
      return cb(nil, 'planls: give an item id, or run this in the plan file or the sidebar')
    end
    local item = M.item_at_line(plan, lnum)
    local id = item and tonumber(val(item.id)) or 0
    if id <= 0 then
      return cb(nil, 'planls: no approved plan item at the cursor')
    end
    cb(id)
  end)
end

-- Reports an error a user command found before sending anything, once the
-- command has returned: Neovim turns an error message given while a command
-- run by vim.cmd executes into a Lua error ("Vim:planls: ..."), which the
-- caller's mapping would print again with a traceback.
local function report_error(msg)
  vim.schedule(function()
    vim.notify(msg, vim.log.levels.ERROR)
  end)
end

--- The client for the current buffer: the sidebar's client in the sidebar,
--- else the one attached to the buffer's project. Reports why there is none.
local function current_client(bufnr, in_sidebar)
  local client, msg
  if in_sidebar then
    client = require('planls.sidebar').client()
  end
  if not client then
    client, msg = clientmod.get(bufnr)
  end
  if not client then
    report_error(msg)
  end
  return client
end

--- Fetches planls/plan and calls fn(plan); a failed request is reported.
local function with_plan(client, fn)
  M.fetch_plan(client, function(err, plan)
    if err or not plan then
      vim.notify('planls: ' .. tostring(err and err.message or 'no plan'), vim.log.levels.ERROR)
      return
    end
    fn(plan)
  end)
end

--- Runs planls.<verb> (complete, defer, start, reopen) on item `id` (a
--- number or numeric string), or on the item under the cursor when id is
--- nil: the sidebar's item, else the plan file's item. cb(err, result).
--- An id the server does not hold is reported once (`#<id> not found`)
--- before any prompt, and cb is not called.
function M.item_command(verb, id, cb)
  local bufnr = vim.api.nvim_get_current_buf()
  local sidebar = require('planls.sidebar')
  local in_sidebar = sidebar.is_sidebar(bufnr)
  if in_sidebar and id == nil then
    local entry = sidebar.entry_at_cursor()
    id = entry and entry.id
    if not id or id <= 0 then
      vim.notify('planls: no approved plan item on this line', vim.log.levels.WARN)
      return
    end
  end
  local client = current_client(bufnr, in_sidebar)
  if not client then
    return
  end
  local function run(n)
    local arg = { id = n, uri = clientmod.root_uri(client) }
    M.prompt_and_execute(client, 'planls.' .. verb, arg, cb)
  end
  if id ~= nil then
    local n = tonumber(id)
    -- Infinity would pass the other tests and then fail to encode as JSON.
    if not n or n < 1 or n ~= math.floor(n) or n == math.huge then
      report_error('planls: the item id must be a positive number, got ' .. tostring(id))
      return
    end
    local function checked(plan)
      itemcheck.check(client, n, plan, function()
        run(n)
      end)
    end
    if in_sidebar then
      -- The sidebar's plan is the one its keys took the id from: checking
      -- against it prompts in the same turn as the key press.
      return checked(sidebar.plan())
    end
    return with_plan(client, checked)
  end
  id_at_cursor(client, bufnr, function(n, err)
    if not n then
      vim.notify(err, vim.log.levels.WARN)
      return
    end
    run(n)
  end)
end

--- Approves (or re-approves) the project's plan file. cb(err, result).
function M.approve(cb)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = current_client(bufnr, require('planls.sidebar').is_sidebar(bufnr))
  if not client then
    return
  end
  with_plan(client, function(plan)
    if not val(plan.exists) then
      vim.notify('planls: no plan file to approve in ' .. client.config.root_dir, vim.log.levels.WARN)
      return
    end
    M.execute(client, 'planls.approve', { uri = plan.planUri }, cb)
  end)
end

--- Summary lines for :PlanlsStatus: title and counts, then each open item.
function M.status_lines(plan, glyphs)
  local render = require('planls.render')
  if type(plan) ~= 'table' then
    return { 'planls: unexpected planls/plan result: ' .. type(plan) }
  end
  if not val(plan.exists) then
    return { 'planls: no plan file in this project' }
  end
  local title = val(plan.title) or ''
  if title == '' then
    title = '(untitled plan)'
  end
  local head
  if val(plan.approved) then
    local open, total = tonumber(val(plan.open)) or 0, tonumber(val(plan.total)) or 0
    head = string.format('planls: %s: %d/%d open', tostring(title), open, total)
  else
    head = string.format('planls: %s: not approved (:PlanlsApprove)', tostring(title))
  end
  local out = { head }
  if val(plan.needsReapproval) then
    table.insert(out, '  the plan changed since approval (:PlanlsApprove re-approves)')
  end
  if (val(plan.stateError) or '') ~= '' then
    table.insert(out, '  state error: ' .. tostring(plan.stateError))
  end
  if val(plan.approved) then
    for _, g in ipairs(render.tables(plan.groups)) do
      for _, item in ipairs(render.tables(g.items)) do
        local st = val(item.status)
        if st == 'pending' or st == 'in_progress' then
          local gk = render.glyph_key(item)
          local id, subject = tostring(val(item.id) or 0), tostring(val(item.subject) or '')
          table.insert(out, string.format('  %s #%s %s', glyphs[gk] or '?', id, subject))
        end
      end
    end
  end
  return out
end

--- :PlanlsStatus: prints the summary; cb(lines) for tests.
function M.status(cb)
  local client = current_client(vim.api.nvim_get_current_buf(), false)
  if not client then
    return
  end
  with_plan(client, function(plan)
    local lines = M.status_lines(plan, require('planls.config').options.sidebar.glyphs)
    vim.notify(table.concat(lines, '\n'), vim.log.levels.INFO)
    if cb then
      cb(lines)
    end
  end)
end

return M
