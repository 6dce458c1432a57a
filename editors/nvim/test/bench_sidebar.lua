-- A measurement, not a test (run.sh does not run it): lsp's
-- BenchmarkNeovimSidebar runs it in Neovim 0.11+ with PLANLS_BIN and
-- PLANLS_BENCH_PLAN (an approved plan in a git repository) set. It opens the
-- plan with the plugin, opens the plan sidebar (unless PLANLS_BENCH_SIDEBAR
-- is "closed": the same run without it), then types 20 characters at
-- the end of the first pending item's line, 150 ms apart with a 600 ms
-- pause after every 5th (a person typing words), so the sidebar, which
-- refreshes once planls/stateChanged pauses, is open and redraws during the
-- run on the same loop that handles the publishes. It prints one line,
-- "BENCH " and a JSON object: keys typed, own (keystrokes whose version got
-- diagnostics of its own: a publishDiagnostics, or the answer to the pull
-- Neovim sent after it), latencies (ms from each didChange Neovim sent to
-- those diagnostics reaching their handler) and versions (the document
-- version of each latency), last (ms from the last didChange to the first
-- diagnostics of it or a later version), planRequests (planls/plan requests
-- sent while typing), draws (sidebar redraws while typing) and sidebarLast
-- (ms from the last didChange to the sidebar showing the last keystroke;
-- absent with the sidebar closed), split (pre: ms from each didChange to
-- the pull Neovim sent after it; wait: from that pull, or the didChange
-- when pushed, to Neovim starting to decode the answer; decode; post: from
-- the decoded answer to its handler; handler: Neovim's own handler storing
-- and showing the diagnostics, after the latency's clock stopped), nvimCPU
-- and serverCPU (CPU ms per keystroke while typing, Neovim's and the
-- server's).
local uv = vim.uv or vim.loop
local keys, gap, every, pause = 20, 150, 5, 600

-- cpu_ns is the CPU time (ns) pid's threads have used, and its
-- descendants' with children set (Linux /proc/PID/task/*/schedstat; 0
-- where /proc is not there).
local function cpu_ns(pid, children)
  local total = 0
  local ok, tasks = pcall(vim.fn.readdir, '/proc/' .. pid .. '/task')
  for _, t in ipairs(ok and tasks or {}) do
    local f = io.open('/proc/' .. pid .. '/task/' .. t .. '/schedstat')
    if f then
      total = total + (tonumber(f:read('*l'):match('^(%d+)')) or 0)
      f:close()
    end
  end
  for _, c in ipairs(children and vim.api.nvim_get_proc_children(pid) or {}) do
    total = total + cpu_ns(c, true)
  end
  return total
end

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
  -- Where each keystroke's time goes on Neovim's clock: asked (the pull
  -- request sent), arrived and decoded (the start and end of decoding the
  -- large message that carried its diagnostics: 200 items).
  local asked, arrived, decoded, stored = {}, {}, {}, {}
  local decode, last_start, last_end = vim.json.decode, nil, nil
  vim.json.decode = function(str, ...)
    if not typing or #str < 10000 then
      return decode(str, ...)
    end
    local t = uv.hrtime()
    local res = decode(str, ...)
    last_start, last_end = t, uv.hrtime()
    return res
  end
  local function handled(v)
    published[v] = uv.hrtime()
    arrived[v], decoded[v] = last_start, last_end
  end
  local notify, request = client.notify, client.request
  client.notify = function(self, method, params)
    if method == 'textDocument/didChange' then
      sent[params.textDocument.version] = uv.hrtime()
    end
    return notify(self, method, params)
  end
  client.request = function(self, method, params, handler, bufnr)
    if typing and method == 'planls/plan' then
      plan_requests = plan_requests + 1
    end
    if typing and method == 'textDocument/diagnostic' then
      local v = vim.lsp.util.buf_versions[vim._resolve_bufnr(bufnr)]
      asked[v] = asked[v] or uv.hrtime()
    end
    return request(self, method, params, handler, bufnr)
  end
  -- A server that answers pulls: the answer to the pull Neovim sends after
  -- a change (its ctx.version) is that change's diagnostics.
  local pulled = vim.lsp.handlers['textDocument/diagnostic']
  vim.lsp.handlers['textDocument/diagnostic'] = function(e, result, ctx, cfg)
    local v = result and ctx.version and not published[ctx.version] and ctx.version
    if v then
      handled(v)
    end
    local res = pulled(e, result, ctx, cfg)
    if v then
      stored[v] = uv.hrtime()
    end
    return res
  end
  local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(e, result, ctx, cfg)
    local v = result and result.version and not published[result.version] and result.version
    if v then
      handled(v)
    end
    local res = publish(e, result, ctx, cfg)
    if v then
      stored[v] = uv.hrtime()
    end
    return res
  end

  local open = os.getenv('PLANLS_BENCH_SIDEBAR') ~= 'closed'
  local view
  if open then
    vim.cmd('PlanlsSidebar')
    assert(vim.wait(60000, function()
      return sidebar.plan() ~= nil
    end, 10), 'the sidebar never showed the plan')
    vim.cmd('wincmd p')
    assert(vim.api.nvim_get_current_buf() == buf, 'not back in the plan')
    view = sidebar.plan()
  else
    local root_uri = require('planls.client').root_uri(client)
    local answer = client:request_sync('planls/plan', { uri = root_uri }, 60000, buf)
    assert(answer and answer.result, 'planls/plan failed: ' .. vim.inspect(answer))
    view = answer.result
  end

  local line
  for _, g in ipairs(view.groups) do
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

  -- CPU while typing: Neovim's own and the server's (its children).
  local me = vim.fn.getpid()
  local function cpu()
    local own = cpu_ns(me, false)
    return own, cpu_ns(me, true) - own
  end
  typing = true
  local nvim0, server0 = cpu()
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
      if open and k == keys and not shown_at and shows_typed() then
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
  local nvim1, server1 = cpu()
  typing = false
  -- The refresh after the last pause is never dropped: the sidebar shows
  -- the last keystroke.
  local sidebar_last = vim.NIL
  if open then
    assert(vim.wait(30000, function()
      if not shown_at and shows_typed() then
        shown_at = uv.hrtime()
      end
      return shown_at ~= nil
    end, 5), 'the sidebar never showed the last keystroke')
    sidebar_last = (shown_at - sent[last_version]) / 1e6
  end

  local own, latencies, versions = 0, {}, {}
  local split = { pre = {}, wait = {}, decode = {}, post = {}, handler = {} }
  local function ms(a, b)
    return (b - a) / 1e6
  end
  for v, t in pairs(sent) do
    if published[v] then
      own = own + 1
      table.insert(latencies, ms(t, published[v]))
      table.insert(versions, v)
      local from = t
      if stored[v] then
        table.insert(split.handler, ms(published[v], stored[v]))
      end
      if asked[v] then
        table.insert(split.pre, ms(t, asked[v]))
        from = asked[v]
      end
      if arrived[v] and arrived[v] > from then
        table.insert(split.wait, ms(from, arrived[v]))
        table.insert(split.decode, ms(arrived[v], decoded[v]))
        table.insert(split.post, ms(decoded[v], published[v]))
      end
    end
  end
  for k, v in pairs(split) do
    if #v == 0 then
      split[k] = vim.NIL
    end
  end
  finish({
    keys = keys,
    own = own,
    latencies = #latencies > 0 and latencies or vim.NIL,
    versions = #versions > 0 and versions or vim.NIL,
    split = split,
    nvimCPU = (nvim1 - nvim0) / 1e6 / keys,
    serverCPU = (server1 - server0) / 1e6 / keys,
    last = (last_pub - sent[last_version]) / 1e6,
    planRequests = plan_requests,
    draws = draws,
    sidebarLast = sidebar_last,
  })
end)
if not ok then
  finish({ error = tostring(err) })
end
