-- luacheck config for the plugin and its specs (test/run.sh runs it when
-- luacheck is installed).
std = 'luajit'
globals = { 'vim' }
max_line_length = 120
