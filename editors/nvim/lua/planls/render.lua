-- Pure rendering of a `planls/plan` result (docs/PROTOCOL.md) into sidebar
-- lines. No buffers, no LSP: the tests feed it fixture results and compare
-- against golden files.
local M = {}

local INDENT = '  '
local DETAIL = '      '

-- JSON null decodes to vim.NIL; treat it like an absent field.
local function val(v)
  if v == vim.NIL then
    return nil
  end
  return v
end
M.val = val

local function str(v)
  v = val(v)
  if v == nil then
    return ''
  end
  return tostring(v)
end

--- Glyph key for an item: blocked wins over pending/in_progress because it
--- says why the item cannot move.
function M.glyph_key(item)
  local status = str(item.status)
  if val(item.blocked) and (status == 'pending' or status == 'in_progress') then
    return 'blocked'
  end
  if status == '' then
    return 'pending'
  end
  return status
end

local glyph_groups = {
  pending = 'PlanlsPending',
  in_progress = 'PlanlsInProgress',
  completed = 'PlanlsCompleted',
  deferred = 'PlanlsDeferred',
  blocked = 'PlanlsBlocked',
  draft = 'PlanlsDraft',
}

--- Stable identity of an item across refreshes: its id, or for draft items
--- (id 0, plan not approved) its group and subject.
function M.item_key(item, group)
  local id = tonumber(val(item.id)) or 0
  if id > 0 then
    return 'id:' .. id
  end
  return 'draft:' .. str(group) .. '\0' .. str(item.subject)
end

local function new_builder()
  local b = { lines = {}, highlights = {}, items = {} }

  -- Appends one line made of {text, group|nil} segments; item (optional)
  -- is what the cursor on this line acts on.
  function b.line(segments, item)
    local parts, col = {}, 0
    for _, seg in ipairs(segments) do
      local text = seg[1]
      if seg[2] and #text > 0 then
        table.insert(b.highlights, { line = #b.lines, col_start = col, col_end = col + #text, group = seg[2] })
      end
      table.insert(parts, text)
      col = col + #text
    end
    table.insert(b.lines, table.concat(parts))
    if item then
      b.items[#b.lines] = item
    end
  end

  return b
end

-- Multi-line evidence or reason: first line after the label, the rest
-- aligned under it.
-- Splits on "\n"; vim.split costs ~0.2 ms a call on 0.7, which a sidebar of
-- hundreds of closed items feels.
local function split_lines(text)
  local out, start = {}, 1
  while true do
    local nl = text:find('\n', start, true)
    if not nl then
      table.insert(out, text:sub(start))
      return out
    end
    table.insert(out, text:sub(start, nl - 1))
    start = nl + 1
  end
end

local function detail(b, label, text, item)
  -- Trailing blank lines would render as padding only.
  local lines = split_lines((text:gsub('%s+$', '')))
  local pad = string.rep(' ', #label + 2)
  for i, l in ipairs(lines) do
    l = l:gsub('\r$', '')
    if i == 1 then
      b.line({ { DETAIL, nil }, { label .. ': ', 'PlanlsLabel' }, { l, 'PlanlsDetail' } }, item)
    else
      b.line({ { DETAIL .. pad, nil }, { l, 'PlanlsDetail' } }, item)
    end
  end
end

--- The table entries of list `v` (a decoded JSON array); anything else
--- (null, a string, an object's non-table values) yields nothing.
local function tables(v)
  v = val(v)
  local out = {}
  if type(v) ~= 'table' then
    return out
  end
  for _, x in ipairs(v) do
    if type(x) == 'table' then
      table.insert(out, x)
    end
  end
  return out
end
M.tables = tables

local function ids_text(ids)
  local parts = {}
  ids = val(ids)
  if type(ids) ~= 'table' then
    return ''
  end
  for _, id in ipairs(ids) do
    table.insert(parts, '#' .. tostring(id))
  end
  return table.concat(parts, ', ')
end

local function item_lines(b, item, group_name, opts)
  local gk = M.glyph_key(item)
  local approved = gk ~= 'draft'
  local glyph = opts.glyphs[gk] or '?'
  local subject = str(item.subject)
  -- gsub is not JIT-compiled; most subjects have no line break to cut.
  if subject:find('[\r\n]') then
    subject = subject:gsub('[\r\n].*$', '')
  end
  local closed = gk == 'completed' or gk == 'deferred'
  local entry = { id = tonumber(val(item.id)) or 0, key = M.item_key(item, group_name), item = item }

  local segs = { { INDENT, nil }, { glyph, glyph_groups[gk] }, { ' ', nil } }
  if approved and entry.id > 0 then
    table.insert(segs, { '#' .. entry.id, 'PlanlsId' })
    table.insert(segs, { ' ', nil })
  end
  table.insert(segs, { subject, closed and 'PlanlsClosed' or 'PlanlsSubject' })
  local owner = str(item.owner)
  if owner ~= '' then
    table.insert(segs, { ' @' .. owner, 'PlanlsOwner' })
  end
  local drift = str(item.drift)
  if drift ~= '' and drift ~= 'same' then
    table.insert(segs, { ' [' .. drift .. ']', 'PlanlsDrift' })
  end
  b.line(segs, entry)

  if gk == 'blocked' then
    b.line({ { DETAIL, nil }, { 'blocked by ', 'PlanlsLabel' }, { ids_text(item.blockedBy), 'PlanlsBlocked' } }, entry)
  end
  local active = str(item.activeForm)
  if gk == 'in_progress' and active ~= '' then
    b.line({ { DETAIL, nil }, { active, 'PlanlsDetail' } }, entry)
  end
  local evidence, reason = str(item.evidence), str(item.reason)
  if gk == 'completed' and evidence ~= '' then
    detail(b, 'evidence', evidence, entry)
    M.verify_lines(b, item, entry)
  elseif gk == 'deferred' and reason ~= '' then
    detail(b, 'reason', reason, entry)
  end
end

local verify_groups = { verified = 'PlanlsVerified', unverifiable = 'PlanlsWarning', failed = 'PlanlsError' }

--- A completed item's verification (planls/plan `verify`, `evidenceRefs`):
--- one `verify:` line, then one line per reference that leads somewhere
--- (a file opens with the jump key, a commit shows its subject and date).
--- Each reference line's entry carries `ref`, what jump opens.
function M.verify_lines(b, item, entry)
  local v = val(item.verify)
  if type(v) ~= 'table' then
    return
  end
  local state = str(v.state)
  local text = state
  if val(v.weak) then
    text = 'weak evidence (names nothing checkable)'
  elseif str(v.reason) ~= '' then
    text = state .. ': ' .. str(v.reason):gsub('[\r\n].*$', '')
  end
  b.line({ { DETAIL, nil }, { 'verify: ', 'PlanlsLabel' }, { text, verify_groups[state] or 'PlanlsDetail' } }, entry)
  for _, ref in ipairs(tables(item.evidenceRefs)) do
    local kind, label = str(ref.kind), nil
    local c = val(ref.commit)
    if type(c) == 'table' then
      local where = val(c.onHead) and 'HEAD' or ('branch ' .. str(c.branch))
      label = string.format('commit %s %s (%s, %s)', str(c.id):sub(1, 12), str(c.subject),
        str(c.date):sub(1, 10), where)
    elseif str(ref.uri) ~= '' and (kind == 'file' or kind == 'test') then
      label = kind .. ' ' .. str(ref.text):gsub('`', '')
    end
    if label then
      local ref_entry = { id = entry.id, key = entry.key, item = entry.item, ref = ref }
      local group = verify_groups[str(ref.state)] or 'PlanlsDetail'
      b.line({ { DETAIL .. '  → ', 'PlanlsHint' }, { label, group } }, ref_entry)
    end
  end
end

--- Help lines for the keys in `keys` (config sidebar.keys); disabled keys
--- are left out.
function M.help_lines(keys)
  local order = {
    { 'complete', 'complete (asks for evidence)' },
    { 'defer', 'defer (asks for a reason)' },
    { 'start', 'start' },
    { 'reopen', 'reopen' },
    { 'jump', 'jump to the item in the plan, or open an evidence file' },
    { 'approve', 'approve the plan' },
    { 'refresh', 'refresh' },
    { 'close', 'close' },
    { 'help', 'toggle this help' },
  }
  local out = {}
  for _, e in ipairs(order) do
    local k = keys[e[1]]
    if k then
      table.insert(out, string.format('%-6s %s', k, e[2]))
    end
  end
  return out
end

--- Renders `plan` (a decoded planls/plan result, or nil while loading).
--- opts: glyphs (config sidebar.glyphs), keys (sidebar.keys), show_help
--- (bool), error (string shown instead of the plan, e.g. a request error).
--- Returns {lines = string[], highlights = {line (0-based), col_start,
--- col_end (bytes, end exclusive), group}[], items = {[lnum (1-based)] =
--- {id, key, item}}}.
function M.render(plan, opts)
  local b = new_builder()
  local keys = opts.keys or {}

  if plan ~= nil and type(plan) ~= 'table' then
    -- A server of another version, or a broken answer: say so, never raise.
    opts = vim.tbl_extend('force', opts, { error = 'unexpected planls/plan result: ' .. type(plan) })
  end
  if opts.error then
    b.line({ { 'planls', 'PlanlsTitle' } })
    b.line({ { opts.error, 'PlanlsError' } })
  elseif plan == nil then
    b.line({ { 'planls', 'PlanlsTitle' } })
    b.line({ { 'loading…', 'PlanlsHint' } })
  elseif not val(plan.exists) then
    b.line({ { 'planls', 'PlanlsTitle' } })
    b.line({ { 'no plan file in this project', 'PlanlsHint' } })
  else
    local title = str(plan.title)
    b.line({ { title ~= '' and title or '(untitled plan)', 'PlanlsTitle' } })
    local open, total = tonumber(val(plan.open)) or 0, tonumber(val(plan.total)) or 0
    local file = ''
    local okf, fname = pcall(vim.uri_to_fname, str(plan.planUri))
    if okf then
      file = vim.fn.fnamemodify(fname, ':t')
    end
    if val(plan.approved) then
      b.line({ { string.format('%d/%d open', open, total), 'PlanlsCount' }, { ' · ' .. file, 'PlanlsHint' } })
    else
      b.line({ { 'not approved', 'PlanlsWarning' }, { ' · ' .. file, 'PlanlsHint' } })
    end
    if val(plan.needsReapproval) then
      b.line({ { 'the plan changed since approval', 'PlanlsWarning' } })
    end
    local serr = str(plan.stateError)
    if serr ~= '' then
      b.line({ { 'state error: ' .. serr, 'PlanlsError' } })
    end
    for _, g in ipairs(tables(plan.groups)) do
      local name = str(g.name)
      b.line({})
      if name ~= '' then
        b.line({ { name, 'PlanlsGroup' } })
      end
      for _, item in ipairs(tables(g.items)) do
        item_lines(b, item, name, opts)
      end
    end
  end

  b.line({})
  if opts.show_help then
    for _, l in ipairs(M.help_lines(keys)) do
      b.line({ { l, 'PlanlsHelp' } })
    end
  elseif keys.help then
    b.line({ { keys.help .. ' help', 'PlanlsHelp' } })
  end
  return { lines = b.lines, highlights = b.highlights, items = b.items }
end

--- Groups used by render, each linked by default to a standard group so
--- colour schemes apply (see highlights.lua).
M.groups = {
  'PlanlsTitle',
  'PlanlsCount',
  'PlanlsGroup',
  'PlanlsId',
  'PlanlsSubject',
  'PlanlsClosed',
  'PlanlsOwner',
  'PlanlsDrift',
  'PlanlsLabel',
  'PlanlsDetail',
  'PlanlsHint',
  'PlanlsHelp',
  'PlanlsWarning',
  'PlanlsError',
  'PlanlsPending',
  'PlanlsInProgress',
  'PlanlsCompleted',
  'PlanlsDeferred',
  'PlanlsBlocked',
  'PlanlsDraft',
  'PlanlsVerified',
}

return M
