-- Tiny test harness for headless Neovim specs. Each spec file runs in its own
-- `nvim --headless` (run.sh) and reports one line per test on stdout:
--   PASS <name>   |   FAIL <name>: <error and traceback>
-- then exits 0 when all passed, 1 otherwise.
local H = {}

local passed, failed = 0, 0
local uv = vim.uv or vim.loop

--- Absolute directory of editors/nvim (run.sh exports it).
H.plugin_dir = os.getenv('PLANLS_NVIM_DIR') or vim.fn.getcwd()
H.test_dir = H.plugin_dir .. '/test'

local function out(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end

--- Runs fn as one test; errors (assertions, timeouts) fail it.
function H.test(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
    out('PASS ' .. name)
  else
    failed = failed + 1
    out('FAIL ' .. name .. ': ' .. tostring(err))
  end
end

--- Stops every LSP client, waits for them to exit, and quits Neovim with
--- rc 0 when every test passed, else 1.
function H.finish()
  local function live()
    return vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  end
  if #live() > 0 then
    vim.lsp.stop_client(live(), false)
    -- A server that ignores exit must not hold the run: kill what is left.
    if not vim.wait(2000, function()
      return #live() == 0
    end, 20) then
      vim.lsp.stop_client(live(), true)
      vim.wait(2000, function()
        return #live() == 0
      end, 20)
    end
  end
  out(string.format('# %d passed, %d failed', passed, failed))
  if failed == 0 then
    vim.cmd('qall!')
  else
    vim.cmd('cquit! 1')
  end
end

--- Fails unless a and b are deeply equal.
function H.eq(want, got, msg)
  if not vim.deep_equal(want, got) then
    error(string.format('%s\nwant: %s\n got: %s', msg or 'not equal', vim.inspect(want), vim.inspect(got)), 2)
  end
end

--- Fails unless cond is truthy.
function H.ok(cond, msg)
  if not cond then
    error(msg or 'assertion failed', 2)
  end
end

--- Waits up to ms for pred() to be truthy, driving the event loop; fails
--- with msg (and describe() when given) on timeout.
function H.wait(ms, pred, msg, describe)
  if not vim.wait(ms, pred, 20) then
    local extra = describe and ('\n' .. tostring(describe())) or ''
    error('timeout after ' .. ms .. ' ms: ' .. msg .. extra, 2)
  end
end

function H.read_file(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

function H.write_file(path, s)
  local f = assert(io.open(path, 'wb'))
  f:write(s)
  f:close()
end

function H.read_json(path)
  local s = H.read_file(path)
  if not s then
    return nil
  end
  local ok, v = pcall(vim.json.decode, s)
  if not ok then
    return nil
  end
  return v
end

--- A fresh temp workspace (a git repo) holding `plan_path` copied as
--- PLAN.md. Returns its absolute, symlink-resolved path.
function H.workspace(plan_path)
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  dir = vim.fn.resolve(dir)
  vim.fn.system({ 'git', 'init', '-q', dir })
  if vim.v.shell_error ~= 0 then
    vim.fn.mkdir(dir .. '/.git', 'p')
  end
  if plan_path then
    H.write_file(dir .. '/PLAN.md', assert(H.read_file(plan_path), 'missing ' .. plan_path))
  end
  return dir
end

--- The planls binary under test.
function H.bin()
  local b = os.getenv('PLANLS_BIN')
  assert(b and b ~= '', 'PLANLS_BIN is not set')
  return b
end

--- Runs the planls binary with args in cwd; returns exit code and output
--- (stdout and stderr). Fails after timeout_ms (default 20000).
function H.cli(cwd, args, timeout_ms)
  local output = {}
  local function collect(_, data)
    for _, l in ipairs(data or {}) do
      if l ~= '' then
        table.insert(output, l)
      end
    end
  end
  local job = vim.fn.jobstart(vim.list_extend({ H.bin() }, args), {
    cwd = cwd,
    on_stdout = collect,
    on_stderr = collect,
    stdout_buffered = true,
    stderr_buffered = true,
  })
  assert(job > 0, 'could not start ' .. H.bin())
  local rc = vim.fn.jobwait({ job }, timeout_ms or 20000)[1]
  if rc == -1 then
    vim.fn.jobstop(job)
    error('planls ' .. table.concat(args, ' ') .. ' timed out')
  end
  return rc, table.concat(output, '\n')
end

--- Compares lines with test/golden/<name>; PLANLS_UPDATE_GOLDEN=1 rewrites
--- the file instead (review the diff before committing it).
function H.golden(name, lines)
  local path = H.test_dir .. '/golden/' .. name
  local text = table.concat(lines, '\n') .. '\n'
  if os.getenv('PLANLS_UPDATE_GOLDEN') == '1' then
    H.write_file(path, text)
    return
  end
  local want = H.read_file(path)
  if want ~= text then
    error(string.format('golden %s differs\n--- want\n%s--- got\n%s', name, tostring(want), text), 2)
  end
end

--- Replaces vim.notify with a recorder for the test's duration; returns
--- the list of {msg, level} and a restore function.
function H.capture_notify()
  local seen = {}
  local orig = vim.notify
  vim.notify = function(msg, level)
    table.insert(seen, { msg = msg, level = level })
  end
  return seen, function()
    vim.notify = orig
  end
end

--- Replaces vim.lsp.handlers['window/showMessage'] with one that records
--- each message a server shows, on every release (0.7 writes them to the
--- message area, later ones hand them to vim.notify). Returns the recorded
--- messages and a restore function.
function H.capture_shown()
  local shown = {}
  local orig = vim.lsp.handlers['window/showMessage']
  vim.lsp.handlers['window/showMessage'] = function(_, result)
    table.insert(shown, result.message)
    return result
  end
  return shown, function()
    vim.lsp.handlers['window/showMessage'] = orig
  end
end

--- Replaces vim.ui.input with one that answers each prompt from `answers`
--- in order (nil = the user pressed Esc). Returns the recorded prompts and
--- a restore function.
function H.stub_input(answers)
  local prompts, i = {}, 0
  local orig = vim.ui.input
  vim.ui.input = function(opts, on_confirm)
    i = i + 1
    table.insert(prompts, opts.prompt)
    on_confirm(answers[i])
  end
  return prompts, function()
    vim.ui.input = orig
  end
end

-- One planls diagnostic as "line:code:message" (the LSP's 0-based line).
local function diag_key(line, code, message)
  return string.format('%d:%s:%s', line, tostring(code), message)
end

--- Waits until what the client shows of buf's planls diagnostics is what the
--- server holds now and the server's verification of completed items has
--- landed (planls/plan's pending is false): the settled state. A change the
--- client did not make reaches it on two paths (planls/stateChanged, then
--- planls/plan, for a sidebar; a publish or workspace/diagnostic/refresh,
--- then textDocument/diagnostic, for diagnostics) in either order, so a
--- screen is taken only once both have arrived. The server answers
--- textDocument/diagnostic from its current snapshot whether the client
--- pulls or is pushed its diagnostics. root_uri names the folder.
function H.settled(ms, client, buf, root_uri)
  local compat = require('planls.compat')
  local inflight, server, pending = false, nil, nil
  local function shown()
    local keys = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.source == 'planls' then
        table.insert(keys, diag_key(d.lnum, d.code, d.message))
      end
    end
    table.sort(keys)
    return keys
  end
  local function ask()
    inflight = true
    local got, plan = nil, nil
    local left = 2
    local function done()
      left = left - 1
      if left == 0 then
        server, pending, inflight = got, plan and plan.pending, false
      end
    end
    compat.request(client, 'planls/plan', { uri = root_uri }, function(err, res)
      plan = not err and res or { pending = true }
      done()
    end, buf)
    compat.request(client, 'textDocument/diagnostic', { textDocument = { uri = vim.uri_from_bufnr(buf) } },
      function(err, res)
        if not err and res and res.items then
          got = {}
          for _, d in ipairs(res.items) do
            if d.source == 'planls' then
              table.insert(got, diag_key(d.range.start.line, d.code, d.message))
            end
          end
          table.sort(got)
        end
        done()
      end, buf)
  end
  H.wait(ms, function()
    if server ~= nil and pending == false and vim.deep_equal(server, shown()) then
      return true
    end
    if not inflight then
      ask()
    end
    return false
  end, 'diagnostics settled', function()
    return 'server (pending ' .. tostring(pending) .. '): ' .. vim.inspect(server)
      .. '\nclient: ' .. vim.inspect(shown())
  end)
end

H.uv = uv

return H
