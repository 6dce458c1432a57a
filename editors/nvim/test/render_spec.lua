-- Pure rendering of planls/plan results (fixtures) against golden files.
local H = require('harness')
local render = require('planls.render')
local config = require('planls.config')
local actions = require('planls.actions')

local function fixture(name)
  return vim.json.decode(assert(H.read_file(H.test_dir .. '/fixtures/' .. name)))
end

local function opts(extra)
  local o = { glyphs = config.defaults.sidebar.glyphs, keys = config.defaults.sidebar.keys }
  return vim.tbl_extend('force', o, extra or {})
end

local function line_of(r, needle)
  for i, l in ipairs(r.lines) do
    if l:find(needle, 1, true) then
      return i
    end
  end
  error('no line contains ' .. needle .. ' in\n' .. table.concat(r.lines, '\n'))
end

for _, case in ipairs({
  { 'plan_mixed.json', 'render_mixed.txt', {} },
  { 'plan_mixed.json', 'render_mixed_help.txt', { show_help = true } },
  { 'plan_draft.json', 'render_draft.txt', {} },
  { 'plan_reapprove.json', 'render_reapprove.txt', {} },
  { 'plan_nofile.json', 'render_nofile.txt', {} },
  { 'plan_verify.json', 'render_verify.txt', {} },
}) do
  H.test('golden ' .. case[2], function()
    H.golden(case[2], render.render(fixture(case[1]), opts(case[3])).lines)
  end)
end

H.test('evidence reference lines carry what jump opens', function()
  local r = render.render(fixture('plan_verify.json'), opts())
  local file = r.items[line_of(r, '→ file src/a.go:3')]
  H.eq('file:///work/proj/src/a.go', file.ref.uri)
  H.eq(1, file.id)
  H.eq(nil, r.items[line_of(r, 'verify: verified')].ref)
  -- A file that does not exist has no uri: no line to open it from.
  H.eq(nil, (table.concat(r.lines, '\n')):find('→ file lex.go', 1, true))
end)

H.test('loading and error renderings', function()
  H.eq({ 'planls', 'loading…', '', '? help' }, render.render(nil, opts()).lines)
  local failed = render.render(nil, opts({ error = 'planls/plan failed: boom' }))
  H.eq({ 'planls', 'planls/plan failed: boom', '', '? help' }, failed.lines)
end)

H.test('malformed results render without raising', function()
  local cases = {
    'plan',
    42,
    {},
    { exists = true },
    { exists = true, approved = true, groups = 'x', planUri = vim.NIL, title = vim.NIL },
    {
      exists = true,
      approved = true,
      groups = { 'a', { items = 'b' }, { name = 3, items = { 7, { id = 'x', status = 5, subject = { 1 } } } } },
    },
    {
      exists = true,
      approved = true,
      groups = { { items = { { id = 2, status = 'pending', blocked = true, blockedBy = vim.NIL } } } },
    },
    {
      exists = true,
      approved = true,
      open = 'x',
      groups = { { items = { { id = 'x', status = 'pending', subject = 9 } } } },
    },
    { exists = true, planUri = 'not a uri', groups = { { items = { { id = 1, status = 'weird', range = 'x' } } } } },
  }
  for _, plan in ipairs(cases) do
    local ok, r = pcall(render.render, plan, opts())
    H.ok(ok, 'render raised on ' .. vim.inspect(plan) .. ': ' .. tostring(r))
    H.ok(#r.lines >= 2, vim.inspect(r.lines))
    ok, r = pcall(actions.status_lines, plan, config.defaults.sidebar.glyphs)
    H.ok(ok, 'status_lines raised on ' .. vim.inspect(plan) .. ': ' .. tostring(r))
    ok, r = pcall(actions.item_at_line, type(plan) == 'table' and plan or {}, 3)
    H.ok(ok, 'item_at_line raised on ' .. vim.inspect(plan) .. ': ' .. tostring(r))
  end
  H.eq({ 'planls', 'unexpected planls/plan result: string', '', '? help' }, render.render('plan', opts()).lines)
end)

H.test('every highlight lies inside its line', function()
  for _, f in ipairs({ 'plan_mixed.json', 'plan_draft.json', 'plan_reapprove.json', 'plan_nofile.json' }) do
    local r = render.render(fixture(f), opts({ show_help = true }))
    for _, h in ipairs(r.highlights) do
      local line = r.lines[h.line + 1]
      H.ok(line, f .. ': highlight on missing line ' .. h.line)
      local inside = h.col_start >= 0 and h.col_start < h.col_end and h.col_end <= #line
      H.ok(inside, f .. ': bad span ' .. vim.inspect(h) .. ' on ' .. line)
      H.ok(vim.tbl_contains(render.groups, h.group), 'unknown group ' .. h.group)
    end
  end
end)

H.test('glyphs carry their status highlight', function()
  local r = render.render(fixture('plan_mixed.json'), opts())
  local want = {
    ['#1 '] = 'PlanlsPending',
    ['#2 '] = 'PlanlsInProgress',
    ['#3 '] = 'PlanlsCompleted',
    ['#4 '] = 'PlanlsBlocked',
    ['#5 '] = 'PlanlsDeferred',
  }
  for needle, group in pairs(want) do
    local lnum = line_of(r, needle)
    local found
    for _, h in ipairs(r.highlights) do
      if h.line == lnum - 1 and h.col_start == 2 then
        found = h.group
      end
    end
    H.eq(group, found, 'glyph group of ' .. needle)
  end
end)

H.test('detail lines act on their item, headers on none', function()
  local r = render.render(fixture('plan_mixed.json'), opts())
  local ev = line_of(r, 'config_test.go covers overrides')
  H.eq(3, r.items[ev].id, 'second evidence line')
  H.eq(4, r.items[line_of(r, 'blocked by #1, #2')].id, 'blocked-by line')
  H.eq(2, r.items[line_of(r, 'Wiring the limiter')].id, 'activeForm line')
  H.eq(nil, r.items[1], 'title line')
  H.eq(nil, r.items[line_of(r, 'Important changes')], 'group line')
end)

H.test('item keys: ids when approved, group and subject for drafts', function()
  H.eq('id:3', render.item_key({ id = 3, subject = 'x' }, 'G'))
  H.eq('draft:Build\0compile', render.item_key({ id = 0, subject = 'compile' }, 'Build'))
  H.eq('draft:\0x', render.item_key({ id = vim.NIL, subject = 'x' }, ''))
end)

H.test('glyph_key: blocked only while open', function()
  local cases = {
    { { status = 'pending', blocked = true }, 'blocked' },
    { { status = 'in_progress', blocked = true }, 'blocked' },
    { { status = 'completed', blocked = true }, 'completed' },
    { { status = 'deferred', blocked = false }, 'deferred' },
    { { status = 'draft' }, 'draft' },
    { { status = vim.NIL }, 'pending' },
  }
  for _, c in ipairs(cases) do
    H.eq(c[2], render.glyph_key(c[1]), vim.inspect(c[1]))
  end
end)

H.test('help lines leave out disabled keys', function()
  local keys = vim.deepcopy(config.defaults.sidebar.keys)
  keys.approve = false
  keys.start = false
  local lines = render.help_lines(keys)
  H.eq(7, #lines)
  H.eq('c      complete (asks for evidence)', lines[1])
  H.eq('<CR>   jump to the item in the plan, or open an evidence file', lines[4])
end)

H.test('status lines list open items', function()
  H.eq({
    'planls: Add per-client rate limiting to the ingest API: 4/8 open',
    '  ○ #1 Add `internal/ratelimit` with a token bucket keyed by API key',
    '  ◐ #2 Wire the limiter into `POST /v1/ingest` and `POST /v1/batch`',
    '  ⊘ #4 Export `ingest_ratelimit_decisions_total{decision="allow|deny"}`',
    '  ○ #6 `go test ./... -race` passes',
  }, actions.status_lines(fixture('plan_mixed.json'), config.defaults.sidebar.glyphs))
  H.eq({
    'planls: (untitled plan): 1/1 open',
    '  the plan changed since approval (:PlanlsApprove re-approves)',
    "  state error: state.json:3:5: invalid character '}' looking for beginning of object key string",
    '  ○ #1 Enable in staging',
  }, actions.status_lines(fixture('plan_reapprove.json'), config.defaults.sidebar.glyphs))
  local glyphs = config.defaults.sidebar.glyphs
  local draft = actions.status_lines(fixture('plan_draft.json'), glyphs)
  H.eq({ 'planls: Ship the CLI: not approved (:PlanlsApprove)' }, draft)
  H.eq({ 'planls: no plan file in this project' }, actions.status_lines(fixture('plan_nofile.json'), glyphs))
end)

H.test('item_at_line picks the bullet at or above the line', function()
  local plan = fixture('plan_mixed.json')
  local cases = { { 0, nil }, { 2, 8 }, { 6, 8 }, { 7, 1 }, { 9, 1 }, { 10, 2 }, { 22, 4 }, { 24, 6 }, { 400, 6 } }
  for _, c in ipairs(cases) do
    local item = actions.item_at_line(plan, c[1])
    H.eq(c[2], item and item.id, 'line ' .. c[1])
  end
end)

H.test('a subject is cut at its first line break; evidence keeps every line', function()
  local plan = {
    exists = true,
    approved = true,
    title = 'T',
    open = 0,
    total = 1,
    planUri = 'file:///p/PLAN.md',
    groups = {
      { name = '', items = { { id = 1, subject = 'first\r\nsecond', status = 'completed', evidence = 'a\r\nb\n' } } },
    },
  }
  local lines = render.render(plan, opts()).lines
  H.eq({ 'T', '0/1 open · PLAN.md', '', '  ✓ #1 first', '      evidence: a', '                b', '', '? help' }, lines)
end)

H.finish()
