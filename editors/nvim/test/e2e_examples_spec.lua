-- The example plans with Unicode and CRLF line endings through the plugin
-- and the real server: sidebar text (golden), highlights on multibyte lines,
-- diagnostics on the right lines, and the jump.
local H = require('harness')
local compat = require('planls.compat')

local TIMEOUT = 15000

require('planls').setup({ cmd = { H.bin(), 'serve' } })
local sidebar = require('planls.sidebar')

local function open_ids(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'planls' and d.code == 'open-item' then
      table.insert(out, { lnum = d.lnum, id = compat.lsp_diagnostic(d).data.id })
    end
  end
  table.sort(out, function(a, b)
    return a.lnum < b.lnum
  end)
  return out
end

local function describe_sidebar()
  return table.concat(sidebar.lines(), '\n')
end

-- Opens a temp copy of fixtures/<name>/PLAN.md, approves it and opens the
-- sidebar; returns the workspace and the plan buffer.
local function approve_example(name, items)
  local ws = H.workspace(H.test_dir .. '/fixtures/' .. name .. '/PLAN.md')
  vim.cmd('silent! %bwipeout!')
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/PLAN.md'))
  local buf = vim.api.nvim_get_current_buf()
  H.wait(TIMEOUT, function()
    local c = compat.buf_clients(buf, 'planls')[1]
    return c ~= nil and c.initialized
  end, name .. ': client attached')
  local _, restore_notify = H.capture_notify()
  vim.cmd('PlanlsApprove')
  local ok = vim.wait(TIMEOUT, function()
    return #open_ids(buf) == items
  end, 20)
  restore_notify()
  H.ok(ok, name .. ': want ' .. items .. ' open items, got ' .. vim.inspect(open_ids(buf)))
  vim.cmd('PlanlsSidebar')
  H.wait(TIMEOUT, function()
    return vim.tbl_contains(sidebar.lines(), string.format('%d/%d open · PLAN.md', items, items))
  end, name .. ': sidebar', describe_sidebar)
  return ws, buf
end

H.test('unicode plan: sidebar golden, highlights on byte boundaries, jump', function()
  local _, buf = approve_example('unicode', 5)
  H.golden('sidebar_unicode.txt', sidebar.lines())
  local ns = vim.api.nvim_create_namespace('planls_sidebar')
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(sidebar.buf(), ns, 0, -1, { details = true })) do
    local line = vim.api.nvim_buf_get_lines(sidebar.buf(), m[2], m[2] + 1, false)[1]
    local s, e = m[3], m[4].end_col
    -- Both ends fall on character starts: the text between is valid UTF-8.
    H.ok(vim.str_utfindex(line:sub(1, s)) and vim.str_utfindex(line:sub(1, e)), 'span splits a character')
    H.eq(line:sub(s + 1, e), vim.fn.strcharpart(line, vim.fn.charidx(line, s), vim.fn.strchars(line:sub(s + 1, e))))
  end
  local emoji_line
  for i, l in ipairs(sidebar.lines()) do
    if l:find('Emoji in the middle', 1, true) then
      emoji_line = i
    end
  end
  vim.api.nvim_win_set_cursor(0, { emoji_line, 0 })
  vim.api.nvim_feedkeys('\r', 'x', false)
  H.eq(buf, vim.api.nvim_get_current_buf())
  local row = vim.api.nvim_win_get_cursor(0)[1]
  H.ok(vim.api.nvim_get_current_line():find('^%- Emoji in the middle'), vim.api.nvim_get_current_line())
  local rows = vim.tbl_map(function(d)
    return d.lnum + 1
  end, open_ids(buf))
  H.ok(vim.tbl_contains(rows, row), 'row ' .. row .. ' not in ' .. vim.inspect(rows))
end)

H.test('CRLF plan: items on the right lines, no carriage returns anywhere', function()
  local _, buf = approve_example('crlf', 3)
  H.eq('dos', vim.bo[buf].fileformat)
  H.eq({ { lnum = 3, id = 1 }, { lnum = 5, id = 2 }, { lnum = 8, id = 3 } }, open_ids(buf))
  H.golden('sidebar_crlf.txt', sidebar.lines())
  for _, l in ipairs(sidebar.lines()) do
    H.ok(not l:find('\r', 1, true), 'carriage return in ' .. vim.inspect(l))
  end
end)

H.finish()
