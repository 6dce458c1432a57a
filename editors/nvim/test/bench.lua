-- Measurements, not tests (run.sh does not run this file):
--   PLANLS_NVIM_DIR=$PWD/editors/nvim PLANLS_BIN=$PWD/bin/planls \
--     nvim --headless -u editors/nvim/test/minimal_init.lua -c 'luafile editors/nvim/test/bench.lua'
-- Prints one line per measurement: rendering a large plan, the time from
-- a state change (sidebar key, CLI) to the sidebar showing it, and from an
-- item command with a missing id to its message.
local H = require('harness')
local render = require('planls.render')
local config = require('planls.config')

local uv = vim.uv or vim.loop

local function out(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end

local function stats(samples)
  table.sort(samples)
  local sum = 0
  for _, v in ipairs(samples) do
    sum = sum + v
  end
  return string.format(
    'n=%d mean=%.2f ms p50=%.2f ms max=%.2f ms',
    #samples,
    sum / #samples,
    samples[math.ceil(#samples / 2)],
    samples[#samples]
  )
end

-- 1. render() of a plan with 20 groups x 50 items, statuses mixed.
local statuses = { 'pending', 'in_progress', 'completed', 'deferred' }
local plan = { exists = true, approved = true, title = 'Big plan', open = 500, total = 1000, groups = {} }
local id = 0
for g = 1, 20 do
  local items = {}
  for _ = 1, 50 do
    id = id + 1
    local st = statuses[(id % 4) + 1]
    table.insert(items, {
      id = id,
      subject = 'Item ' .. id .. ' of group ' .. g .. ' with `code` and some words',
      status = st,
      evidence = st == 'completed' and 'go test ./pkg' .. id .. '/...: ok' or '',
      reason = st == 'deferred' and 'out of scope for this release' or '',
      blocked = false,
      blockedBy = {},
      drift = 'same',
      range = { start = { line = id, character = 0 }, ['end'] = { line = id, character = 40 } },
    })
  end
  table.insert(plan.groups, { name = 'Group ' .. g, items = items })
end
plan.planUri = 'file:///work/proj/PLAN.md'
local opts = { glyphs = config.defaults.sidebar.glyphs, keys = config.defaults.sidebar.keys }
local samples = {}
for _ = 1, 50 do
  local t = uv.hrtime()
  render.render(plan, opts)
  table.insert(samples, (uv.hrtime() - t) / 1e6)
end
out('render 1000 items: ' .. stats(samples))

-- 2. Round trips against the real server.
local ws = H.workspace(H.test_dir .. '/fixtures/basic/PLAN.md')
require('planls').setup({ cmd = { H.bin(), 'serve' } })
local sidebar = require('planls.sidebar')
vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/PLAN.md'))
local _, restore_notify = H.capture_notify()
local t0 = uv.hrtime()
vim.cmd('PlanlsApprove')
H.wait(15000, function()
  return #vim.diagnostic.get(0) >= 7
end, 'approval')
out(string.format('approve to 7 diagnostics: %.1f ms', (uv.hrtime() - t0) / 1e6))
vim.cmd('PlanlsSidebar')
H.wait(15000, function()
  return vim.tbl_contains(sidebar.lines(), '7/7 open · PLAN.md')
end, 'sidebar')

local key_samples, cli_samples = {}, {}
local function wait_open(n)
  H.wait(15000, function()
    return vim.tbl_contains(sidebar.lines(), n .. '/7 open · PLAN.md')
  end, n .. '/7 open')
end
-- s then d on items 1-3 through the sidebar keys (no prompt for s).
for i = 1, 3 do
  local lnum
  for l, text in ipairs(sidebar.lines()) do
    if text:find('^  %S+ #' .. i .. ' ') then
      lnum = l
    end
  end
  vim.api.nvim_win_set_cursor(0, { lnum, 0 })
  local _, restore = H.stub_input({ 'bench reason ' .. i })
  local t = uv.hrtime()
  vim.api.nvim_feedkeys('d', 'x', false)
  wait_open(7 - i)
  table.insert(key_samples, (uv.hrtime() - t) / 1e6)
  restore()
end
out('sidebar key d to refreshed sidebar: ' .. stats(key_samples))
-- planls todo complete from a shell process, four items.
for i = 4, 7 do
  local t = uv.hrtime()
  H.cli(ws, { 'todo', 'complete', tostring(i), '--evidence', 'bench ' .. i })
  wait_open(7 - i)
  table.insert(cli_samples, (uv.hrtime() - t) / 1e6)
end
out('CLI todo complete (process start included) to refreshed sidebar: ' .. stats(cli_samples))
-- :PlanlsStart 99 in PLAN.md: planls/plan, then todo get, then the message.
vim.cmd('wincmd p')
assert(not sidebar.is_sidebar(vim.api.nvim_get_current_buf()), 'still in the sidebar')
local missing_samples = {}
for _ = 1, 20 do
  local seen, restore_seen = H.capture_notify()
  local t = uv.hrtime()
  vim.cmd('PlanlsStart 99')
  H.wait(15000, function()
    return #seen > 0
  end, '#99 not found')
  table.insert(missing_samples, (uv.hrtime() - t) / 1e6)
  restore_seen()
  assert(seen[1].msg == 'planls: #99 not found', seen[1].msg)
end
out(':PlanlsStart 99 (missing id) to its message: ' .. stats(missing_samples))
restore_notify()
H.finish()
