-- Neovim scenario: the real binary over stdio driven by plain
-- vim.lsp (no plugin). Approve by code action, one diagnostic per open
-- item, complete one through its code action with evidence, state.json
-- updated and the diagnostic gone, then the CLI changes the state and the
-- diagnostics follow.
local H = require('harness')

local TIMEOUT = 15000
local repo = os.getenv('PLANLS_REPO') or (H.plugin_dir .. '/../..')
local ws = H.workspace(repo .. '/examples/basic/PLAN.md')
local plan_path = ws .. '/PLAN.md'
local state_path = ws .. '/.planls/state.json'

local buf, client_id, client
local exit_code

-- Client methods take ':' from 0.11 on; the test runs on 0.7 but should not
-- break on a newer Neovim.
local function request_sync(method, params)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, TIMEOUT, buf)
  end
  return client.request_sync(method, params, TIMEOUT, buf)
end

local function planls_diags(code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'planls' and (code == nil or d.code == code) then
      table.insert(out, d)
    end
  end
  table.sort(out, function(a, b)
    return a.lnum < b.lnum
  end)
  return out
end

local function data_of(d)
  local lsp = d.user_data and d.user_data.lsp or {}
  return type(lsp.data) == 'table' and lsp.data or {}
end

local function open_ids()
  local ids = {}
  for _, d in ipairs(planls_diags('open-item')) do
    table.insert(ids, data_of(d).id)
  end
  table.sort(ids)
  return ids
end

local function describe()
  return vim.inspect(vim.tbl_map(function(d)
    return { lnum = d.lnum, col = d.col, code = d.code, message = d.message, data = data_of(d) }
  end, vim.diagnostic.get(buf)))
end

-- The LSP shape of a stored diagnostic, for a codeAction context.
local function to_lsp(d)
  local lsp = d.user_data and d.user_data.lsp or {}
  return {
    range = {
      start = { line = d.lnum, character = d.col },
      ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col },
    },
    severity = d.severity,
    source = d.source,
    code = d.code,
    message = d.message,
    data = lsp.data,
  }
end

local function code_actions(line)
  local ctx = {}
  for _, d in ipairs(vim.diagnostic.get(buf, { lnum = line })) do
    table.insert(ctx, to_lsp(d))
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
    context = { diagnostics = ctx },
  }
  local res, err = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, TIMEOUT)
  assert(res, 'codeAction: ' .. tostring(err))
  local r = res[client_id]
  assert(r and not r.error, 'codeAction failed: ' .. vim.inspect(r))
  return r.result or {}
end

local function find_action(actions, title)
  for _, a in ipairs(actions) do
    if a.title == title then
      return a
    end
  end
  error('no code action ' .. title .. ' in ' .. vim.inspect(vim.tbl_map(function(a)
    return a.title
  end, actions)))
end

local function execute(command)
  local r = request_sync('workspace/executeCommand', { command = command.command, arguments = command.arguments })
  assert(r and not r.err, 'executeCommand failed: ' .. vim.inspect(r))
  return r.result
end

local function task(id)
  local st = H.read_json(state_path)
  for _, t in ipairs(st and st.tasks or {}) do
    if t.id == id then
      return t
    end
  end
  return nil
end

-- 0-based lines of the plan's top-level bullets before "## Not adopted"
-- (the sections after it are context, not items).
local function item_lines()
  local out = {}
  for i, l in ipairs(vim.fn.readfile(plan_path)) do
    if l:match('^## Not adopted') then
      break
    end
    if l:match('^%- ') then
      table.insert(out, i - 1)
    end
  end
  return out
end

H.test('attach over stdio with plain vim.lsp', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(plan_path))
  buf = vim.api.nvim_get_current_buf()
  client_id = vim.lsp.start_client({
    name = 'planls-plain',
    cmd = { H.bin(), 'serve' },
    root_dir = ws,
    on_exit = function(code)
      exit_code = code
    end,
  })
  H.ok(client_id, 'start_client returned nil')
  H.ok(vim.lsp.buf_attach_client(buf, client_id), 'buf_attach_client failed')
  client = vim.lsp.get_client_by_id(client_id)
  H.wait(TIMEOUT, function()
    return client.initialized == true
  end, 'initialize')
  local caps = client.server_capabilities
  H.ok(caps.codeActionProvider, 'no codeActionProvider')
  local cmds = caps.executeCommandProvider and caps.executeCommandProvider.commands or {}
  for _, c in ipairs({ 'planls.complete', 'planls.defer', 'planls.start', 'planls.reopen', 'planls.approve' }) do
    H.ok(vim.tbl_contains(cmds, c), c .. ' not in ' .. vim.inspect(cmds))
  end
  H.wait(TIMEOUT, function()
    return #planls_diags('plan-not-approved') == 1
  end, 'plan-not-approved diagnostic', describe)
  H.eq(nil, H.read_file(state_path), 'state written before approval')
end)

-- Before approval the plan previews its reading as code lenses,
-- rendered by Neovim's own codelens display: the item count on Approve plan,
-- "will be tracked" on each item, a count per heading, why a section is not
-- tracked.
H.test('preview: code lenses show what approval would track', function()
  vim.lsp.codelens.refresh()
  H.wait(TIMEOUT, function()
    return #vim.lsp.codelens.get(buf) > 0
  end, 'code lenses')
  local by_line = {}
  for _, l in ipairs(vim.lsp.codelens.get(buf)) do
    by_line[l.range.start.line] = by_line[l.range.start.line] or {}
    table.insert(by_line[l.range.start.line], l.command and l.command.title or '')
  end
  H.eq({ 'Approve plan (7 plan items)' }, by_line[0], vim.inspect(by_line))
  for _, line in ipairs(item_lines()) do
    H.eq({ 'will be tracked' }, by_line[line], 'line ' .. line .. ': ' .. vim.inspect(by_line))
  end
  local counted, skipped = false, false
  for _, titles in pairs(by_line) do
    for _, t in ipairs(titles) do
      counted = counted or t:match('^%d+ plan items? on approval$') ~= nil
      skipped = skipped or t:match('^not tracked: ') ~= nil
    end
  end
  H.ok(counted, 'no count per heading: ' .. vim.inspect(by_line))
  H.ok(skipped, 'no skipped section: ' .. vim.inspect(by_line))
  -- What the user sees: the lenses drawn as virtual text on those lines.
  -- 0.12 draws lenses from a decoration provider when a UI redraws, which
  -- a headless Neovim never does: there the lenses above are what it has.
  if not vim.lsp.codelens.__namespaces then
    return
  end
  local ns = vim.lsp.codelens.__namespaces[client_id]
  H.wait(TIMEOUT, function()
    local marks = vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })
    for _, m in ipairs(marks) do
      for _, chunk in ipairs(m[4].virt_text or {}) do
        if chunk[1]:match('will be tracked') then
          return true
        end
      end
    end
    return false
  end, 'lenses drawn as virtual text')
end)

H.test('approve by code action: one diagnostic per open item', function()
  local d = planls_diags('plan-not-approved')[1]
  local action = find_action(code_actions(d.lnum), 'Approve plan')
  H.eq('source.approve', action.kind)
  H.eq('planls.approve', action.command.command)
  execute(action.command)
  H.wait(TIMEOUT, function()
    return #planls_diags('open-item') == 7
  end, '7 open-item diagnostics', describe)
  H.eq(0, #planls_diags('plan-not-approved'))
  local lines = {}
  for _, diag in ipairs(planls_diags('open-item')) do
    table.insert(lines, diag.lnum)
    H.eq(0, diag.col, 'diagnostic starts at the list marker')
  end
  H.eq(item_lines(), lines)
  H.eq({ 1, 2, 3, 4, 5, 6, 7 }, open_ids())
  local first = planls_diags('open-item')[1]
  H.eq('open plan item #1 (pending): Add internal/ratelimit with a token bucket keyed by API key', first.message)
  H.eq({ id = 1, code = 'open-item' }, data_of(first))
  local st = H.read_json(state_path)
  H.ok(st and st.plan, 'state.json has no plan')
  H.eq(7, #st.tasks)
end)

H.test('complete through the code action with evidence', function()
  local d = planls_diags('open-item')[1]
  local actions = code_actions(d.lnum)
  local action = find_action(actions, 'Complete #1…')
  find_action(actions, 'Defer #1…')
  find_action(actions, 'Start #1')
  H.eq('planls.complete', action.command.command)
  H.eq(1, action.command.arguments[1].id)
  -- What a client plugin does after prompting: add the evidence.
  local cmd = vim.deepcopy(action.command)
  cmd.arguments[1].evidence = 'go test ./internal/ratelimit: ok'
  local result = execute(cmd)
  H.ok(type(result) == 'table' and type(result.content) == 'table', 'envelope: ' .. vim.inspect(result))
  H.wait(TIMEOUT, function()
    local t = task(1)
    return t and t.status == 'completed'
  end, 'state.json records #1 completed')
  H.eq('go test ./internal/ratelimit: ok', task(1).evidence)
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 2, 3, 4, 5, 6, 7 }, open_ids())
  end, 'diagnostic of #1 gone', describe)
end)

H.test('CLI changes to the state move the diagnostics', function()
  local rc, out = H.cli(ws, { 'todo', 'complete', '2', '--evidence', 'curl shows 429 with Retry-After' })
  H.eq(0, rc, out)
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 3, 4, 5, 6, 7 }, open_ids())
  end, 'diagnostic of #2 gone after the CLI', describe)
  H.eq('completed', task(2).status)
  rc, out = H.cli(ws, { 'todo', 'defer', '3', '--reason', 'config loading moves to the next plan' })
  H.eq(0, rc, out)
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 4, 5, 6, 7 }, open_ids())
  end, 'diagnostic of #3 gone after the CLI defer', describe)
  H.eq('config loading moves to the next plan', task(3).reason)
  rc, out = H.cli(ws, { 'todo', 'reopen', '3' })
  H.eq(0, rc, out)
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 3, 4, 5, 6, 7 }, open_ids())
  end, 'diagnostic of #3 back after the CLI reopen', describe)
  rc, out = H.cli(ws, { 'todo', 'start', '4' })
  H.eq(0, rc, out)
  H.wait(TIMEOUT, function()
    local ip = planls_diags('in-progress')
    return #ip == 1 and data_of(ip[1]).id == 4 and vim.deep_equal({ 3, 5, 6, 7 }, open_ids())
  end, '#4 in progress after the CLI start', describe)
end)

H.test('shutdown and exit end the server process with code 0', function()
  vim.lsp.stop_client(client_id)
  H.wait(5000, function()
    return exit_code ~= nil
  end, 'the server process to exit after shutdown + exit (Neovim keeps its stdin open)')
  H.eq(0, exit_code)
end)

H.finish()
