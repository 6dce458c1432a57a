-- :PlanlsSidebar: a scratch buffer in a vertical split showing the project's
-- plan (render.lua does the text). It follows one client (the project of
-- the buffer it was opened from), re-requests planls/plan once
-- planls/stateChanged notifications pause (sidebar.debounce), and keeps the
-- cursor on the same item across redraws.
local clientmod = require('planls.client')
local compat = require('planls.compat')
local config = require('planls.config')
local render = require('planls.render')

local M = {}

local ns = vim.api.nvim_create_namespace('planls_sidebar')

-- One sidebar per Neovim: its buffer, the client it shows, the last plan
-- (answered_by: the client that answered it) and rendering. seq drops
-- answers that a newer request overtook; timer is the debounced refresh
-- that planls/stateChanged (re)starts, and wanted the newest notification
-- it waits for ({client_id, params}; false when one of them cannot be
-- matched to an answer).
local S = {
  buf = nil,
  client_id = nil,
  root = nil,
  plan = nil,
  answered_by = nil,
  wanted = nil,
  error = nil,
  rendered = nil,
  show_help = false,
  seq = 0,
  timer = nil,
  due = false,
  gen = 0,
}

--- Number of completed redraws; tests wait on it changing.
M.draws = 0

--- Number of planls/plan requests sent; tests count them.
M.asked = 0

--- True when `bufnr` is the sidebar buffer.
function M.is_sidebar(bufnr)
  return S.buf ~= nil and bufnr == S.buf
end

--- The sidebar buffer or nil.
function M.buf()
  if S.buf and vim.api.nvim_buf_is_valid(S.buf) then
    return S.buf
  end
  return nil
end

--- The client the sidebar shows, restarted for its root when it stopped.
function M.client()
  local c = S.client_id and vim.lsp.get_client_by_id(S.client_id)
  if c and not compat.is_stopped(c) then
    return c
  end
  if S.root then
    c = clientmod.ensure(S.root)
    if c then
      S.client_id = c.id
    end
    return c
  end
  return nil
end

-- Windows of the current tab page showing the sidebar.
local function windows()
  local out = {}
  local b = M.buf()
  if not b then
    return out
  end
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(w) == b then
      table.insert(out, w)
    end
  end
  return out
end

--- True when the sidebar is visible in the current tab page.
function M.is_open()
  return #windows() > 0
end

--- The rendering entry ({id, key, item}) under the cursor of the sidebar
--- window, or nil.
function M.entry_at_cursor()
  local w = windows()[1]
  if not w or not S.rendered then
    return nil
  end
  local lnum = vim.api.nvim_win_get_cursor(w)[1]
  return S.rendered.items[lnum]
end

--- The last planls/plan result shown, or nil.
function M.plan()
  return S.plan
end

--- The lines of the sidebar buffer.
function M.lines()
  local b = M.buf()
  if not b then
    return {}
  end
  return vim.api.nvim_buf_get_lines(b, 0, -1, false)
end

-- Each line of rendering r with its highlights, as one string a line that
-- reads and is highlighted the same way matches.
local function line_keys(r)
  local keys = vim.list_slice(r.lines)
  for _, h in ipairs(r.highlights) do
    keys[h.line + 1] = keys[h.line + 1] .. '\0' .. h.col_start .. ':' .. h.col_end .. ':' .. h.group
  end
  return keys
end

local function draw()
  local b = M.buf()
  if not b then
    return
  end
  local opts = config.options.sidebar
  local wins = windows()
  -- Remember which item each window's cursor is on, to put it back there.
  local keep = {}
  for _, w in ipairs(wins) do
    local lnum = vim.api.nvim_win_get_cursor(w)[1]
    local entry = S.rendered and S.rendered.items[lnum]
    keep[w] = { key = entry and entry.key, lnum = lnum }
  end

  local r = render.render(S.plan, {
    glyphs = opts.glyphs,
    keys = opts.keys,
    show_help = S.show_help,
    error = S.error,
  })
  -- Only the lines between the first and the last that differ from the
  -- last drawing are written: typing in one item changes one line of a
  -- sidebar of hundreds, and writing them all with their extmarks was most
  -- of a redraw (a thousand extmarks at 200 items).
  r.keys = line_keys(r)
  local old = S.rendered and vim.api.nvim_buf_line_count(b) == #S.rendered.keys and S.rendered.keys
  S.rendered = r
  local first, old_last, last = 1, old and #old or vim.api.nvim_buf_line_count(b), #r.keys
  while old and first <= old_last and first <= last and old[first] == r.keys[first] do
    first = first + 1
  end
  while old and old_last >= first and last >= first and old[old_last] == r.keys[last] do
    old_last, last = old_last - 1, last - 1
  end
  if first <= old_last or first <= last then
    -- Cleared before the lines go, so no extmark of them is left behind.
    vim.api.nvim_buf_clear_namespace(b, ns, first - 1, old_last)
    vim.bo[b].modifiable = true
    vim.api.nvim_buf_set_lines(b, first - 1, old_last, false, vim.list_slice(r.lines, first, last))
    vim.bo[b].modifiable = false
    vim.bo[b].modified = false
    -- Extmarks rather than nvim_buf_add_highlight, which 0.11 deprecates.
    for _, h in ipairs(r.highlights) do
      if h.line >= first - 1 and h.line < last then
        vim.api.nvim_buf_set_extmark(b, ns, h.line, h.col_start, { end_col = h.col_end, hl_group = h.group })
      end
    end
  end

  for w, k in pairs(keep) do
    local target
    if k.key then
      for lnum = 1, #r.lines do
        local e = r.items[lnum]
        if e and e.key == k.key then
          target = lnum
          break
        end
      end
    end
    target = math.min(target or k.lnum, #r.lines)
    vim.api.nvim_win_set_cursor(w, { math.max(target, 1), 0 })
  end
  M.draws = M.draws + 1
end

-- True when `plan`, answered by client `by`, shows the change that
-- planls/stateChanged `params` of client `client_id` announced: the same
-- root at that revision or a later one (the server's revisions only rise).
local function shows(plan, by, client_id, params)
  return type(plan) == 'table' and by == client_id and params.root == plan.root
    and type(params.revision) == 'number' and type(plan.revision) == 'number'
    and params.revision <= plan.revision
end

-- Cancels the debounced refresh, if one is due.
local function cancel_due()
  S.due, S.wanted = false, nil
  if S.timer then
    S.timer:stop()
  end
end

--- Re-requests planls/plan now and redraws when the answer arrives; a
--- debounced refresh still due is dropped, as this answer covers it. Does
--- nothing while the sidebar buffer does not exist.
function M.refresh()
  cancel_due()
  if not M.buf() then
    return
  end
  local client = M.client()
  if not client then
    S.error = 'planls is not running for this project'
    draw()
    return
  end
  S.seq = S.seq + 1
  M.asked = M.asked + 1
  local seq = S.seq
  clientmod.request(client, 'planls/plan', { uri = clientmod.root_uri(client) }, function(err, result)
    if seq ~= S.seq or not M.buf() then
      return
    end
    if err then
      S.error = 'planls/plan failed: ' .. tostring(err.message or err)
    else
      S.error = nil
      S.plan, S.answered_by = result, client.id
      -- A notification handled while this was asked may announce what it
      -- shows already: its refresh would only draw the same plan again.
      if S.due and S.wanted and shows(result, client.id, S.wanted[1], S.wanted[2]) then
        cancel_due()
      end
    end
    draw()
  end)
end

--- Refreshes once `sidebar.debounce` ms (config) have passed without
--- another call: a burst of planls/stateChanged, one per keystroke while
--- the plan buffer is typed in, costs one planls/plan and one redraw after
--- the pause instead of one per keystroke, and the last call always gets its
--- refresh. A debounce of 0 refreshes at once.
function M.refresh_soon()
  local ms = tonumber(config.options.sidebar.debounce) or 0
  if ms <= 0 then
    M.refresh()
    return
  end
  if not S.timer then
    S.timer = compat.uv.new_timer()
  end
  S.timer:stop()
  S.due = true
  S.gen = S.gen + 1
  local gen = S.gen
  S.timer:start(ms, 0, vim.schedule_wrap(function()
    -- The timer fired, but a refresh() or a newer call may have come
    -- before this scheduled callback ran.
    if S.due and gen == S.gen then
      M.refresh()
    end
  end))
end

--- True while a debounced refresh (refresh_soon) is waiting to run.
function M.refresh_due()
  return S.due
end

-- The loaded buffer of `file` (an absolute path), or nil.
local function buf_for_file(file)
  local want = vim.fn.resolve(file)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      local name = vim.api.nvim_buf_get_name(b)
      if name ~= '' and vim.fn.resolve(name) == want then
        return b
      end
    end
  end
  return nil
end

-- Opens the file an evidence reference names (at its line) in the window
-- jump would use.
local function open_ref(ref)
  local ok, file = pcall(vim.uri_to_fname, ref.uri)
  if not ok then
    return
  end
  local side = vim.api.nvim_get_current_win()
  local prev = vim.fn.win_getid(vim.fn.winnr('#'))
  if prev ~= 0 and prev ~= side and vim.api.nvim_win_is_valid(prev) then
    vim.api.nvim_set_current_win(prev)
  else
    vim.cmd((config.options.sidebar.position == 'left' and 'botright' or 'topleft') .. ' vsplit')
  end
  local buf = buf_for_file(file)
  if buf then
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
  end
  local line = tonumber(render.val(ref.line)) or 0
  if line > 0 then
    vim.api.nvim_win_set_cursor(0, { math.min(line, vim.api.nvim_buf_line_count(0)), 0 })
  end
end

local function jump()
  local entry = M.entry_at_cursor()
  local plan = S.plan
  if not entry or not plan then
    return
  end
  if entry.ref and render.val(entry.ref.uri) and entry.ref.kind ~= 'url' then
    open_ref(entry.ref)
    return
  end
  local range = entry.item.range
  if range == nil or range == vim.NIL then
    vim.notify('planls: this item is no longer in the plan file', vim.log.levels.WARN)
    return
  end
  local file = vim.uri_to_fname(plan.planUri)
  local side = vim.api.nvim_get_current_win()
  local buf = buf_for_file(file)
  -- Prefer a window already showing the plan, then the previous window,
  -- then any other window; never :edit a loaded buffer (that reloads it,
  -- and fails on unsaved changes).
  local target
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if buf and vim.api.nvim_win_get_buf(w) == buf then
      target = w
      break
    end
  end
  if not target then
    local prev = vim.fn.win_getid(vim.fn.winnr('#'))
    if prev ~= 0 and prev ~= side and vim.api.nvim_win_is_valid(prev) then
      target = prev
    end
  end
  if not target then
    for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      if w ~= side and vim.api.nvim_win_get_buf(w) ~= S.buf then
        target = w
        break
      end
    end
  end
  if target then
    vim.api.nvim_set_current_win(target)
  else
    vim.cmd((config.options.sidebar.position == 'left' and 'botright' or 'topleft') .. ' vsplit')
  end
  if buf then
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
  end
  local line0 = range.start.line
  local lines = vim.api.nvim_buf_get_lines(0, line0, line0 + 1, false)
  local text = lines[1] or ''
  local col = range.start.character
  local client = M.client()
  if not (client and client.offset_encoding == 'utf-8') then
    col = compat.utf16_to_byte(text, col)
  end
  local last = vim.api.nvim_buf_line_count(0)
  vim.api.nvim_win_set_cursor(0, { math.min(line0 + 1, last), math.min(col, #text) })
end

local function item_verb(verb)
  return function()
    local entry = M.entry_at_cursor()
    if not entry or entry.id <= 0 then
      vim.notify('planls: no approved plan item on this line', vim.log.levels.WARN)
      return
    end
    require('planls.actions').item_command(verb, entry.id)
  end
end

local function set_keys(b)
  local keys = config.options.sidebar.keys
  local map = {
    complete = item_verb('complete'),
    defer = item_verb('defer'),
    start = item_verb('start'),
    reopen = item_verb('reopen'),
    jump = jump,
    refresh = M.refresh,
    approve = function()
      require('planls.actions').approve()
    end,
    help = function()
      S.show_help = not S.show_help
      draw()
    end,
    close = function()
      M.close()
    end,
  }
  for name, fn in pairs(map) do
    local lhs = keys[name]
    if lhs then
      vim.keymap.set('n', lhs, fn, { buffer = b, nowait = true, silent = true, desc = 'planls: ' .. name })
    end
  end
end

local function create_buf()
  local b = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(b, 'planls://sidebar')
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'hide'
  vim.bo[b].swapfile = false
  vim.bo[b].modifiable = false
  vim.bo[b].filetype = 'planls'
  set_keys(b)
  vim.api.nvim_create_autocmd('BufWipeout', {
    buffer = b,
    callback = function()
      cancel_due()
      S.buf, S.rendered = nil, nil
    end,
  })
  return b
end

--- Opens the sidebar for the project of the current buffer (or the cwd).
--- Returns true, or false and a message when there is no project.
function M.open()
  if M.is_open() then
    return true
  end
  local cur = vim.api.nvim_get_current_buf()
  if not M.is_sidebar(cur) then
    local client, msg = clientmod.get(cur)
    if not client then
      vim.notify(msg, vim.log.levels.ERROR)
      return false, msg
    end
    if client.id ~= S.client_id then
      S.plan, S.error = nil, nil
    end
    S.client_id, S.root = client.id, client.config.root_dir
  end
  local opts = config.options.sidebar
  if not M.buf() then
    S.buf = create_buf()
  end
  vim.cmd((opts.position == 'left' and 'topleft' or 'botright') .. ' vertical ' .. opts.width .. 'split')
  local w = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(w, S.buf)
  for opt, value in pairs({
    number = false,
    relativenumber = false,
    wrap = false,
    winfixwidth = true,
    signcolumn = 'no',
    foldcolumn = '0',
    spell = false,
    list = false,
    cursorline = true,
  }) do
    vim.wo[w][opt] = value
  end
  -- The sidebar keeps focus like other tree views; the window it was
  -- opened from becomes '#', the target of <CR>.
  draw()
  M.refresh()
  return true
end

--- Closes the sidebar windows of the current tab page (never the last
--- window of Neovim).
function M.close()
  for _, w in ipairs(windows()) do
    if #vim.api.nvim_tabpage_list_wins(0) > 1 then
      vim.api.nvim_win_close(w, false)
    end
  end
end

--- :PlanlsSidebar: opens or closes the sidebar.
function M.toggle()
  if M.is_open() then
    M.close()
  else
    M.open()
  end
end

--- Hooks the sidebar to planls/stateChanged of its client or root: the
--- server sends it whenever what planls/plan answers changes (an edit of
--- the plan buffer included), so the sidebar asks only then, and not for a
--- revision the plan it shows or is about to show already has.
function M.setup()
  clientmod.on_state_changed(function(client_id, params)
    if not M.buf() then
      return
    end
    local c = vim.lsp.get_client_by_id(client_id)
    local root = c and c.config.root_dir
    local from_root = params.root and params.root ~= vim.NIL and vim.uri_to_fname(params.root)
    if client_id == S.client_id or (S.root and (root == S.root or from_root == S.root)) then
      if shows(S.plan, S.answered_by, client_id, params) then
        return
      end
      -- The newest covers the older ones of its root only; with several
      -- roots waiting the refresh is never skipped.
      local w = S.wanted
      S.wanted = (w == nil or (w and w[1] == client_id and w[2].root == params.root)) and { client_id, params } or false
      M.refresh_soon()
    end
  end)
end

return M
