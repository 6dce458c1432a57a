-- An approved item deleted from the plan buffer, against the real server:
-- its plan-drift diagnostic is where it used to be (the end of the item
-- before it), and a command at the cursor on that line acts on the line's
-- own item, never on the gone one.
local H = require('harness')
local compat = require('planls.compat')

local TIMEOUT = 15000

require('planls').setup({ cmd = { H.bin(), 'serve' } })

local function task(ws, id)
  local st = H.read_json(ws .. '/.planls/state.json')
  for _, t in ipairs(st and st.tasks or {}) do
    if t.id == id then
      return t
    end
  end
end

H.test('a gone item is reported where it used to be; the cursor line keeps its own item', function()
  local ws = H.workspace(nil)
  H.write_file(ws .. '/PLAN.md', '# Ship\n\n## Work\n- one\n- two\n- three\n')
  local rc, out = H.cli(ws, { 'approve' })
  H.eq(0, rc, out)
  -- #1 deferred: its line has no diagnostic of its own.
  rc, out = H.cli(ws, { 'todo', 'defer', '1', '--reason', 'later' })
  H.eq(0, rc, out)
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/PLAN.md'))
  local buf = vim.api.nvim_get_current_buf()
  H.wait(TIMEOUT, function()
    return #vim.diagnostic.get(buf) == 2
  end, 'the open items #2 and #3')
  vim.api.nvim_buf_set_lines(buf, 4, 5, false, {}) -- "- two"
  local gone
  H.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'plan-drift' then
        gone = d
      end
    end
    return gone ~= nil
  end, 'the drift of #2', function()
    return vim.inspect(vim.diagnostic.get(buf))
  end)
  H.eq('approved plan item #2 is missing from the plan file: two', gone.message)
  H.eq({ 3, #'- one' }, { gone.lnum, gone.col })
  local data = compat.lsp_diagnostic(gone).data
  H.eq({ 2, true }, { data.id, data.gone })

  -- :PlanlsReopen on "- one" reopens #1 (deferred), not #2.
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  local seen, restore = H.capture_notify()
  vim.cmd('PlanlsReopen')
  local ok = vim.wait(TIMEOUT, function()
    return #seen > 0
  end, 20)
  restore()
  H.ok(ok, 'no message from :PlanlsReopen')
  H.eq('planls: Updated #1 (deferred → pending)', seen[1].msg)
  H.eq('pending', task(ws, 1).status)
  H.eq('pending', task(ws, 2).status)
  vim.cmd('bwipeout!')
end)

H.finish()
