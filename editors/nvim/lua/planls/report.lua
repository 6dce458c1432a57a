-- :PlanlsReport: the plan report of the current project. `html` (the
-- default) runs `planls report --open`: planls writes .planls/report.html
-- and opens it in the default browser ($BROWSER when set). `markdown`
-- shows `planls report --format markdown` in a scratch buffer. planls runs
-- as a job, so the editor never waits on it.
local config = require('planls.config')

local M = {}

--- The formats :PlanlsReport takes (completion).
M.formats = { 'html', 'markdown' }

--- The planls binary: the first word of the server command.
local function binary()
  local cmd = config.options.cmd
  return type(cmd) == 'table' and cmd[1] or 'planls'
end

local function notify(msg, level)
  vim.schedule(function()
    vim.notify(msg, level or vim.log.levels.INFO)
  end)
end

--- Runs `planls report` with args in root; cb(code, stdout, stderr), on the
--- main loop, with the output as one string each.
local function run(root, args, cb)
  local out, err = {}, {}
  local argv = { binary(), 'report', '--root', root }
  vim.list_extend(argv, args)
  local ok, job = pcall(vim.fn.jobstart, argv, {
    cwd = root,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      out = data or {}
    end,
    on_stderr = function(_, data)
      err = data or {}
    end,
    on_exit = function(_, code)
      vim.schedule(function()
        cb(code, vim.trim(table.concat(out, '\n')), vim.trim(table.concat(err, '\n')))
      end)
    end,
  })
  if not ok or job <= 0 then
    notify('planls: cannot run ' .. binary() .. ' (set cmd in setup())', vim.log.levels.ERROR)
  end
end

--- Shows text (the Markdown report) in a new scratch buffer in a split.
local function show_markdown(text, root)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'markdown'
  pcall(vim.api.nvim_buf_set_name, buf, 'planls://report/' .. vim.fn.fnamemodify(root, ':t') .. '.md')
  return buf
end

--- :PlanlsReport [html|markdown]. cb(result), for tests, gets
--- { code = exit code, text = what planls printed, buf = the Markdown buffer }.
function M.open(format, cb)
  format = (format == nil or format == '') and 'html' or format
  if format == 'md' then
    format = 'markdown'
  end
  if not vim.tbl_contains(M.formats, format) then
    notify('planls: :PlanlsReport takes html or markdown, not ' .. format, vim.log.levels.ERROR)
    return
  end
  local root = require('planls.client').root_for(vim.api.nvim_get_current_buf())
  if not root then
    local markers = table.concat(config.options.root_markers, ', ')
    notify('planls: no project here (none of ' .. markers .. ' above ' .. vim.fn.getcwd() .. ')', vim.log.levels.ERROR)
    return
  end
  local args = format == 'html' and { '--open' } or { '--format', 'markdown' }
  run(root, args, function(code, stdout, stderr)
    local res = { code = code, text = stdout }
    if code ~= 0 then
      notify('planls report: ' .. (stderr ~= '' and stderr or ('exit ' .. code)), vim.log.levels.ERROR)
    elseif format == 'markdown' then
      res.buf = show_markdown(stdout, root)
    else
      notify('planls: ' .. stdout .. ', opened in the browser')
    end
    if cb then
      cb(res)
    end
  end)
end

return M
