-- User options: defaults, merging and validation. setup() stores the merged
-- table here; every other module reads config.options.
local M = {}

--- Defaults. `settings` is sent to the server as documented in
--- docs/PROTOCOL.md ("Settings"); nil keys keep the server's defaults.
M.defaults = {
  -- Command that starts the language server (stdio).
  cmd = { 'planls', 'serve' },
  -- Filetypes whose buffers get the server when they are inside a project.
  filetypes = { 'markdown' },
  -- A directory holding one of these is a project root (nearest wins).
  root_markers = { '.planls', '.git', 'PLAN.md' },
  -- docs/PROTOCOL.md settings: planFiles, severity, fadeClosed.
  settings = {},
  -- Start the server automatically for matching buffers.
  autostart = true,
  -- Extra fields merged into the client config (handlers, on_attach, ...).
  lsp = {},
  sidebar = {
    position = 'left', -- 'left' or 'right'
    width = 44, -- columns
    -- ms without planls/stateChanged before the sidebar asks planls/plan
    -- again: typing in the plan redraws once you pause; 0 = every change.
    debounce = 200,
    -- Status glyphs: one display cell each in common fonts.
    glyphs = {
      pending = '○',
      in_progress = '◐',
      completed = '✓',
      deferred = '↷',
      blocked = '⊘',
      draft = '·',
    },
    -- Buffer-local keys of the sidebar; false disables one.
    keys = {
      complete = 'c',
      defer = 'd',
      start = 's',
      reopen = 'r',
      jump = '<CR>',
      refresh = 'R',
      help = '?',
      approve = 'A',
      close = 'q',
    },
  },
}

M.options = vim.deepcopy(M.defaults)

--- Merges user options over the defaults (lists are replaced, not merged)
--- and checks their types. Raises an error naming the bad key.
function M.set(user)
  user = user or {}
  -- Hand-rolled checks: vim.validate changed signature in 0.11.
  local kinds = {
    cmd = 'table',
    filetypes = 'table',
    root_markers = 'table',
    settings = 'table',
    autostart = 'boolean',
    lsp = 'table',
    sidebar = 'table',
  }
  if type(user) ~= 'table' then
    error('planls: setup() takes a table of options, got ' .. type(user))
  end
  for key, kind in pairs(kinds) do
    if user[key] ~= nil and type(user[key]) ~= kind then
      error(string.format('planls: option %s must be a %s, got %s', key, kind, type(user[key])))
    end
  end
  local merged = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), user)
  -- tbl_deep_extend merges list-like tables index by index; a user's shorter
  -- list must replace ours, not keep our tail.
  for _, key in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    if user[key] then
      merged[key] = vim.deepcopy(user[key])
    end
  end
  if merged.sidebar.position ~= 'left' and merged.sidebar.position ~= 'right' then
    error("planls: sidebar.position must be 'left' or 'right'")
  end
  local debounce = merged.sidebar.debounce
  if type(debounce) ~= 'number' or debounce < 0 then
    error('planls: sidebar.debounce must be a number of milliseconds >= 0, got ' .. tostring(debounce))
  end
  M.options = merged
  return merged
end

return M
