-- planls for Neovim: starts `planls serve` for markdown buffers in a
-- project, prompts for evidence/reasons, shows the plan in a sidebar.
-- One-line setup: require("planls").setup({}). See :help planls.
local M = {}

local did_setup = false

local function item_cmd(verb)
  return function(o)
    local arg = vim.trim(o.args or '')
    require('planls.actions').item_command(verb, arg ~= '' and arg or nil)
  end
end

local function define_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('PlanlsSidebar', function()
    require('planls.sidebar').toggle()
  end, { desc = 'planls: toggle the plan sidebar' })
  cmd('PlanlsApprove', function()
    require('planls.actions').approve()
  end, { desc = 'planls: approve the plan' })
  cmd('PlanlsComplete', item_cmd('complete'), { nargs = '?', desc = 'planls: complete an item (asks for evidence)' })
  cmd('PlanlsDefer', item_cmd('defer'), { nargs = '?', desc = 'planls: defer an item (asks for a reason)' })
  cmd('PlanlsStart', item_cmd('start'), { nargs = '?', desc = 'planls: start an item' })
  cmd('PlanlsReopen', item_cmd('reopen'), { nargs = '?', desc = 'planls: reopen an item' })
  cmd('PlanlsStatus', function()
    require('planls.actions').status()
  end, { desc = 'planls: show the plan status' })
  cmd('PlanlsReport', function(o)
    require('planls.report').open(vim.trim(o.args or ''))
  end, {
    nargs = '?',
    complete = function()
      return require('planls.report').formats
    end,
    desc = 'planls: the plan report in the browser (html) or a buffer (markdown)',
  })
end

--- Configures the plugin (see :help planls-setup for `opts`) and starts the
--- server for matching buffers, including ones already open. Calling it
--- again replaces the options; clients already running keep theirs.
--- Builds the help tags of the plugin's doc/ when they are missing or older
--- than doc/planls.txt, so `:help planls` works without a `:helptags` step
--- (plugin managers build tags only for a plugin's top-level doc/, and this
--- one lives in editors/nvim). A doc/ that cannot be written is left alone:
--- `:helptags <dir>/doc` then does it.
local function ensure_helptags()
  local txt = vim.api.nvim_get_runtime_file('doc/planls.txt', false)[1]
  if not txt then
    return
  end
  local dir = vim.fn.fnamemodify(txt, ':h')
  local tags = dir .. '/tags'
  if vim.fn.getftime(tags) >= vim.fn.getftime(txt) and vim.fn.filereadable(tags) == 1 then
    return
  end
  if vim.fn.filewritable(dir) ~= 2 then
    return
  end
  pcall(vim.cmd, 'helptags ' .. vim.fn.fnameescape(dir))
end

function M.setup(opts)
  if vim.fn.has('nvim-0.7') ~= 1 then
    vim.notify('planls needs Neovim 0.7 or later', vim.log.levels.ERROR)
    return
  end
  require('planls.config').set(opts)
  ensure_helptags()
  require('planls.highlights').setup()
  require('planls.actions').register_lsp_commands()
  define_commands()
  if not did_setup then
    require('planls.sidebar').setup()
  end
  did_setup = true
  require('planls.client').enable()
end

--- Config for nvim-lspconfig or vim.lsp.start users who start the client
--- themselves: cmd, settings, init_options and the planls/stateChanged
--- handler (so the sidebar refreshes). Call setup() first for the options.
function M.lsp_config()
  return require('planls.client').base_config()
end

return M
