-- Project root finding without vim.fs (0.8+): walk up from a path to the
-- nearest directory that holds any root marker.
local compat = require('planls.compat')

local M = {}

local function exists(path)
  return compat.uv.fs_stat(path) ~= nil
end

local function parent(dir)
  local p = vim.fn.fnamemodify(dir, ':h')
  if p == dir then
    return nil
  end
  return p
end

--- Nearest directory at or above `path` (a file or a directory, absolute or
--- relative to the cwd) that contains one of `markers`; nil when none does.
function M.find(path, markers)
  if path == nil or path == '' then
    return nil
  end
  local dir = vim.fn.fnamemodify(path, ':p')
  -- ':p' keeps a trailing slash on directories; strip it so ':h' goes up.
  if #dir > 1 then
    dir = dir:gsub('/+$', '')
  end
  local stat = compat.uv.fs_stat(dir)
  if not stat or stat.type ~= 'directory' then
    dir = vim.fn.fnamemodify(dir, ':h')
  end
  while dir do
    for _, m in ipairs(markers) do
      if exists(dir .. '/' .. m) then
        return dir
      end
    end
    dir = parent(dir)
  end
  return nil
end

--- Root for buffer `bufnr`: its file's project, or nil for unnamed,
--- non-file (scheme://) buffers and files outside any project.
function M.for_buf(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  return M.find(name, markers)
end

return M
