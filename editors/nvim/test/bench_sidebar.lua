-- A measurement, not a test (run.sh does not run it): lsp's
-- BenchmarkNeovimSidebar runs it in Neovim 0.11+ with PLANLS_BIN and
-- PLANLS_BENCH_PLAN (an approved plan in a git repository) set. It opens the
-- plan with the plugin, opens the plan sidebar, then types 20 characters at
-- the end of the first pending item's line, 150 ms apart with a 600 ms
-- pause after every 5th (a person typing words), so the sidebar, which
-- refreshes once planls/stateChanged pauses, is open and redraws during the
-- run on the same loop that handles the publishes. It prints one line,
-- "BENCH " and a JSON object: keys typed, own (keystrokes whose version got
-- diagnostics of its own: a publishDiagnostics, or the answer to the pull
-- Neovim sent after it), latencies (ms from each didChange Neovim sent to
-- those diagnostics), last (ms from the last didChange to the first
-- diagnostics of it or a later version), planRequests (planls/plan requests
-- sent while typing), draws (sidebar redraws while typing) and sidebarLast
-- (ms from the last didChange to the sidebar showing the last keystroke).
local uv = vim.uv or vim.loop
local keys, gap, every, pause = 20, 150, 5, 600

local function finish(result)
  io.stdout:write('BENCH ' .. vim.json.encode(result) .. '\n')
  io.stdout:flush()
  for _, c in ipairs(vim.lsp.get_clients()) do
    c:stop(true)
  end
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  assert(vim.fn.has('nvim-0.11') == 1, 'needs Neovim 0.11+')
  local plan = assert(os.getenv('PLANLS_BENCH_PLAN'), 'PLANLS_BENCH_PLAN is not set')
  require('planls').setup({ cmd = { assert(os.getenv('PLANLS_BIN')), 'serve' } })
  local sidebar = require('planls.sidebar')
  vim.cmd('edit ' .. vim.fn.fnameescape(plan))
  local buf = vim.api.nvim_get_current_buf()
  local client
  assert(vim.wait(30000, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'planls' })[1]
    return client ~= nil and #vim.diagnostic.get(buf) > 0
  end, 10), 'no diagnostics')

  local sent, published, plan_requests, typing = {}, {}, 0, false
  local notify, request = client.notify, client.request
  client.notify = function(self, method, params)
    if method == 'textDocument/didChange' then
      sent[params.textDocument.version] = uv.hrtime()
    end
    return notify(self, method, params)
  end
  client.request = function(self, method, params, handler, ...)
    if typing and method == 'planls/plan' then
      plan_requests = plan_requests + 1
    end
    return request(self, method, params, handler, ...)
  end
  -- A server that answers pulls: the answer to the pull Neovim sends after
  -- a change (its ctx.version) is that change's diagnostics.
  local pulled = vim.lsp.handlers['textDocument/diagnostic']
  vim.lsp.handlers['textDocument/diagnostic'] = function(e, result, ctx, cfg)
    if result and ctx.version and not published[ctx.version] then
      published[ctx.version] = uv.hrtime()
    end
    return pulled(e, result, ctx, cfg)
  end
  local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(e, result, ctx, cfg)
    if result and result.version and not published[result.version] then
      published[result.version] = uv.hrtime()
    end
    return publish(e, result, ctx, cfg)
  end

  vim.cmd('PlanlsSidebar')
  assert(vim.wait(60000, function()
    return sidebar.plan() ~= nil
  end, 10), 'the sidebar never showed the plan')
  vim.cmd('wincmd p')
  assert(vim.api.nvim_get_current_buf() == buf, 'not back in the plan')

  local line
  for _, g in ipairs(sidebar.plan().groups) do
    for _, it in ipairs(g.items) do
      if not line and it.status == 'pending' and it.range ~= vim.NIL then
        line = it.range.start.line
      end
    end
  end
  assert(line, 'no pending item')

  local typed = string.rep('x', keys)
  local function shows_typed()
    for _, l in ipairs(sidebar.lines()) do
      if l:find(typed, 1, true) then
        return true
      end
    end
    return false
  end

  typing = true
  local draws0 = sidebar.draws
  local shown_at
  local t0 = uv.hrtime()
  local at = 0
  for k = 1, keys do
    local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
    vim.api.nvim_buf_set_text(buf, line, #text, line, #text, { 'x' })
    at = at + (k % every == 0 and pause or gap)
    local due = t0 + at * 1e6
    vim.wait(math.max(0, (due - uv.hrtime()) / 1e6), function()
      -- Only after the last key: scanning the sidebar costs the loop time.
      if k == keys and not shown_at and shows_typed() then
        shown_at = uv.hrtime()
      end
      return false
    end, 5)
  end
  local last_version = vim.lsp.util.buf_versions[buf]
  assert(vim.wait(30000, function()
    return sent[last_version] ~= nil
  end, 5), 'the last change was never sent')
  local last_pub
  assert(vim.wait(30000, function()
    for v, t in pairs(published) do
      if v >= last_version then
        last_pub = t
        return true
      end
    end
    return false
  end, 5), 'no publish for the last change')
  local draws = sidebar.draws - draws0
  typing = false
  -- The refresh after the last pause is never dropped: the sidebar shows
  -- the last keystroke.
  assert(vim.wait(30000, function()
    if not shown_at and shows_typed() then
      shown_at = uv.hrtime()
    end
    return shown_at ~= nil
  end, 5), 'the sidebar never showed the last keystroke')
  local sidebar_last = (shown_at - sent[last_version]) / 1e6

  local own, latencies = 0, {}
  for v, t in pairs(sent) do
    if published[v] then
      own = own + 1
      table.insert(latencies, (published[v] - t) / 1e6)
    end
  end
  finish({
    keys = keys,
    own = own,
    latencies = #latencies > 0 and latencies or vim.NIL,
    last = (last_pub - sent[last_version]) / 1e6,
    planRequests = plan_requests,
    draws = draws,
    sidebarLast = sidebar_last,
  })
end)
if not ok then
  finish({ error = tostring(err) })
end
