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
function M.setup(opts)
  if vim.fn.has('nvim-0.7') ~= 1 then
    vim.notify('planls needs Neovim 0.7 or later', vim.log.levels.ERROR)
    return
  end
  require('planls.config').set(opts)
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
