-- Highlight groups of the sidebar, linked with `default` to standard groups:
-- colour schemes style them without knowing planls, and a user's own
-- `:hi PlanlsX ...` wins. Only groups that exist on 0.7 are link targets
-- (DiagnosticOk, for one, is 0.10+).
local M = {}

M.links = {
  PlanlsTitle = 'Title',
  PlanlsCount = 'Number',
  PlanlsGroup = 'Directory',
  PlanlsId = 'Number',
  PlanlsSubject = 'Normal',
  PlanlsClosed = 'Comment',
  PlanlsOwner = 'Special',
  PlanlsDrift = 'WarningMsg',
  PlanlsLabel = 'Label',
  PlanlsDetail = 'Comment',
  PlanlsHint = 'Comment',
  PlanlsHelp = 'Comment',
  PlanlsWarning = 'WarningMsg',
  PlanlsError = 'ErrorMsg',
  PlanlsPending = 'DiagnosticInfo',
  PlanlsInProgress = 'DiagnosticWarn',
  PlanlsCompleted = 'String',
  PlanlsDeferred = 'Comment',
  PlanlsBlocked = 'DiagnosticError',
  PlanlsDraft = 'NonText',
  PlanlsVerified = 'String',
}

--- Defines the default links; safe to call again (after :colorscheme, which
--- clears them).
function M.apply()
  for group, target in pairs(M.links) do
    vim.cmd(string.format('highlight default link %s %s', group, target))
  end
end

--- Applies the links now and after every colour scheme change.
function M.setup()
  M.apply()
  local group = vim.api.nvim_create_augroup('planls_highlights', { clear = true })
  vim.api.nvim_create_autocmd('ColorScheme', { group = group, callback = M.apply })
end

return M
