-- The plugin's documented setup (editors/nvim/README.md "Plain packages"),
-- for the matrix's nvim-plugin-* rows: the plugin on 'runtimepath', then
-- require("planls").setup({}).
vim.opt.rtp:append(os.getenv('PLANLS_REPO') .. '/editors/nvim')
require('planls').setup({})
