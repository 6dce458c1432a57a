-- setup({settings = ...}) reaches the real server (docs/PROTOCOL.md
-- "Settings"): severity of open items, fadeClosed hints, planFiles globs.
local H = require('harness')
local compat = require('planls.compat')

local TIMEOUT = 15000

local function planls_diags(buf, code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'planls' and d.code == code then
      table.insert(out, d)
    end
  end
  return out
end

H.test('severity and fadeClosed apply to the diagnostics', function()
  local ws = H.workspace(H.test_dir .. '/fixtures/basic/PLAN.md')
  local rc, out = H.cli(ws, { 'approve' })
  H.eq(0, rc, out)
  rc, out = H.cli(ws, { 'todo', 'complete', '1', '--evidence', 'go test ./internal/ratelimit: ok' })
  H.eq(0, rc, out)
  require('planls').setup({ cmd = { H.bin(), 'serve' }, settings = { severity = 'warning', fadeClosed = true } })
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/PLAN.md'))
  local buf = vim.api.nvim_get_current_buf()
  H.wait(TIMEOUT, function()
    return #planls_diags(buf, 'open-item') == 6 and #planls_diags(buf, 'closed-item') == 1
  end, '6 open items and 1 faded closed item', function()
    return vim.inspect(vim.diagnostic.get(buf))
  end)
  for _, d in ipairs(planls_diags(buf, 'open-item')) do
    H.eq(vim.diagnostic.severity.WARN, d.severity, d.message)
  end
  local closed = planls_diags(buf, 'closed-item')[1]
  H.eq(vim.diagnostic.severity.HINT, closed.severity)
  H.eq(1, compat.lsp_diagnostic(closed).data.id)
end)

H.test('planFiles finds a plan outside PLAN.md', function()
  local ws = H.workspace(nil)
  vim.fn.mkdir(ws .. '/plans', 'p')
  H.write_file(ws .. '/plans/rollout.md', '# Roll out\n\n## Steps\n- Enable in staging\n- Enable in production\n')
  require('planls').setup({ cmd = { H.bin(), 'serve' }, settings = { planFiles = { 'plans/*.md' } } })
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/plans/rollout.md'))
  local buf = vim.api.nvim_get_current_buf()
  local client
  H.wait(TIMEOUT, function()
    client = compat.buf_clients(buf, 'planls')[1]
    return client ~= nil and client.initialized
  end, 'client attached')
  H.eq(ws, client.config.root_dir)
  H.wait(TIMEOUT, function()
    return #planls_diags(buf, 'plan-not-approved') == 1
  end, 'plan-not-approved on plans/rollout.md')
  local sidebar = require('planls.sidebar')
  vim.cmd('PlanlsSidebar')
  H.wait(TIMEOUT, function()
    return vim.tbl_contains(sidebar.lines(), 'not approved · rollout.md')
  end, 'sidebar of plans/rollout.md', function()
    return table.concat(sidebar.lines(), '\n')
  end)
  local _, restore_notify = H.capture_notify()
  vim.cmd('PlanlsApprove')
  local ok = vim.wait(TIMEOUT, function()
    return vim.tbl_contains(sidebar.lines(), '2/2 open · rollout.md')
  end, 20)
  restore_notify()
  H.ok(ok, table.concat(sidebar.lines(), '\n'))
  H.eq('plans/rollout.md', H.read_json(ws .. '/.planls/state.json').plan.path)
end)

H.finish()
