-- Checking an item id the user typed before asking for evidence or a reason.
-- The server runs planls.complete/defer/start/reopen only on a task of the
-- state that is not deleted (lsp/commands.go cmdStatus; docs/PROTOCOL.md
-- "Commands"): prompting first would throw the user's answer away on a
-- "plan item #99 is gone" error.
local clientmod = require('planls.client')

local M = {}

-- JSON null (vim.NIL) read as an absent field.
local val = require('planls.render').val

local function tables(v)
  return require('planls.render').tables(v)
end

--- True when `plan` (a planls/plan result, or nil) lists a tracked item
--- whose id is `id` (a positive integer). Draft items (id 0) never match.
function M.plan_has(plan, id)
  if type(plan) ~= 'table' or type(id) ~= 'number' or id < 1 then
    return false
  end
  for _, g in ipairs(tables(plan.groups)) do
    for _, item in ipairs(tables(g.items)) do
      if tonumber(val(item.id)) == id then
        return true
      end
    end
  end
  return false
end

--- The message for a task the state holds only as a tombstone, worded like
--- the seed's `blockedBy: #<dep> is deleted`. A plan item is never deleted:
--- its tombstone means a re-approval dropped it, and the message says so
--- (`todo list` reads `[removed by re-approval]`).
function M.deleted(id, source)
  if source == 'plan' then
    return string.format('#%d left the plan (removed by re-approval)', id)
  end
  return string.format('#%d is deleted', id)
end

-- The state's task `id` in a todo envelope's details.tasks, or nil.
local function task_in(result, id)
  local details = type(result) == 'table' and val(result.details) or nil
  if type(details) ~= 'table' then
    return nil
  end
  for _, t in ipairs(tables(details.tasks)) do
    if tonumber(val(t.id)) == id then
      return t
    end
  end
  return nil
end

--- Calls ok() when `client`'s server would run a status command on item
--- `id` (a positive integer); otherwise reports why with one
--- vim.notify(..., ERROR) and never calls ok(). `plan` is a planls/plan
--- result of the client's project already at hand, or nil: an id it lists
--- is accepted at once, with no request, so a prompt opened by ok() stays
--- in the same event-loop turn as the key that asked for it. Any other id
--- is looked up with the read-only todo `get` (planls.todo): tasks created
--- with the todo tool are not in planls/plan, yet the commands accept them.
function M.check(client, id, plan, ok)
  if M.plan_has(plan, id) then
    return ok()
  end
  local arg = { params = { action = 'get', id = id }, uri = clientmod.root_uri(client) }
  local params = { command = 'planls.todo', arguments = { arg } }
  clientmod.request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify('planls: ' .. tostring(err.message or err), vim.log.levels.ERROR)
      return
    end
    local details = type(result) == 'table' and val(result.details) or nil
    local failed = type(details) == 'table' and val(details.error)
    if failed ~= nil and failed ~= false and failed ~= '' then
      -- The seed's own wording (`#<id> not found`), as the CLI prints it.
      vim.notify('planls: ' .. tostring(failed), vim.log.levels.ERROR)
      return
    end
    local t = task_in(result, id)
    if t and val(t.status) == 'deleted' then
      vim.notify('planls: ' .. M.deleted(id, val(t.source)), vim.log.levels.ERROR)
      return
    end
    ok()
  end)
end

return M
