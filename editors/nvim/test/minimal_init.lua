-- Init for the headless specs: the plugin and the harness on the path,
-- filetype detection on, nothing from the user's config.
local dir = os.getenv('PLANLS_NVIM_DIR')
assert(dir and dir ~= '', 'PLANLS_NVIM_DIR is not set (run test/run.sh)')
vim.opt.runtimepath:prepend(dir)
package.path = dir .. '/test/?.lua;' .. package.path
vim.o.swapfile = false
vim.o.shadafile = 'NONE'
vim.cmd('filetype on')
