-- The plugin end to end against the real `planls serve`: setup attaches to
-- a temp copy of the example plan, :PlanlsApprove, the sidebar (golden),
-- `c` with a stubbed prompt, a blank answer, an external CLI change, the
-- jump, the commands and :checkhealth.
local H = require('harness')
local compat = require('planls.compat')

local ws = H.workspace(H.test_dir .. '/fixtures/basic/PLAN.md')
local plan_path = ws .. '/PLAN.md'
local state_path = ws .. '/.planls/state.json'
local TIMEOUT = 15000

require('planls').setup({ cmd = { H.bin(), 'serve' } })
local sidebar = require('planls.sidebar')

local plan_buf, client

local function diags(code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(plan_buf)) do
    if d.source == 'planls' and (code == nil or d.code == code) then
      table.insert(out, d)
    end
  end
  return out
end

-- Ids of the open-item diagnostics, sorted.
local function open_ids()
  local ids = {}
  for _, d in ipairs(diags('open-item')) do
    local data = compat.lsp_diagnostic(d).data
    table.insert(ids, type(data) == 'table' and data.id or -1)
  end
  table.sort(ids)
  return ids
end

local function describe_diags()
  return vim.inspect(vim.tbl_map(function(d)
    return { lnum = d.lnum, code = d.code, message = d.message }
  end, vim.diagnostic.get(plan_buf)))
end

local function describe_sidebar()
  return table.concat(sidebar.lines(), '\n')
end

-- Waits until n messages of seen (H.capture_notify's record) match the Lua
-- pattern. The server writes the state file, and the change shows, before
-- it answers the command: a test that waited for those waits for the
-- command's own message too before it gives vim.notify back, or the
-- message lands in a later test's record.
local function wait_told(seen, pattern, n)
  H.wait(TIMEOUT, function()
    local k = 0
    for _, m in ipairs(seen) do
      if m.msg:find(pattern) then
        k = k + 1
      end
    end
    return k >= (n or 1)
  end, 'a message matching ' .. pattern, function()
    return vim.inspect(seen)
  end)
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

local function sidebar_win()
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(w) == sidebar.buf() then
      return w
    end
  end
  error('sidebar is not open')
end

-- 1-based sidebar line of item `id`'s bullet.
local function item_line(id)
  for i, l in ipairs(sidebar.lines()) do
    if l:find('^  %S+ #' .. id .. ' ') then
      return i
    end
  end
  error('no sidebar line for #' .. id .. '\n' .. describe_sidebar())
end

local function goto_item(id)
  local w = sidebar_win()
  vim.api.nvim_set_current_win(w)
  local l = item_line(id)
  vim.api.nvim_win_set_cursor(w, { l, 0 })
  return l
end

local function has_line(s)
  return vim.tbl_contains(sidebar.lines(), s)
end

-- The sidebar reads and is highlighted as its plan rendered afresh: a redraw
-- that writes only the lines that changed leaves nothing stale.
local function drawn_as_rendered()
  local o = require('planls.config').options.sidebar
  local r = require('planls.render').render(sidebar.plan(), { glyphs = o.glyphs, keys = o.keys })
  H.eq(r.lines, sidebar.lines(), 'the sidebar lines')
  local ns = vim.api.nvim_create_namespace('planls_sidebar')
  local got = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(sidebar.buf(), ns, 0, -1, { details = true })) do
    table.insert(got, { line = m[2], col_start = m[3], col_end = m[4].end_col, group = m[4].hl_group })
  end
  H.eq(r.highlights, got, 'the sidebar highlights')
end

-- 0-based line of the first line of PLAN.md starting with `prefix`.
local function plan_line(prefix)
  for i, l in ipairs(vim.fn.readfile(plan_path)) do
    if l:sub(1, #prefix) == prefix then
      return i - 1
    end
  end
  error('PLAN.md has no line starting with ' .. prefix)
end

-- Cuts or pads s to exactly w display cells.
local function fit(s, w)
  local out, width = {}, 0
  for _, ch in ipairs(vim.fn.split(s, '\\zs')) do
    local cw = vim.fn.strdisplaywidth(ch)
    if width + cw > w then
      break
    end
    table.insert(out, ch)
    width = width + cw
  end
  return table.concat(out) .. string.rep(' ', w - width)
end

-- A text picture of the screen for the README: the sidebar beside PLAN.md,
-- diagnostics shown the way virtual text shows them.
local function capture()
  local left, right = sidebar.lines(), vim.fn.readfile(plan_path)
  local msgs = {}
  for _, d in ipairs(diags()) do
    msgs[d.lnum + 1] = d.message
  end
  local rows = math.max(#left, #right)
  local out = {}
  for i = 1, rows do
    local r = right[i] or '~'
    if msgs[i] then
      r = r .. '  ■ ' .. msgs[i]
    end
    table.insert(out, fit(left[i] or '', 44) .. '│' .. fit(r, 72))
  end
  table.insert(out, fit(' planls://sidebar', 44) .. '│' .. fit(' PLAN.md', 72))
  return table.concat(out, '\n') .. '\n'
end

H.test('setup attaches to the example plan', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(plan_path))
  plan_buf = vim.api.nvim_get_current_buf()
  H.eq('markdown', vim.bo[plan_buf].filetype)
  H.wait(TIMEOUT, function()
    client = compat.buf_clients(plan_buf, 'planls')[1]
    return client ~= nil and client.initialized
  end, 'a planls client attached and initialized')
  H.eq(ws, client.config.root_dir)
  H.wait(TIMEOUT, function()
    return #diags('plan-not-approved') == 1
  end, 'plan-not-approved diagnostic', describe_diags)
  -- A second markdown file of the project shares the client.
  local notes = ws .. '/NOTES.md'
  H.write_file(notes, '# notes\n')
  vim.cmd('split ' .. vim.fn.fnameescape(notes))
  local nb = vim.api.nvim_get_current_buf()
  H.wait(TIMEOUT, function()
    return compat.buf_clients(nb, 'planls')[1] ~= nil
  end, 'NOTES.md attached')
  H.eq(client.id, compat.buf_clients(nb, 'planls')[1].id)
  H.eq(1, #compat.clients('planls'))
  vim.cmd('close')
end)

H.test(':PlanlsApprove tracks the plan: one diagnostic per item', function()
  local seen, restore = H.capture_notify()
  vim.cmd('PlanlsApprove')
  local ok = vim.wait(TIMEOUT, function()
    return #diags('open-item') == 7
  end, 20)
  wait_told(seen, '^planls: Approved plan ')
  restore()
  H.ok(ok, 'want 7 open-item diagnostics, got ' .. describe_diags())
  H.eq({ 1, 2, 3, 4, 5, 6, 7 }, open_ids())
  H.eq(0, #diags('plan-not-approved'))
  local st = H.read_json(state_path)
  H.ok(st and st.plan, 'state.json has no approved plan')
  H.eq(7, #st.tasks)
end)

H.test('the first approval from Neovim sets up git merging of .planls/, as planls approve does', function()
  -- The set-up follows the commit, which the file watcher may show first.
  local attrs = ''
  H.wait(TIMEOUT, function()
    attrs = H.read_file(ws .. '/.gitattributes') or ''
    return attrs:find('.planls/state.json merge=planls', 1, true) ~= nil
      and attrs:find('.planls/journal.jsonl merge=planls', 1, true) ~= nil
  end, '.gitattributes routes .planls/ to the driver', function()
    return attrs
  end)
  local driver = ''
  H.wait(TIMEOUT, function()
    driver = vim.fn.system({ 'git', '-C', ws, 'config', 'merge.planls.driver' })
    return driver:find(' merge %O %A %B %P', 1, true) ~= nil
  end, 'merge.planls.driver registered', function()
    return driver
  end)
end)

H.test(':PlanlsSidebar shows the plan (golden)', function()
  vim.cmd('PlanlsSidebar')
  H.ok(sidebar.is_open(), 'sidebar not open')
  H.eq(sidebar.buf(), vim.api.nvim_get_current_buf(), 'the sidebar has focus')
  H.wait(TIMEOUT, function()
    return has_line('7/7 open · PLAN.md')
  end, 'sidebar shows 7/7 open', describe_sidebar)
  H.golden('sidebar_basic.txt', sidebar.lines())
  local ns = vim.api.nvim_create_namespace('planls_sidebar')
  local marks = vim.api.nvim_buf_get_extmarks(sidebar.buf(), ns, 0, -1, {})
  H.ok(#marks > 10, 'sidebar has ' .. #marks .. ' highlights')
  local at = { item_line(1) - 1, 2 }
  local glyph = vim.api.nvim_buf_get_extmarks(sidebar.buf(), ns, at, at, { details = true })
  H.eq('PlanlsPending', glyph[1] and glyph[1][4].hl_group, 'glyph highlight of #1')
  H.eq('planls', vim.bo[sidebar.buf()].filetype)
  H.eq(false, vim.bo[sidebar.buf()].modifiable)
end)

H.test('c completes the item under the cursor with the typed evidence', function()
  goto_item(1)
  local seen, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'go test ./internal/ratelimit -run Bucket: ok' })
  vim.api.nvim_feedkeys('c', 'x', false)
  local ok = vim.wait(TIMEOUT, function()
    return has_line('6/7 open · PLAN.md')
  end, 20)
  wait_told(seen, '^planls: Updated #1 ')
  restore()
  restore_notify()
  H.ok(ok, 'sidebar did not update:\n' .. describe_sidebar())
  H.eq({ 'Evidence for #1: ' }, prompts)
  local l = item_line(1)
  H.ok(sidebar.lines()[l]:find('✓ #1 ', 1, true), sidebar.lines()[l])
  H.eq('      evidence: go test ./internal/ratelimit -run Bucket: ok', sidebar.lines()[l + 1])
  H.eq(l, vim.api.nvim_win_get_cursor(sidebar_win())[1], 'cursor stays on #1')
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 2, 3, 4, 5, 6, 7 }, open_ids())
  end, 'diagnostic of #1 gone', describe_diags)
  local t = task(1)
  H.eq('completed', t.status)
  H.eq('go test ./internal/ratelimit -run Bucket: ok', t.evidence)
end)

H.test('an empty or cancelled answer changes nothing', function()
  local before = H.read_file(state_path)
  for _, case in ipairs({ { 'd', '' }, { 'c', '  ' }, { 'd', false } }) do
    goto_item(2)
    local seen, restore_notify = H.capture_notify()
    local answer = case[2] ~= false and case[2] or nil
    local prompts, restore = H.stub_input({ answer })
    vim.api.nvim_feedkeys(case[1], 'x', false)
    restore()
    restore_notify()
    H.eq(1, #prompts, 'prompted once for ' .. case[1])
    H.eq('planls: cancelled, nothing changed', seen[1] and seen[1].msg)
  end
  -- Barrier: the server answers requests in order, so a plan fetched now
  -- reflects anything sent before it.
  local res = vim.lsp.buf_request_sync(plan_buf, 'planls/plan', { uri = vim.uri_from_fname(ws) }, TIMEOUT)
  H.eq(6, res[client.id].result.open)
  H.eq(before, H.read_file(state_path), 'state.json changed')
  H.eq({ 2, 3, 4, 5, 6, 7 }, open_ids())
  H.ok(has_line('6/7 open · PLAN.md'), describe_sidebar())
end)

H.test('an external CLI change refreshes the sidebar, cursor kept on its item', function()
  -- The verification of #1's evidence (completed above) has landed: the
  -- line count below is then only this change's.
  H.wait(TIMEOUT, function()
    local p = sidebar.plan()
    return p ~= nil and p.pending == false
  end, 'the sidebar settled', describe_sidebar)
  local before = goto_item(5)
  local rc, out = H.cli(ws, { 'todo', 'complete', '2', '--evidence', 'wired in handlers.go, curl shows 429' })
  H.eq(0, rc, 'planls todo complete: ' .. out)
  -- The change shows first; the verification of the new evidence follows
  -- from the server's background refresh, with another planls/stateChanged.
  H.wait(TIMEOUT, function()
    return has_line('5/7 open · PLAN.md') and has_line('      verify: failed: file handlers.go does not exist')
  end, 'sidebar refreshed by planls/stateChanged', describe_sidebar)
  -- #2 gained an evidence and a verify line above #5; the cursor moved
  -- down with #5.
  H.eq(before + 2, item_line(5))
  H.eq(item_line(5), vim.api.nvim_win_get_cursor(sidebar_win())[1])
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 3, 4, 5, 6, 7 }, open_ids())
  end, 'diagnostics follow the CLI', describe_diags)
  -- The failed verification of #2 is a diagnostic too, which may arrive
  -- after the sidebar's plan: the screen below is the settled one.
  H.settled(TIMEOUT, client, plan_buf, vim.uri_from_fname(ws))
  H.eq(1, #diags('evidence-failed'), describe_diags())
  H.golden('sidebar_after_cli.txt', sidebar.lines())
  drawn_as_rendered()
  if os.getenv('PLANLS_CAPTURE') then
    H.write_file(os.getenv('PLANLS_CAPTURE'), capture())
  end
  -- Both READMEs show this screen: they must show it as it is now
  -- (PLANLS_UPDATE_GOLDEN=1 rewrites them).
  local screen = capture():gsub(' +\n', '\n')
  local repo = os.getenv('PLANLS_REPO')
  for _, doc in ipairs({
    {
      path = repo .. '/editors/nvim/README.md',
      open = '<!%-%- capture:begin %-%->\n```\n',
      close = '```\n<!%-%- capture:end %-%->',
    },
    { path = repo .. '/README.md', open = 'Neovim end%-to%-end test:\n\n````text\n', close = '````\n' },
  }) do
    local text = assert(H.read_file(doc.path), doc.path)
    local a, b = text:find(doc.open)
    local c = b and text:find(doc.close, b + 1)
    H.ok(a and c, doc.path .. ': no capture block')
    if os.getenv('PLANLS_UPDATE_GOLDEN') == '1' then
      H.write_file(doc.path, text:sub(1, b) .. screen .. text:sub(c))
    else
      H.eq(screen, text:sub(b + 1, c - 1), doc.path .. ': the capture is stale (PLANLS_UPDATE_GOLDEN=1 rewrites it)')
    end
  end
end)

H.test('s starts, d defers, r reopens', function()
  local seen, restore_notify = H.capture_notify()
  local shown, restore_shown = H.capture_shown()
  local prompts, restore = H.stub_input({ 'waiting on the config review' })
  local steps = 0
  local function step(key, glyph, want_open)
    goto_item(3)
    vim.api.nvim_feedkeys(key, 'x', false)
    local ok = vim.wait(TIMEOUT, function()
      return sidebar.lines()[item_line(3)]:find(glyph .. ' #3 ', 1, true) ~= nil and has_line(want_open)
    end, 20)
    H.ok(ok, key .. ': ' .. describe_sidebar())
    steps = steps + 1
    wait_told(seen, '^planls: %a+ #3 ', steps)
    H.eq(item_line(3), vim.api.nvim_win_get_cursor(sidebar_win())[1], 'cursor stays on #3 after ' .. key)
  end
  step('s', '◐', '5/7 open · PLAN.md')
  H.eq('in_progress', task(3).status)
  step('d', '↷', '4/7 open · PLAN.md')
  H.eq('deferred', task(3).status)
  H.eq('waiting on the config review', task(3).reason)
  H.eq('      reason: waiting on the config review', sidebar.lines()[item_line(3) + 1])
  step('r', '○', '5/7 open · PLAN.md')
  H.eq('pending', task(3).status)
  step('s', '◐', '5/7 open · PLAN.md')
  restore()
  restore_notify()
  restore_shown()
  H.eq({ 'Reason to defer #3: ' }, prompts)
  -- The person reads the reason, not the agent's "Tell the user ...", in
  -- one message naming the item as they read it: no markdown, no "-- ".
  local told = {}
  for _, n in ipairs(seen) do
    table.insert(told, n.msg)
  end
  vim.list_extend(told, shown)
  local about = vim.tbl_filter(function(m)
    return m:find('→ deferred', 1, true) or m:find('[Dd]eferred[:]? #')
  end, told)
  H.eq({ 'planls: Deferred #3 Read limits from config.yaml, reason: waiting on the config review' }, about,
    vim.inspect(told))
  H.ok(not table.concat(told, '\n'):find('Tell the user', 1, true), vim.inspect(told))
  H.wait(TIMEOUT, function()
    local ip = diags('in-progress')
    return #ip == 1 and compat.lsp_diagnostic(ip[1]).data.id == 3 and vim.deep_equal({ 4, 5, 6, 7 }, open_ids())
  end, 'diagnostics after start/defer/reopen', describe_diags)
end)

H.test('r on a completed item asks why and reopens it; the journal keeps who, why and the evidence', function()
  local seen, restore_notify = H.capture_notify()
  local rc, out = H.cli(ws, { 'todo', 'complete', '4', '--evidence', 'curl shows the counter' })
  H.eq(0, rc, 'planls todo complete: ' .. out)
  H.wait(TIMEOUT, function()
    return sidebar.lines()[item_line(4)]:find('✓ #4 ', 1, true) ~= nil
  end, '#4 completed in the sidebar', describe_sidebar)
  local prompts, restore = H.stub_input({ 'the counter is never exported' })
  goto_item(4)
  vim.api.nvim_feedkeys('r', 'x', false)
  H.wait(TIMEOUT, function()
    local t = task(4)
    return t and t.status == 'pending'
  end, '#4 reopened', describe_sidebar)
  wait_told(seen, '^planls: Reopened #4 ')
  restore()
  restore_notify()
  H.eq({ 'Reason to reopen #4 (why it is not done): ' }, prompts)
  -- The journal line follows the state file's rename: wait for it.
  local last
  H.wait(TIMEOUT, function()
    local lines = vim.fn.readfile(ws .. '/.planls/journal.jsonl')
    last = vim.json.decode(lines[#lines])
    return last.kind == 'reopen'
  end, 'the reopen journaled', function()
    return vim.inspect(last)
  end)
  H.eq('the counter is never exported', last.params.reason)
  H.eq('curl shows the counter', last.params.evidence)
  H.eq('completed', last.params.from)
  H.wait(TIMEOUT, function()
    return sidebar.lines()[item_line(4)]:find('○ #4 ', 1, true) ~= nil
  end, '#4 open in the sidebar', describe_sidebar)
end)

H.test('<CR> jumps to the item in PLAN.md, keeping unsaved changes', function()
  local count = vim.api.nvim_buf_line_count(plan_buf)
  vim.api.nvim_buf_set_lines(plan_buf, count, count, false, { '' })
  local diag_count = #diags()
  goto_item(4)
  vim.api.nvim_feedkeys('\r', 'x', false)
  H.eq(plan_buf, vim.api.nvim_get_current_buf())
  local want = plan_line('- Export ')
  H.eq({ want + 1, 0 }, vim.api.nvim_win_get_cursor(0))
  H.ok(sidebar.is_open(), 'the sidebar stays open')
  H.eq(true, vim.bo[plan_buf].modified, 'the unsaved change was dropped')
  H.eq(count + 1, vim.api.nvim_buf_line_count(plan_buf))
  H.eq(diag_count, #diags(), 'diagnostics lost on jump')
  vim.cmd('undo')
  H.eq(false, vim.bo[plan_buf].modified)
end)

H.test(':PlanlsDefer at the cursor in PLAN.md and :PlanlsComplete N', function()
  vim.api.nvim_set_current_buf(plan_buf)
  vim.api.nvim_win_set_cursor(0, { plan_line('- Unit tests for the bucket') + 1, 4 })
  local seen, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'covered by the load test', 'go test ./... -race: ok' })
  vim.cmd('PlanlsDefer')
  H.wait(TIMEOUT, function()
    local t = task(5)
    return t and t.status == 'deferred'
  end, '#5 deferred')
  vim.cmd('PlanlsComplete 6')
  H.wait(TIMEOUT, function()
    local t = task(6)
    return t and t.status == 'completed'
  end, '#6 completed')
  wait_told(seen, '^planls: Deferred #5 Unit tests for the bucket: refill, burst, clock going backwards, reason: ')
  wait_told(seen, '^planls: Updated #6 ')
  restore()
  restore_notify()
  H.eq({ 'Reason to defer #5: ', 'Evidence for #6: ' }, prompts)
  H.eq('covered by the load test', task(5).reason)
  H.eq('go test ./... -race: ok', task(6).evidence)
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 4, 7 }, open_ids())
  end, 'diagnostics after defer/complete', describe_diags)
  H.wait(TIMEOUT, function()
    return has_line('3/7 open · PLAN.md')
  end, 'sidebar after defer/complete', describe_sidebar)
end)

H.test('a bad id is reported once the command returned, without prompting', function()
  for _, arg in ipairs({ 'abc', '-3', '0', '1.5', '1e400' }) do
    local prompts, restore = H.stub_input({ 'x' })
    -- With Neovim's own vim.notify: an error message given while vim.cmd
    -- runs the command would make it raise.
    local ok, err = pcall(vim.cmd, 'PlanlsComplete ' .. arg)
    local seen, restore_notify = H.capture_notify()
    local got = vim.wait(TIMEOUT, function()
      return #seen > 0
    end, 20)
    -- Callbacks run in the order they were scheduled: once this one ran, a
    -- second message scheduled with the first would have been given too.
    local drained = false
    vim.schedule(function()
      drained = true
    end)
    vim.wait(TIMEOUT, function()
      return drained
    end, 20)
    restore()
    restore_notify()
    H.ok(ok, arg .. ': vim.cmd raised: ' .. tostring(err))
    H.ok(got, arg .. ': no message')
    H.eq({}, prompts, arg)
    local want = 'planls: the item id must be a positive number, got ' .. arg
    H.eq({ { msg = want, level = vim.log.levels.ERROR } }, seen, arg)
  end
end)

H.test(':PlanlsStatus summarises the plan', function()
  vim.api.nvim_set_current_buf(plan_buf)
  local seen, restore_notify = H.capture_notify()
  vim.cmd('PlanlsStatus')
  local ok = vim.wait(TIMEOUT, function()
    return #seen > 0
  end, 20)
  restore_notify()
  H.ok(ok, 'no status message')
  H.eq(table.concat({
    'planls: Add per-client rate limiting to the ingest API: 3/7 open',
    '  ◐ #3 Read limits from config.yaml:',
    '  ○ #4 Export ingest_ratelimit_decisions_total{decision="allow|deny"}',
    "  ○ #7 Load test: 2 keys at 10x their rate; the quiet key's p99 latency stays under 20 ms",
  }, '\n'), seen[1].msg)
end)

H.test(':PlanlsReport opens the HTML report in the browser; :PlanlsReport markdown in a buffer', function()
  vim.api.nvim_set_current_buf(plan_buf)
  local win = vim.api.nvim_get_current_win()
  -- $BROWSER is what planls opens the page with: a script that records it.
  local opened = vim.fn.tempname()
  local browser = vim.fn.tempname()
  H.write_file(browser, '#!/bin/sh\necho "$1" > ' .. vim.fn.shellescape(opened) .. '\n')
  vim.fn.setfperm(browser, 'rwx------')
  local saved = vim.env.BROWSER
  vim.env.BROWSER = browser
  local seen, restore_notify = H.capture_notify()
  vim.cmd('PlanlsReport')
  local ok = vim.wait(TIMEOUT, function()
    return #seen > 0 and (H.read_file(opened) or '') ~= ''
  end, 20)
  restore_notify()
  vim.env.BROWSER = saved
  H.ok(ok, 'the browser was not opened: ' .. vim.inspect(seen))
  local page = vim.trim(H.read_file(opened))
  H.eq(ws .. '/.planls/report.html', page)
  local wrote = '^planls: Wrote %.planls/report%.html %(7 plan items, %d+ KB%), opened in the browser$'
  H.ok(seen[1].msg:find(wrote), seen[1].msg)
  local html = H.read_file(page)
  H.ok(html:find('<h1>Add per-client rate limiting to the ingest API</h1>', 1, true), 'no title in the page')

  local res
  require('planls.report').open('markdown', function(r)
    res = r
  end)
  H.ok(vim.wait(TIMEOUT, function()
    return res ~= nil
  end, 20), 'no markdown report')
  H.eq(0, res.code)
  local lines = vim.api.nvim_buf_get_lines(res.buf, 0, -1, false)
  H.eq('## Plan report: Add per-client rate limiting to the ingest API', lines[1])
  H.ok(table.concat(lines, '\n'):find('\n%*%*%d of 7 done%*%*'), table.concat(lines, '\n'))
  H.eq('markdown', vim.bo[res.buf].filetype)
  H.eq(res.buf, vim.api.nvim_get_current_buf())
  vim.api.nvim_win_close(0, true)
  vim.api.nvim_set_current_win(win)
end)

H.test('code action Complete #7… goes through the prompt (vim.lsp.buf.code_action)', function()
  vim.api.nvim_set_current_buf(plan_buf)
  vim.api.nvim_win_set_cursor(0, { plan_line('- Load test') + 1, 2 })
  local titles = {}
  local orig_select = vim.ui.select
  -- Picks "Complete #7…" from the menu; items are {client_id, action} on
  -- 0.7-0.9 and {action = ..., ctx = ...} from 0.10.
  vim.ui.select = function(items, _, on_choice)
    local pick
    for i, it in ipairs(items) do
      local action = it.action or it[2]
      table.insert(titles, action.title)
      if action.title == 'Complete #7…' then
        pick = i
      end
    end
    on_choice(pick and items[pick], pick)
  end
  local seen, restore_notify = H.capture_notify()
  local prompts, restore = H.stub_input({ 'k6 run load.js: quiet key p99 12 ms' })
  vim.lsp.buf.code_action()
  local ok = vim.wait(TIMEOUT, function()
    local t = task(7)
    return t and t.status == 'completed'
  end, 20)
  if ok then
    wait_told(seen, '^planls: Updated #7 ')
  end
  vim.ui.select = orig_select
  restore()
  restore_notify()
  H.ok(ok, 'code action did not complete #7; menu: ' .. vim.inspect(titles))
  -- Another item's evidence is never offered (it proves that item), and
  -- the workspace has no commit that changes more than the plan.
  H.eq({ 'Complete #7…', 'Defer #7…', 'Start #7' }, titles)
  H.eq({ 'Evidence for #7: ' }, prompts)
  H.eq('k6 run load.js: quiet key p99 12 ms', task(7).evidence)
  H.wait(TIMEOUT, function()
    return vim.deep_equal({ 4 }, open_ids())
  end, 'diagnostic of #7 gone', describe_diags)
end)

H.test('a markdown file outside any project gets no client', function()
  local dir = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(dir, 'p')
  local before = #compat.clients('planls')
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/loose.md'))
  H.eq('markdown', vim.bo.filetype)
  -- Attaching happens inside the FileType autocmd, so this is already final.
  H.eq({}, compat.buf_clients(vim.api.nvim_get_current_buf(), 'planls'))
  H.eq(before, #compat.clients('planls'))
  vim.cmd('buffer ' .. plan_buf)
end)

H.test(':checkhealth planls reports binary, client and state file', function()
  vim.cmd('checkhealth planls')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  local version = vim.trim(vim.fn.system({ H.bin(), 'version' }))
  H.ok(version ~= '', 'planls version printed nothing')
  H.ok(text:find('binary found: ' .. H.bin() .. ' (' .. version .. ')', 1, true), text)
  H.ok(text:find('server attached: client ' .. client.id .. ', root ' .. ws, 1, true), text)
  H.ok(text:find('state file ' .. state_path .. ' readable (revision', 1, true), text)
  H.ok(not text:find('ERROR', 1, true), text)
  vim.cmd('tabclose')
end)

H.test(':PlanlsSidebar toggles it closed', function()
  H.ok(sidebar.is_open(), 'open before')
  vim.cmd('PlanlsSidebar')
  H.ok(not sidebar.is_open(), 'still open')
  vim.cmd('PlanlsSidebar')
  H.ok(sidebar.is_open(), 'not reopened')
  H.wait(TIMEOUT, function()
    return has_line('2/7 open · PLAN.md')
  end, 'reopened sidebar', describe_sidebar)
end)

H.test('unsaved edits to PLAN.md show in the sidebar (drift), undo takes them back', function()
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  local at = plan_line('- Load test') + 1
  vim.api.nvim_buf_set_lines(plan_buf, at, at, false, { '- Document the limits in README' })
  local function new_line()
    for _, l in ipairs(sidebar.lines()) do
      if l:find('Document the limits in README [new]', 1, true) then
        return l
      end
    end
  end
  H.wait(TIMEOUT, function()
    return new_line() ~= nil and has_line('the plan changed since approval')
  end, 'the new bullet in the sidebar', describe_sidebar)
  H.eq('  · Document the limits in README [new]', new_line())
  vim.cmd('undo')
  H.wait(TIMEOUT, function()
    return new_line() == nil and not has_line('the plan changed since approval')
  end, 'the sidebar after undo', describe_sidebar)
  H.eq(false, vim.bo[plan_buf].modified)
end)

H.test('typing in PLAN.md: one planls/plan once the keystrokes pause, showing the last one', function()
  local config = require('planls.config')
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  local at = plan_line('- Load test')
  -- Every keystroke below changes #7's subject, so the server sends
  -- planls/stateChanged for each; the next key goes once that arrived.
  -- A debounce far longer than those gaps, even on a busy machine.
  local debounce = config.options.sidebar.debounce
  config.options.sidebar.debounce = 3000
  local changed, listening = 0, true
  require('planls.client').on_state_changed(function()
    if listening then
      changed = changed + 1
    end
  end)
  local ok, err = pcall(function()
    local asked = sidebar.asked
    for k = 1, 5 do
      local before = changed
      local text = vim.api.nvim_buf_get_lines(plan_buf, at, at + 1, false)[1]
      vim.api.nvim_buf_set_text(plan_buf, at, #text, at, #text, { tostring(k) })
      H.wait(TIMEOUT, function()
        return changed > before
      end, 'planls/stateChanged for keystroke ' .. k)
      H.eq(asked, sidebar.asked, 'the sidebar asked planls/plan while keys came')
      H.ok(sidebar.refresh_due(), 'no refresh due after keystroke ' .. k)
    end
    -- The refresh after the pause is not dropped: it shows the last key.
    H.wait(TIMEOUT, function()
      for _, l in ipairs(sidebar.lines()) do
        if l:find('stays under 20 ms12345', 1, true) then
          return true
        end
      end
    end, 'the sidebar with the last keystroke', describe_sidebar)
    drawn_as_rendered()
    H.eq(asked + 1, sidebar.asked, 'planls/plan requests for five keystrokes')
    H.ok(not sidebar.refresh_due(), 'a refresh still due')
  end)
  listening = false
  config.options.sidebar.debounce = debounce
  vim.cmd('silent edit!')
  H.wait(TIMEOUT, function()
    return not has_line('the plan changed since approval')
  end, 'the sidebar after the edits were dropped', describe_sidebar)
  if not ok then
    error(err, 0)
  end
end)

H.test('planls/stateChanged of a revision the sidebar shows, or is about to, asks nothing', function()
  local config, clientmod = require('planls.config'), require('planls.client')
  H.wait(TIMEOUT, function()
    local p = sidebar.plan()
    return p ~= nil and p.pending == false and not sidebar.refresh_due()
  end, 'the sidebar settled', describe_sidebar)
  local shown = sidebar.plan()
  H.eq('number', type(shown.revision), 'planls/plan revision')
  local function notify(revision)
    clientmod.state_changed_handler(nil, { root = shown.root, revision = revision }, { client_id = client.id })
  end
  local debounce = config.options.sidebar.debounce
  config.options.sidebar.debounce = 3000
  local last, listening = nil, true
  clientmod.on_state_changed(function(_, params)
    if listening then
      last = params.revision
    end
  end)
  local ok, err = pcall(function()
    local asked = sidebar.asked
    notify(shown.revision)
    H.ok(not sidebar.refresh_due(), 'a refresh due for the revision shown')
    notify(shown.revision + 1000)
    H.ok(sidebar.refresh_due(), 'no refresh due for a later revision')
    -- An edit: its notification makes a refresh due; one asked at once
    -- answers with that revision, so the same notification handled while
    -- it was on its way leaves nothing due.
    vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
    local at = plan_line('- Load test')
    local text = vim.api.nvim_buf_get_lines(plan_buf, at, at + 1, false)[1]
    vim.api.nvim_buf_set_text(plan_buf, at, #text, at, #text, { '!' })
    H.wait(TIMEOUT, function()
      return last ~= nil and last > shown.revision
    end, 'planls/stateChanged for the edit')
    H.ok(sidebar.refresh_due(), 'no refresh due after the edit')
    local draws = sidebar.draws
    sidebar.refresh()
    notify(last)
    H.ok(sidebar.refresh_due(), 'no refresh due while the answer is on its way')
    H.wait(TIMEOUT, function()
      return sidebar.draws > draws
    end, 'the answer', describe_sidebar)
    H.eq(last, sidebar.plan().revision, 'the revision answered')
    H.ok(not sidebar.refresh_due(), 'a refresh still due after the answer that shows it')
    H.eq(asked + 1, sidebar.asked, 'planls/plan requests')
  end)
  listening = false
  config.options.sidebar.debounce = debounce
  vim.cmd('silent edit!')
  H.wait(TIMEOUT, function()
    return not has_line('the plan changed since approval') and not sidebar.refresh_due()
  end, 'the sidebar after the edit was dropped', describe_sidebar)
  if not ok then
    error(err, 0)
  end
end)

H.test('R after the server stopped starts a new one for the sidebar', function()
  local old = client.id
  vim.lsp.stop_client(old)
  -- stop_client marks the client stopped at once; Neovim 0.12 keeps it
  -- attached to the plan buffer until the server exits (~230 ms). A
  -- stopping client must never be picked for a request.
  -- Before 0.11 is_stopped() turns true only once the server exited, and
  -- the client leaves the buffer at the same time.
  if compat.is_stopped(client) then
    local ids = vim.tbl_map(function(c)
      return c.id
    end, compat.buf_clients(plan_buf, 'planls'))
    H.eq({}, ids, 'a stopping client still counts as attached')
  end
  H.wait(TIMEOUT, function()
    return #compat.clients('planls') == 0
  end, 'client stopped')
  vim.api.nvim_set_current_win(sidebar_win())
  sidebar.refresh()
  local draws = sidebar.draws
  vim.api.nvim_feedkeys('R', 'x', false)
  H.wait(TIMEOUT, function()
    local c = compat.clients('planls')[1]
    return c and c.id ~= old and sidebar.draws > draws and has_line('2/7 open · PLAN.md')
  end, 'sidebar served by a new client', describe_sidebar)
  H.eq(ws, compat.clients('planls')[1].config.root_dir)
end)

H.test('? toggles the key help, q closes the sidebar', function()
  vim.api.nvim_set_current_win(sidebar_win())
  H.ok(has_line('? help'), describe_sidebar())
  vim.api.nvim_feedkeys('?', 'x', false)
  H.ok(has_line('c      complete (asks for evidence)'), describe_sidebar())
  H.ok(not has_line('? help'), describe_sidebar())
  vim.api.nvim_feedkeys('?', 'x', false)
  H.ok(has_line('? help'), describe_sidebar())
  vim.api.nvim_feedkeys('q', 'x', false)
  H.ok(not sidebar.is_open(), 'q did not close the sidebar')
  vim.cmd('PlanlsSidebar')
  H.ok(sidebar.is_open(), 'sidebar did not reopen')
end)

-- Waits until the server answered everything sent before: it answers
-- requests in order, and Neovim runs the callbacks in the order the
-- messages came, so a message due to an earlier request has been shown by
-- then. workspace/executeCommand is the exception (answered when the
-- command is done): run_command waits for the command's own message first.
local function barrier()
  local c = require('planls.client').for_root(ws)
  H.ok(c, 'no planls client for ' .. ws)
  local done = false
  compat.request(c, 'planls/plan', { uri = vim.uri_from_fname(ws) }, function()
    done = true
  end)
  H.wait(TIMEOUT, function()
    return done
  end, 'planls/plan barrier')
end

-- Runs the user command `cmd` with vim.ui.input recorded; returns every
-- message it gave and every prompt it opened. Fails when the command
-- raised. Neovim's own vim.notify stays in place while vim.cmd runs: an
-- error message given there would make vim.cmd raise (and print "Error
-- detected while processing"); the messages come later and are recorded.
local function run_command(cmd)
  local prompts, restore = H.stub_input({ 'done' })
  local ok, err = pcall(vim.cmd, cmd)
  local seen, restore_notify = H.capture_notify()
  -- The command's own message, not a server's window/showMessage that
  -- Neovim 0.12 hands to vim.notify first ("LSP[planls] ...").
  local got = ok and vim.wait(TIMEOUT, function()
    for _, m in ipairs(seen) do
      if not m.msg:find('^LSP%[') then
        return true
      end
    end
    return false
  end, 20)
  if got then
    barrier()
  end
  restore()
  restore_notify()
  H.ok(ok, cmd .. ' raised: ' .. tostring(err))
  H.ok(got, cmd .. ' gave no message')
  return seen, prompts
end

H.test('a missing id is reported once, before any prompt, nothing changes', function()
  local before = H.read_file(state_path)
  local want = { { msg = 'planls: #99 not found', level = vim.log.levels.ERROR } }
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  for _, cmd in ipairs({ 'PlanlsComplete 99', 'PlanlsDefer 99', 'PlanlsStart 99', 'PlanlsReopen 99' }) do
    local seen, prompts = run_command(cmd)
    H.eq(want, seen, cmd .. ' in PLAN.md')
    H.eq({}, prompts, cmd .. ' in PLAN.md prompted')
  end
  -- In the sidebar the id is checked against the plan it shows.
  vim.api.nvim_set_current_win(sidebar_win())
  for _, cmd in ipairs({ 'PlanlsComplete 99', 'PlanlsDefer 99' }) do
    local seen, prompts = run_command(cmd)
    H.eq(want, seen, cmd .. ' in the sidebar')
    H.eq({}, prompts, cmd .. ' in the sidebar prompted')
  end
  H.eq(before, H.read_file(state_path), 'state.json changed')
end)

H.test('an item gone after the check is reported once (the server shows it)', function()
  local before = H.read_file(state_path)
  local seen, restore_notify = H.capture_notify()
  local answered, got_err = false, nil
  local c = require('planls.client').for_root(ws)
  local actions = require('planls.actions')
  actions.execute(c, 'planls.complete', { id = 99, evidence = 'x', uri = vim.uri_from_fname(ws) }, function(err)
    answered, got_err = true, err
  end)
  local ok = vim.wait(TIMEOUT, function()
    return answered
  end, 20)
  if ok then
    barrier()
  end
  restore_notify()
  H.ok(ok, 'no answer')
  H.ok(got_err, 'want an error')
  local msg = 'plan item #99 is gone: the plan or the state changed since this action was offered; nothing was done'
  H.eq(msg, got_err.message)
  H.eq({ { msg = 'LSP[planls] ' .. msg, level = vim.log.levels.ERROR } }, seen)
  H.eq(before, H.read_file(state_path))
end)

H.test('A re-approves a saved, changed plan', function()
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  local at = plan_line('- Load test') + 1
  vim.api.nvim_buf_set_lines(plan_buf, at, at, false, { '- Document the limits in README' })
  vim.cmd('write')
  H.wait(TIMEOUT, function()
    return has_line('the plan changed since approval')
  end, 'the sidebar sees the change', describe_sidebar)
  vim.api.nvim_set_current_win(sidebar_win())
  local seen, restore_notify = H.capture_notify()
  vim.api.nvim_feedkeys('A', 'x', false)
  local ok = vim.wait(TIMEOUT, function()
    return not has_line('the plan changed since approval') and has_line('3/8 open · PLAN.md')
  end, 20)
  if ok then
    wait_told(seen, '^planls: Approved plan ')
  end
  restore_notify()
  H.ok(ok, 're-approval: ' .. describe_sidebar())
  local new
  for _, l in ipairs(sidebar.lines()) do
    if l:find('Document the limits in README', 1, true) then
      new = l
    end
  end
  H.ok(new and new:find('^  ○ #%d+ Document the limits in README$'), tostring(new))
  H.eq(8, #H.read_json(state_path).tasks)
end)

H.test('two projects: one client each; the sidebar follows its own', function()
  local ws2 = H.workspace(nil)
  H.write_file(ws2 .. '/PLAN.md', '# Ship the CLI\n\n## Build\n- compile\n- test\n')
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  vim.cmd('split ' .. vim.fn.fnameescape(ws2 .. '/PLAN.md'))
  local buf2 = vim.api.nvim_get_current_buf()
  local c2
  H.wait(TIMEOUT, function()
    c2 = compat.buf_clients(buf2, 'planls')[1]
    return c2 ~= nil and c2.initialized
  end, 'a client for the second project')
  H.eq(ws2, c2.config.root_dir)
  H.eq(2, #compat.clients('planls'))
  local lines, draws = sidebar.lines(), sidebar.draws
  local rc, out = H.cli(ws2, { 'approve' })
  H.eq(0, rc, out)
  H.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(buf2)) do
      if d.code == 'open-item' then
        return true
      end
    end
  end, 'diagnostics in the second project')
  -- Barrier: the answer comes after the stateChanged sent with the change.
  local res = vim.lsp.buf_request_sync(buf2, 'planls/plan', { uri = vim.uri_from_fname(ws2) }, TIMEOUT)
  H.eq(2, res[c2.id].result.open)
  H.eq(lines, sidebar.lines())
  H.eq(draws, sidebar.draws, 'the sidebar redrew for another project')
  H.ok(not sidebar.refresh_due(), 'a refresh is due for another project')
  -- Reopened from the second project's buffer, it shows that project.
  vim.cmd('PlanlsSidebar')
  H.ok(not sidebar.is_open(), 'sidebar still open')
  vim.api.nvim_set_current_buf(buf2)
  vim.cmd('PlanlsSidebar')
  H.wait(TIMEOUT, function()
    return sidebar.lines()[1] == 'Ship the CLI' and has_line('2/2 open · PLAN.md')
  end, 'sidebar of the second project', describe_sidebar)
end)

H.test('a task the todo tool created is not in the plan, yet the commands take it', function()
  local rc, out = H.cli(ws, { 'todo', 'create', 'Write the runbook' })
  H.eq(0, rc, out)
  local id = tonumber(out:match('^Created #(%d+):'))
  H.ok(id, out)
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  local seen, prompts = run_command('PlanlsStart ' .. id)
  H.eq({}, prompts)
  H.eq({ { msg = 'planls: Updated #' .. id .. ' (pending → in_progress)', level = vim.log.levels.INFO } }, seen)
  H.eq('in_progress', task(id).status)
  seen, prompts = run_command('PlanlsComplete ' .. id)
  H.eq({ 'Evidence for #' .. id .. ': ' }, prompts)
  -- "done" is weak evidence: the server warns with window/showMessage, which
  -- Neovim 0.12 hands to vim.notify (0.7 and 0.10 here do not).
  seen = vim.tbl_filter(function(m)
    return not m.msg:find('^LSP%[planls%] weak%-evidence: #' .. id .. ' ')
  end, seen)
  H.eq({ { msg = 'planls: Updated #' .. id .. ' (in_progress → completed)', level = vim.log.levels.INFO } }, seen)
  H.eq('done', task(id).evidence)
end)

H.test('a deleted task is refused before any prompt, nothing changes', function()
  local rc, out = H.cli(ws, { 'todo', 'create', 'Scratch task' })
  H.eq(0, rc, out)
  local id = tonumber(out:match('^Created #(%d+):'))
  H.ok(id, out)
  rc, out = H.cli(ws, { 'todo', 'delete', tostring(id) })
  H.eq(0, rc, out)
  local before = H.read_file(state_path)
  vim.api.nvim_set_current_win(vim.fn.win_findbuf(plan_buf)[1])
  for _, verb in ipairs({ 'Complete', 'Defer', 'Start', 'Reopen' }) do
    local seen, prompts = run_command('Planls' .. verb .. ' ' .. id)
    H.eq({}, prompts, verb)
    H.eq({ { msg = 'planls: #' .. id .. ' is deleted', level = vim.log.levels.ERROR } }, seen, verb)
  end
  H.eq(before, H.read_file(state_path), 'state.json changed')
end)

H.finish()
