-- planls with plain vim.lsp, no plugin (Neovim 0.7 and later). Starts
-- `planls serve` for markdown files in a project (.planls/ or .git above),
-- and asks for the evidence of "Complete #N…" and the reason of "Defer #N…"
-- (vim.lsp.commands runs before the command goes to the server). Actions
-- that already carry their value ("Complete #N with <commit>") go as they are.
local function send(ctx, command, arg)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local params = { command = command.command, arguments = { arg } }
  if vim.fn.has('nvim-0.11') == 1 then
    client:request('workspace/executeCommand', params, nil, ctx.bufnr)
  else
    client.request('workspace/executeCommand', params, nil, ctx.bufnr)
  end
end

local function asking(field, prompt)
  return function(command, ctx)
    local arg = vim.deepcopy((command.arguments or {})[1] or {})
    if type(arg[field]) == 'string' and vim.trim(arg[field]) ~= '' then
      return send(ctx, command, arg)
    end
    vim.ui.input({ prompt = prompt:format(tostring(arg.id)) }, function(answer)
      if answer and vim.trim(answer) ~= '' then
        arg[field] = answer
        send(ctx, command, arg)
      end
    end)
  end
end
vim.lsp.commands['planls.complete'] = asking('evidence', 'Evidence for #%s: ')
vim.lsp.commands['planls.defer'] = asking('reason', 'Reason to defer #%s: ')

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'markdown',
  callback = function(args)
    local file = vim.api.nvim_buf_get_name(args.buf)
    local marker = vim.fn.finddir('.planls', vim.fn.fnamemodify(file, ':p:h') .. ';')
    if marker == '' then
      marker = vim.fn.finddir('.git', vim.fn.fnamemodify(file, ':p:h') .. ';')
    end
    if marker == '' then
      return
    end
    local config = { name = 'planls', cmd = { 'planls', 'serve' }, root_dir = vim.fn.fnamemodify(marker, ':p:h:h') }
    if vim.fn.has('nvim-0.10') == 1 then
      vim.lsp.start(config, { bufnr = args.buf })
    elseif vim.lsp.start then -- 0.8, 0.9: attaches the current buffer
      vim.api.nvim_buf_call(args.buf, function()
        vim.lsp.start(config)
      end)
    else -- 0.7
      local id = vim.lsp.start_client(config)
      if id then
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end
  end,
})
