-- Evidence end to end against the real `planls serve`: weak evidence is a
-- weak-evidence diagnostic on its bullet; the sidebar shows each completed
-- item's verify state, and <CR> on an evidence file opens it at its line.
local H = require('harness')
local compat = require('planls.compat')

local ws = H.workspace(H.test_dir .. '/fixtures/basic/PLAN.md')
local plan_path = ws .. '/PLAN.md'
local TIMEOUT = 15000

require('planls').setup({ cmd = { H.bin(), 'serve' } })
local sidebar = require('planls.sidebar')

local plan_buf

local function diags(code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(plan_buf)) do
    if d.source == 'planls' and d.code == code then
      table.insert(out, d)
    end
  end
  return out
end

local function describe_sidebar()
  return table.concat(sidebar.lines(), '\n')
end

local function line_of(needle)
  for i, l in ipairs(sidebar.lines()) do
    if l:find(needle, 1, true) then
      return i
    end
  end
  return nil
end

H.test('weak evidence is a weak-evidence warning on its bullet', function()
  vim.fn.mkdir(ws .. '/notes', 'p')
  H.write_file(ws .. '/notes/design.md', '# Design\nbuckets refill\nper key\n')
  local rc, out = H.cli(ws, { 'approve' })
  H.eq(0, rc, out)
  rc, out = H.cli(ws, { 'todo', 'complete', '1', '--evidence', 'done' })
  H.eq(0, rc, out)
  rc, out = H.cli(ws, { 'todo', 'complete', '2', '--evidence', 'see notes/design.md:2' })
  H.eq(0, rc, out)
  vim.cmd('edit ' .. vim.fn.fnameescape(plan_path))
  plan_buf = vim.api.nvim_get_current_buf()
  H.wait(TIMEOUT, function()
    return #diags('weak-evidence') == 1
  end, 'one weak-evidence diagnostic')
  local d = diags('weak-evidence')[1]
  H.eq(vim.diagnostic.severity.WARN, d.severity)
  H.eq('plan item #1 is completed with weak evidence "done": it names no commit, file, test, '
    .. 'command with its result or URL that can be checked', d.message)
  H.eq(1, compat.lsp_diagnostic(d).data.id)
end)

H.test('the sidebar shows the verify state; <CR> on an evidence file opens it', function()
  vim.cmd('PlanlsSidebar')
  H.wait(TIMEOUT, function()
    return line_of('→ file notes/design.md:2') ~= nil
  end, 'the sidebar lists the evidence file', describe_sidebar)
  H.ok(line_of('verify: weak evidence (names nothing checkable)'), describe_sidebar())
  H.ok(line_of('verify: verified'), describe_sidebar())
  local w = vim.fn.win_findbuf(sidebar.buf())[1]
  vim.api.nvim_set_current_win(w)
  vim.api.nvim_win_set_cursor(w, { line_of('→ file notes/design.md:2'), 0 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
  H.eq(vim.fn.resolve(ws .. '/notes/design.md'), vim.fn.resolve(vim.api.nvim_buf_get_name(0)))
  H.eq(2, vim.api.nvim_win_get_cursor(0)[1])
  H.ok(sidebar.is_open(), 'the sidebar stays open')
end)

H.finish()
