-- Units without a server: options, root finding, positions, prompting with
-- a fake client (what is sent, and that a blank answer sends nothing).
local H = require('harness')
local actions = require('planls.actions')
local compat = require('planls.compat')
local config = require('planls.config')
local itemcheck = require('planls.itemcheck')
local root = require('planls.root')

-- A stand-in for a vim.lsp client: records requests and answers each with
-- `reply` (an envelope), or with the JSON-RPC error `err` when given,
-- through the handler, like the real client does.
local function fake_client(reply, err)
  local c = { id = 4242, name = 'planls', initialized = true, config = { root_dir = '/work/proj' }, sent = {} }
  local function request(method, params, handler)
    table.insert(c.sent, { method = method, params = params })
    if err then
      handler(err, nil, { method = method, client_id = c.id })
      return true, #c.sent
    end
    handler(nil, reply, { method = method, client_id = c.id })
    return true, #c.sent
  end
  -- compat calls client:request on 0.11+ and client.request before.
  if compat.has('0.11') then
    c.request = function(_, ...)
      return request(...)
    end
    c.is_stopped = function()
      return false
    end
  else
    c.request = request
    c.is_stopped = function()
      return false
    end
  end
  return c
end

local ok_reply = { content = { { type = 'text', text = 'Completed #3' } }, details = {} }

H.test('config: defaults, deep merge, lists replaced', function()
  local o = config.set({ cmd = { '/opt/planls' }, sidebar = { width = 30, keys = { start = false } } })
  H.eq({ '/opt/planls' }, o.cmd)
  H.eq(30, o.sidebar.width)
  H.eq(false, o.sidebar.keys.start)
  H.eq('c', o.sidebar.keys.complete)
  H.eq(200, o.sidebar.debounce)
  H.eq({ '.planls', '.git', 'PLAN.md' }, o.root_markers)
  o = config.set({ root_markers = { 'plan.toml' } })
  H.eq({ 'plan.toml' }, o.root_markers)
  H.eq({ 'planls', 'serve' }, o.cmd)
  config.set({})
end)

H.test('config: bad options are rejected with the key named', function()
  local ok, err = pcall(config.set, { cmd = 'planls serve' })
  H.ok(not ok and tostring(err):find('planls: option cmd must be a table, got string', 1, true), tostring(err))
  ok, err = pcall(config.set, 'x')
  H.ok(not ok and tostring(err):find('planls: setup() takes a table of options, got string', 1, true), tostring(err))
  ok, err = pcall(config.set, { sidebar = { position = 'top' } })
  H.ok(not ok and tostring(err):find("sidebar.position must be 'left' or 'right'", 1, true), tostring(err))
  ok, err = pcall(config.set, { sidebar = { debounce = -1 } })
  H.ok(not ok and tostring(err):find('sidebar.debounce must be a number of milliseconds >= 0, got -1', 1, true),
    tostring(err))
  H.eq(0, config.set({ sidebar = { debounce = 0 } }).sidebar.debounce)
  config.set({})
end)

H.test('root: nearest directory with a marker', function()
  local base = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(base .. '/outer/.git', 'p')
  vim.fn.mkdir(base .. '/outer/svc/docs', 'p')
  H.write_file(base .. '/outer/svc/PLAN.md', '# p\n')
  H.write_file(base .. '/outer/svc/docs/notes.md', 'x\n')
  H.write_file(base .. '/outer/README.md', 'x\n')
  local markers = config.defaults.root_markers
  H.eq(base .. '/outer/svc', root.find(base .. '/outer/svc/docs/notes.md', markers))
  H.eq(base .. '/outer/svc', root.find(base .. '/outer/svc/docs', markers))
  H.eq(base .. '/outer', root.find(base .. '/outer/README.md', markers))
  H.eq(nil, root.find(base, { 'no-such-marker-here' }))
  H.eq(nil, root.find('', markers))
end)

H.test('root: scheme and unnamed buffers have no project', function()
  local b = vim.api.nvim_create_buf(false, true)
  H.eq(nil, root.for_buf(b, config.defaults.root_markers))
  vim.api.nvim_buf_set_name(b, 'planls://sidebar')
  H.eq(nil, root.for_buf(b, config.defaults.root_markers))
end)

H.test('compat: UTF-16 columns to bytes', function()
  local line = '- 🚀 deploy привет'
  local cases = { { 0, 0 }, { 2, 2 }, { 5, 7 }, { 12, 14 }, { 13, 16 }, { 99, #line } }
  for _, c in ipairs(cases) do
    H.eq(c[2], compat.utf16_to_byte(line, c[1]), 'character ' .. c[1])
  end
  H.eq(0, compat.utf16_to_byte('', 4))
end)

H.test('complete: the answer is sent as evidence', function()
  local seen, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'go test ./internal/ratelimit passes' })
  local c = fake_client(ok_reply)
  local got
  actions.prompt_and_execute(c, 'planls.complete', { id = 3, uri = 'file:///work/proj/PLAN.md' }, function(err, result)
    got = { err = err, result = result }
  end)
  restore()
  restore_notify()
  H.eq({ 'Evidence for #3: ' }, prompts)
  H.eq({ {
    method = 'workspace/executeCommand',
    params = {
      command = 'planls.complete',
      arguments = { { id = 3, uri = 'file:///work/proj/PLAN.md', evidence = 'go test ./internal/ratelimit passes' } },
    },
  } }, c.sent)
  H.eq(ok_reply, got.result)
  H.eq({ { msg = 'planls: Completed #3', level = vim.log.levels.INFO } }, seen)
end)

H.test('defer: the answer is sent as reason', function()
  local _, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'one replica today' })
  local c = fake_client(ok_reply)
  actions.prompt_and_execute(c, 'planls.defer', { id = 5 })
  restore()
  restore_notify()
  H.eq({ 'Reason to defer #5: ' }, prompts)
  H.eq({ { id = 5, reason = 'one replica today' } }, c.sent[1].params.arguments)
end)

H.test('an action that carries its evidence (Complete #3 with <commit>) is sent without asking', function()
  local _, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'never used' })
  local c = fake_client(ok_reply)
  actions.prompt_and_execute(c, 'planls.complete', { id = 3, evidence = 'abc1234 Add the limiter' })
  actions.prompt_and_execute(c, 'planls.defer', { id = 4, reason = '   ' }) -- blank: still asks
  restore()
  restore_notify()
  H.eq({ 'Reason to defer #4: ' }, prompts)
  H.eq({ { id = 3, evidence = 'abc1234 Add the limiter' } }, c.sent[1].params.arguments)
  H.eq({ { id = 4, reason = 'never used' } }, c.sent[2].params.arguments)
end)

H.test('a blank or cancelled answer sends nothing', function()
  for _, answer in ipairs({ '', '   ', '\t', false }) do
    local seen, restore_notify = H.capture_notify()
    -- false stands for nil (Esc): a nil hole cannot sit in the answers list.
    local _, restore = H.stub_input({ answer ~= false and answer or nil })
    local c = fake_client(ok_reply)
    local cancelled
    for _, cmd in ipairs({ 'planls.complete', 'planls.defer' }) do
      actions.prompt_and_execute(c, cmd, { id = 1 }, function(_, _, was_cancelled)
        cancelled = was_cancelled
      end)
      H.eq(true, cancelled, cmd .. ' with ' .. vim.inspect(answer))
    end
    restore()
    restore_notify()
    H.eq({}, c.sent, 'sent for ' .. vim.inspect(answer))
    H.eq('planls: cancelled, nothing changed', seen[1] and seen[1].msg)
  end
end)

H.test('an in-band error is reported as a warning', function()
  local seen, restore_notify = H.capture_notify()
  local _, restore = H.stub_input({ 'x' })
  local reply = {
    content = { { type = 'text', text = 'Error: task #9 not found' } },
    details = { error = 'task #9 not found' },
  }
  actions.prompt_and_execute(fake_client(reply), 'planls.complete', { id = 9 })
  restore()
  restore_notify()
  H.eq({ { msg = 'planls: Error: task #9 not found', level = vim.log.levels.WARN } }, seen)
end)

H.test('start and reopen do not prompt', function()
  local prompts, restore = H.stub_input({ 'unused' })
  local _, restore_notify = H.capture_notify()
  local c = fake_client(ok_reply)
  actions.prompt_and_execute(c, 'planls.start', { id = 2 })
  actions.prompt_and_execute(c, 'planls.reopen', { id = 2 })
  restore()
  restore_notify()
  H.eq({}, prompts)
  -- reopen first asks the task's status (todo get): only a completed one needs a reason.
  local sent = {}
  for _, m in ipairs(c.sent) do
    table.insert(sent, m.params.command)
  end
  H.eq({ 'planls.start', 'planls.todo', 'planls.reopen' }, sent)
end)

H.test('reopening a completed item asks why, and sends the reason', function()
  local prompts, restore = H.stub_input({ 'the test was skipped' })
  local _, restore_notify = H.capture_notify()
  local c = fake_client({
    content = { { type = 'text', text = '#2 [completed] Add the lexer' } },
    details = { tasks = { { id = 2, status = 'completed', subject = 'Add the lexer' } } },
  })
  actions.prompt_and_execute(c, 'planls.reopen', { id = 2 })
  restore()
  restore_notify()
  H.eq({ 'Reason to reopen #2 (why it is not done): ' }, prompts)
  H.eq('planls.reopen', c.sent[2].params.command)
  H.eq('the test was skipped', c.sent[2].params.arguments[1].reason)
end)

H.test('itemcheck.plan_has: only tracked ids of the plan', function()
  local plan = {
    groups = {
      { name = 'Build', items = { { id = 1 }, { id = 0, status = 'draft' }, { id = vim.NIL } } },
      { name = '', items = { { id = 7, drift = 'missing', range = vim.NIL } } },
    },
  }
  local cases = {
    { 'listed', plan, 1, true },
    { 'listed, missing from the file', plan, 7, true },
    { 'not listed', plan, 2, false },
    { 'draft id', plan, 0, false },
    { 'no plan', nil, 1, false },
    { 'null plan', vim.NIL, 1, false },
    { 'null groups', { groups = vim.NIL }, 1, false },
    { 'null items', { groups = { { name = 'x', items = vim.NIL } } }, 1, false },
    { 'string id', plan, '1', false },
  }
  for _, case in ipairs(cases) do
    H.eq(case[4], itemcheck.plan_has(case[2], case[3]), case[1])
  end
end)

-- Envelope of a todo `get` whose details.tasks holds `tasks`.
local function get_reply(text, tasks, err)
  return { content = { { type = 'text', text = text } }, details = { action = 'get', tasks = tasks, error = err } }
end

H.test('itemcheck.check: a listed id goes on at once, any other is asked with todo get', function()
  local plan = { groups = { { name = '', items = { { id = 3 } } } } }
  local c = fake_client(ok_reply)
  local went = false
  itemcheck.check(c, 3, plan, function()
    went = true
  end)
  H.eq(true, went, 'listed id')
  H.eq({}, c.sent, 'requests for a listed id')
  local cases = {
    {
      name = 'not in the state',
      id = 99,
      reply = get_reply('Error: #99 not found', { { id = 3, status = 'pending' } }, '#99 not found'),
      went = false,
      msgs = { { msg = 'planls: #99 not found', level = vim.log.levels.ERROR } },
    },
    {
      name = 'a task of the todo tool',
      id = 8,
      reply = get_reply('#8 [pending] runbook', { { id = 3, status = 'pending' }, { id = 8, status = 'pending' } }),
      went = true,
      msgs = {},
    },
    {
      name = 'deleted',
      id = 8,
      reply = get_reply('#8 [deleted] runbook', { { id = 8, status = 'deleted', deletedFrom = 'pending' } }),
      went = false,
      msgs = { { msg = 'planls: #8 is deleted', level = vim.log.levels.ERROR } },
    },
    {
      name = 'a plan item removed by re-approval',
      id = 6,
      reply = get_reply('#6 [removed by re-approval] old bullet', { { id = 6, status = 'deleted', source = 'plan' } }),
      went = false,
      msgs = { { msg = 'planls: #6 left the plan (removed by re-approval)', level = vim.log.levels.ERROR } },
    },
    {
      name = 'in the state, closed',
      id = 3,
      reply = get_reply('#3 [completed] x', { { id = 3, status = 'completed' } }),
      went = true,
      msgs = {},
    },
  }
  for _, case in ipairs(cases) do
    local seen, restore_notify = H.capture_notify()
    c = fake_client(case.reply)
    went = false
    itemcheck.check(c, case.id, { groups = { { name = '', items = { { id = 5 } } } } }, function()
      went = true
    end)
    restore_notify()
    H.eq(case.went, went, case.name)
    H.eq(case.msgs, seen, case.name)
    H.eq({ {
      method = 'workspace/executeCommand',
      params = {
        command = 'planls.todo',
        arguments = { { params = { action = 'get', id = case.id }, uri = 'file:///work/proj' } },
      },
    } }, c.sent, case.name)
  end
end)

H.test('itemcheck.check: a failed lookup is reported once and goes no further', function()
  local seen, restore_notify = H.capture_notify()
  local c = fake_client(nil, { code = -32602, message = 'several workspace folders: pass "uri"' })
  local went = false
  itemcheck.check(c, 4, nil, function()
    went = true
  end)
  restore_notify()
  H.eq(false, went)
  H.eq({ { msg = 'planls: several workspace folders: pass "uri"', level = vim.log.levels.ERROR } }, seen)
end)

H.test('an error the server already showed is not shown again', function()
  local msg = 'plan item #9 is gone: the plan or the state changed since this action was offered; nothing was done'
  local shown, restore_shown = H.capture_shown()
  local handler = require('planls.client').base_config().handlers['window/showMessage']
  local c = fake_client(nil, { code = -32602, message = msg })
  local seen, restore_notify = H.capture_notify()
  local ok, err = pcall(function()
    handler(nil, { type = 1, message = msg }, { client_id = c.id })
    actions.execute(c, 'planls.complete', { id = 9, evidence = 'x' })
    H.eq({}, seen, 'after the server showed it')
    -- Taken once: the same error again, not shown by the server, is reported.
    actions.execute(c, 'planls.complete', { id = 9, evidence = 'x' })
    H.eq({ { msg = 'planls: ' .. msg, level = vim.log.levels.ERROR } }, seen, 'second failure')
    -- Only Error-type messages count; another client's do not.
    handler(nil, { type = 2, message = msg }, { client_id = c.id })
    handler(nil, { type = 1, message = msg }, { client_id = c.id + 1 })
    actions.execute(c, 'planls.complete', { id = 9, evidence = 'x' })
    H.eq(2, #seen, 'after a warning and another client')
  end)
  restore_notify()
  restore_shown()
  H.ok(ok, tostring(err))
  H.eq({ msg, msg, msg }, shown, 'the default handler still shows every message')
end)

H.test("a deferral the server confirms is the command's one message", function()
  local handler = require('planls.client').base_config().handlers['window/showMessage']
  local shown, restore_shown = H.capture_shown()
  local mine = 'planls: Deferred #3 Read limits from config.yaml, reason: later'
  local other = 'planls: Deferred #5 Unit tests, reason: later'
  local reply = {
    content = {
      {
        type = 'text',
        text = 'Updated #3 (pending → deferred). Tell the user this plan item is descoped and why: later',
      },
    },
    details = {},
  }
  local c = fake_client(reply)
  local inner = c.request
  -- The server writes its messages before it replies.
  c.request = function(...)
    handler(nil, { type = 3, message = mine }, { client_id = c.id })
    handler(nil, { type = 3, message = other }, { client_id = c.id })
    return inner(...)
  end
  local seen, restore_notify = H.capture_notify()
  local ok, err = pcall(function()
    actions.execute(c, 'planls.defer', { id = 3, reason = 'later' })
    H.eq({ { msg = mine, level = vim.log.levels.INFO } }, seen, 'the command shows the server\'s words once')
    H.eq({ other }, shown, 'a message about another item is shown by the handler')
    -- With no command of ours on #3 running, the handler shows it.
    handler(nil, { type = 3, message = mine }, { client_id = c.id })
    H.eq({ other, mine }, shown)
  end)
  restore_notify()
  restore_shown()
  H.ok(ok, tostring(err))
end)

H.test('setup registers the client-side commands and user commands', function()
  require('planls').setup({ autostart = false })
  H.eq(actions.lsp_command, vim.lsp.commands['planls.complete'])
  H.eq(actions.lsp_command, vim.lsp.commands['planls.defer'])
  H.eq(nil, vim.lsp.commands['planls.start'])
  local cmds = vim.api.nvim_get_commands({})
  local names = { 'PlanlsSidebar', 'PlanlsApprove', 'PlanlsComplete', 'PlanlsDefer', 'PlanlsStatus', 'PlanlsStart' }
  table.insert(names, 'PlanlsReopen')
  for _, name in ipairs(names) do
    H.ok(cmds[name], name .. ' is not defined')
  end
  H.eq('?', cmds.PlanlsComplete.nargs)
end)

H.test('the code action handler prompts and sends through its client', function()
  local c = fake_client(ok_reply)
  local orig = vim.lsp.get_client_by_id
  vim.lsp.get_client_by_id = function(id)
    if id == c.id then
      return c
    end
    return orig(id)
  end
  local _, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'done in 3f2c1a' })
  local ok, err = pcall(vim.lsp.commands['planls.complete'], {
    title = 'Complete #3…',
    command = 'planls.complete',
    arguments = { { id = 3, uri = 'file:///work/proj/PLAN.md' } },
  }, { client_id = c.id, bufnr = 0 })
  restore()
  restore_notify()
  vim.lsp.get_client_by_id = orig
  H.ok(ok, tostring(err))
  H.eq({ 'Evidence for #3: ' }, prompts)
  H.eq({ { id = 3, uri = 'file:///work/proj/PLAN.md', evidence = 'done in 3f2c1a' } }, c.sent[1].params.arguments)
end)

H.test('highlight groups link to standard groups', function()
  require('planls.highlights').apply()
  for group, target in pairs(require('planls.highlights').links) do
    H.eq(1, vim.fn.hlexists(target), target .. ' does not exist on this Neovim')
    local id = vim.fn.synIDtrans(vim.fn.hlID(group))
    H.eq(vim.fn.synIDtrans(vim.fn.hlID(target)), id, group .. ' -> ' .. target)
  end
  -- A user's own definition wins over the default link.
  vim.cmd('highlight PlanlsTitle guifg=#ff0000')
  require('planls.highlights').apply()
  local user = vim.fn.synIDtrans(vim.fn.hlID('PlanlsTitle'))
  H.ok(user ~= vim.fn.synIDtrans(vim.fn.hlID('Title')), 'user highlight replaced')
end)

H.test('checkhealth state report', function()
  local health = require('planls.health')
  local ws = H.workspace(nil)
  local level, msg = health.state_report(ws)
  H.eq('info', level)
  H.ok(msg:find('no state file yet', 1, true), msg)
  vim.fn.mkdir(ws .. '/.planls', 'p')
  H.write_file(ws .. '/.planls/state.json', '{"version":1,"revision":4,"nextId":3,"tasks":[{"id":1},{"id":2}]}\n')
  level, msg = health.state_report(ws)
  H.eq('ok', level)
  H.eq('state file ' .. ws .. '/.planls/state.json readable (revision 4, 2 tasks)', msg)
  H.write_file(ws .. '/.planls/state.json', '{"version":1,')
  level, msg = health.state_report(ws)
  H.eq('error', level)
  H.ok(msg:find('does not parse', 1, true), msg)
  -- Reporting never rewrites a broken file.
  H.eq('{"version":1,', H.read_file(ws .. '/.planls/state.json'))
end)

H.test('doc/planls.txt builds help tags', function()
  local dir = vim.fn.tempname() .. '/doc'
  vim.fn.mkdir(dir, 'p')
  H.write_file(dir .. '/planls.txt', assert(H.read_file(H.plugin_dir .. '/doc/planls.txt')))
  vim.cmd('helptags ' .. vim.fn.fnameescape(dir))
  local tags = H.read_file(dir .. '/tags') or ''
  local want = { 'planls.txt', 'planls-setup', ':PlanlsSidebar', ':PlanlsComplete', ':PlanlsReport', 'planls-health' }
  table.insert(want, 'planls.lsp_config()')
  for _, tag in ipairs(want) do
    H.ok(tags:find(tag .. '\t', 1, true), 'missing tag ' .. tag)
  end
end)

H.test(':help planls works after setup, with no :helptags step', function()
  -- A copy of the plugin as a user installs it: no doc/tags.
  local copy = vim.fn.tempname()
  vim.fn.mkdir(copy .. '/doc', 'p')
  H.write_file(copy .. '/doc/planls.txt', assert(H.read_file(H.plugin_dir .. '/doc/planls.txt')))
  local rtp = vim.o.runtimepath
  vim.o.runtimepath = copy .. ',' .. rtp:gsub(vim.pesc(H.plugin_dir) .. ',?', '')
  require('planls').setup({ autostart = false })
  local ok, err = pcall(vim.cmd, 'help planls')
  local shown = vim.api.nvim_buf_get_name(0)
  vim.cmd('helpclose')
  vim.o.runtimepath = rtp
  H.ok(ok, tostring(err))
  H.eq(copy .. '/doc/planls.txt', vim.fn.resolve(shown))
  H.ok(vim.fn.filereadable(copy .. '/doc/tags') == 1, 'no doc/tags')
end)

H.test(':checkhealth planls without binary or server', function()
  require('planls').setup({ cmd = { '/nonexistent/planls', 'serve' }, autostart = false })
  vim.cmd('checkhealth planls')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('tabclose')
  require('planls').setup({ autostart = false })
  H.ok(text:find('binary not found: /nonexistent/planls', 1, true), text)
  H.ok(text:find('server not attached', 1, true), text)
  -- What installs it today (a clone), and @latest only as what will once
  -- the module is published.
  H.ok(text:find('in a clone of the planls repository: go install ./cmd/planls', 1, true), text)
  local latest = {}
  for line in text:gmatch('[^\n]*@latest[^\n]*') do
    table.insert(latest, line)
  end
  H.eq(1, #latest, text)
  H.ok(latest[1]:find('once the module is published: go install github.com/planls/planls/cmd/planls@latest', 1, true),
    latest[1])
end)

-- Runs fn with compat.has answering `newer` for versions up to it, and
-- vim.lsp fields replaced by `fakes`; everything is restored afterwards.
local function as_version(newer, fakes, fn)
  local orig_has = compat.has
  local saved = {}
  local function minor(v)
    return tonumber(v:match('^0%.(%d+)'))
  end
  compat.has = function(v)
    return minor(v) <= minor(newer)
  end
  for k, v in pairs(fakes) do
    saved[k] = { vim.lsp[k] }
    rawset(vim.lsp, k, v)
  end
  local ok, err = pcall(fn)
  compat.has = orig_has
  for k, v in pairs(saved) do
    rawset(vim.lsp, k, v[1])
  end
  if not ok then
    error(err, 0)
  end
end

H.test('0.11 path: a vim.lsp.config entry, enabled, rooted by markers', function()
  local ws = H.workspace(H.test_dir .. '/fixtures/basic/PLAN.md')
  vim.fn.mkdir(ws .. '/docs', 'p')
  local got = {}
  as_version('0.11', {
    config = function(name, cfg)
      got.name, got.cfg = name, cfg
    end,
    enable = function(name, on)
      got.enabled = { name, on }
    end,
  }, function()
    require('planls').setup({ cmd = { '/opt/planls', 'serve' }, settings = { severity = 'hint' } })
  end)
  H.eq('planls', got.name)
  H.eq({ 'planls', true }, got.enabled)
  H.eq({ '/opt/planls', 'serve' }, got.cfg.cmd)
  H.eq({ 'markdown' }, got.cfg.filetypes)
  H.eq({ settings = { planls = { severity = 'hint' } } }, got.cfg.init_options)
  H.eq({ planls = { severity = 'hint' } }, got.cfg.settings)
  H.ok(got.cfg.handlers['planls/stateChanged'], 'no planls/stateChanged handler')
  -- root_dir(bufnr, on_dir) calls on_dir only inside a project.
  local inside = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(inside, ws .. '/docs/notes.md')
  local roots = {}
  got.cfg.root_dir(inside, function(r)
    table.insert(roots, r)
  end)
  H.eq({ ws }, roots)
  local outside = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(outside, vim.fn.resolve(vim.fn.tempname()) .. '/loose.md')
  got.cfg.root_dir(outside, function(r)
    table.insert(roots, r)
  end)
  H.eq({ ws }, roots)
  require('planls').setup({ autostart = false })
end)

H.test('0.8 path: vim.lsp.start from the FileType autocmd, in the buffer', function()
  local ws = H.workspace(H.test_dir .. '/fixtures/basic/PLAN.md')
  local calls = {}
  as_version('0.8', {
    start = function(cfg, opts)
      table.insert(calls, { cfg = cfg, opts = opts, buf = vim.api.nvim_get_current_buf() })
      return nil
    end,
  }, function()
    require('planls').setup({})
    vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/PLAN.md'))
  end)
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('bwipeout!')
  require('planls').setup({ autostart = false })
  H.eq(1, #calls)
  H.eq(buf, calls[1].buf)
  H.eq(nil, calls[1].opts)
  H.eq(ws, calls[1].cfg.root_dir)
  H.eq('planls', calls[1].cfg.name)
  -- setup({autostart = false}) dropped the autocmd.
  H.eq({}, vim.api.nvim_get_autocmds({ group = 'planls_start' }))
end)

H.test(':PlanlsSidebar outside any project says so and opens nothing', function()
  require('planls').setup({ autostart = false })
  local dir = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(dir, 'p')
  local cwd = vim.fn.getcwd()
  vim.cmd('cd ' .. vim.fn.fnameescape(dir))
  vim.cmd('enew')
  local seen, restore_notify = H.capture_notify()
  vim.cmd('PlanlsSidebar')
  restore_notify()
  vim.cmd('cd ' .. vim.fn.fnameescape(cwd))
  H.eq(false, require('planls.sidebar').is_open())
  H.eq(1, #vim.api.nvim_tabpage_list_wins(0))
  H.eq('planls: no project here (none of .planls, .git, PLAN.md above ' .. dir .. ')', seen[1] and seen[1].msg)
  H.eq(vim.log.levels.ERROR, seen[1].level)
end)

H.test('a deferral is shown with its reason, not the agent\'s "Tell the user ..."', function()
  H.eq('Updated #3 (pending → deferred), reason: later', actions.for_people(
    'Updated #3 (pending → deferred). Tell the user this plan item is descoped and why: later'))
  H.eq('Applied 1 ops\n[0] Updated #3 (in_progress → deferred), reason: x', actions.for_people(
    'Applied 1 ops\n[0] Updated #3 (in_progress → deferred). Tell the user this plan item is descoped and why: x'))
  H.eq('Updated #3', actions.for_people('Updated #3'))
end)

H.finish()
