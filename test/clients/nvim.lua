-- Real-client matrix, Neovim with plain vim.lsp and the documented snippet
-- (editors/nvim/snippets/vim-lsp.lua), or with the plugin
-- (test/clients/nvim-plugin.lua: its documented setup). Run by
-- test/clients/run.sh:
--   nvim --headless -u NONE -i NONE -n -c 'luafile test/clients/nvim.lua'
-- with PLANLS_WS (an approved workspace), PLANLS_BIN, PLANLS_SNIPPET,
-- PLANLS_OUT (the JSON row) and PLANLS_RC (where the server wrapper writes
-- its exit code). "Complete #1…" and "Defer #2…" go through
-- vim.lsp.buf.code_action with the menu and the input box answered.
local ws = os.getenv('PLANLS_WS')
local plan = ws .. '/PLAN.md'
local uv = vim.uv or vim.loop
local t0 = uv.hrtime()
local v = vim.version()
local setup = (os.getenv('PLANLS_SETUP_NAME') or ''):find('plugin') and 'plugin' or 'plain vim.lsp'
local out = { client = string.format('nvim %d.%d.%d, %s', v.major, v.minor, v.patch, setup) }
local TIMEOUT = 10000

local function ms()
  return math.floor((uv.hrtime() - t0) / 1e6)
end

local function finish(err)
  out.ok = err == nil
  out.error = err and tostring(err) or nil
  local f = assert(io.open(os.getenv('PLANLS_OUT'), 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd(err and 'cquit! 1' or 'qall!')
end

local function wait(what, cond)
  if not vim.wait(TIMEOUT, cond, 10) then
    error('timed out waiting for ' .. what, 2)
  end
end

local function task(id)
  local ok, st = pcall(function()
    return vim.fn.json_decode(table.concat(vim.fn.readfile(ws .. '/.planls/state.json'), '\n'))
  end)
  for _, t in ipairs(ok and st.tasks or {}) do
    if t.id == id then
      return t
    end
  end
end

local buf
local function open_ids()
  local ids = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local data = d.user_data and d.user_data.lsp and d.user_data.lsp.data
    if d.source == 'planls' and d.code == 'open-item' and type(data) == 'table' then
      table.insert(ids, data.id)
    end
  end
  table.sort(ids)
  return table.concat(ids, ',')
end

local function line_of(prefix)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:sub(1, #prefix) == prefix then
      return i
    end
  end
  error('no line ' .. prefix)
end

-- Runs the code action titled `title` on the line starting with `prefix`,
-- answering the input box with `answer`.
local function run_action(prefix, title, answer)
  vim.api.nvim_win_set_cursor(0, { line_of(prefix), 2 })
  local select, input = vim.ui.select, vim.ui.input
  local picked
  vim.ui.select = function(items, _, on_choice)
    for i, it in ipairs(items) do
      local a = it.action or it[2] -- {action, ctx} from 0.10, {client_id, action} before
      if a.title == title then
        picked = true
        return on_choice(it, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.ui.input = function(_, on_confirm)
    on_confirm(answer)
  end
  vim.lsp.buf.code_action()
  vim.defer_fn(function()
    vim.ui.select, vim.ui.input = select, input
  end, 2000)
  wait(title .. ' in the menu', function()
    return picked
  end)
end

local ok, err = pcall(function()
  vim.cmd('filetype on')
  dofile(os.getenv('PLANLS_SNIPPET'))
  vim.cmd('edit ' .. vim.fn.fnameescape(plan))
  buf = vim.api.nvim_get_current_buf()
  wait('7 open-item diagnostics', function()
    return open_ids() == '1,2,3,4,5,6,7'
  end)
  out.start_ms = ms()
  out.diagnostics = #vim.diagnostic.get(buf)

  local t = ms()
  run_action('- Add `internal/ratelimit`', 'Complete #1…', 'go test ./internal/ratelimit: ok')
  wait('#1 completed', function()
    local x = task(1)
    return x and x.status == 'completed' and open_ids() == '2,3,4,5,6,7'
  end)
  out.complete_ms, out.evidence = ms() - t, task(1).evidence

  t = ms()
  run_action('- Wire the limiter', 'Defer #2…', 'the batch endpoint moves to the next plan')
  wait('#2 deferred', function()
    local x = task(2)
    return x and x.status == 'deferred' and open_ids() == '3,4,5,6,7'
  end)
  out.defer_ms, out.reason = ms() - t, task(2).reason

  t = ms()
  vim.fn.jobstart({ os.getenv('PLANLS_BIN'), '--root', ws, 'todo', 'complete', '3', '--evidence', 'config test: ok' })
  wait('#3 gone after the CLI', function()
    return open_ids() == '4,5,6,7'
  end)
  out.cli_ms = ms() - t

  t = ms()
  vim.lsp.stop_client((vim.lsp.get_clients or vim.lsp.get_active_clients)())
  wait('the server to exit', function()
    return vim.fn.filereadable(os.getenv('PLANLS_RC')) == 1
  end)
  out.shutdown_ms = ms() - t
  out.server_rc = tonumber(vim.fn.readfile(os.getenv('PLANLS_RC'))[1])
end)
finish(not ok and err or nil)
