" Real-client matrix: Vim with Debian's vim-ale and editors/vim/planls.vim.
" Run by test/clients/run.sh as the vimrc: vim -N -u test/clients/ale.vim PLAN.md
" with PLANLS_WS, PLANLS_VIM, PLANLS_OUT, PLANLS_RC, PLANLS_BIN.
set nocompatible
let &runtimepath = '/usr/share/vim-ale,' . &runtimepath . ',/usr/share/vim-ale/after'
filetype plugin on
let g:ale_linters_explicit = 1
let g:ale_linters = {'markdown': ['planls']}
execute 'source' fnameescape($PLANLS_VIM)

let s:t0 = reltime()
let s:out = {'client': 'Vim ' . (v:version / 100) . '.' . (v:version % 100) . ' + ALE 3.3'}
function! s:Ms() abort
  return float2nr(reltimefloat(reltime(s:t0)) * 1000)
endfunction

function! s:OpenIds() abort
  let l:ids = []
  for l:item in ale#engine#GetLoclist(bufnr(''))
    if get(l:item, 'code', '') is# 'open-item'
      call add(l:ids, str2nr(matchlist(l:item.text, '#\(\d\+\)')[1]))
    endif
  endfor
  return join(sort(l:ids, 'n'), ',')
endfunction

function! s:Task(id) abort
  try
    let l:st = json_decode(join(readfile($PLANLS_WS . '/.planls/state.json'), "\n"))
  catch
    return {}
  endtry
  for l:t in l:st.tasks
    if l:t.id == a:id
      return l:t
    endif
  endfor
  return {}
endfunction

" Waits (Vim handles channel messages while it sleeps) until expr is true.
function! s:Wait(what, expr) abort
  let l:start = reltime()
  while !eval(a:expr)
    if reltimefloat(reltime(l:start)) > 10
      throw 'timed out waiting for ' . a:what
    endif
    sleep 10m
  endwhile
endfunction

function! s:Line(prefix) abort
  return search('^' . escape(a:prefix, '\.*[]~^$'), 'nw')
endfunction

function! PlanlsMatrixRun() abort
  try
    call s:Wait('7 open-item diagnostics', 's:OpenIds() is# "1,2,3,4,5,6,7"')
    let s:out.start_ms = s:Ms()
    let s:out.diagnostics = len(ale#engine#GetLoclist(bufnr('')))

    let l:t = s:Ms()
    PlanlsComplete 1 go test ./internal/ratelimit: ok
    call s:Wait('#1 completed', 's:OpenIds() is# "2,3,4,5,6,7"')
    let s:out.complete_ms = s:Ms() - l:t

    let l:t = s:Ms()
    " The id comes from the diagnostic on the cursor line.
    call cursor(s:Line('- Wire the limiter'), 1)
    PlanlsDefer the batch endpoint moves to the next plan
    call s:Wait('#2 deferred', 's:OpenIds() is# "3,4,5,6,7" && get(s:Task(2), "status", "") is# "deferred"')
    let s:out.defer_ms = s:Ms() - l:t

    let l:t = s:Ms()
    call system(join(map([$PLANLS_BIN, '--root', $PLANLS_WS, 'todo', 'complete', '3', '--evidence', 'config test: ok'], 'shellescape(v:val)')))
    call s:Wait('#3 gone after the CLI', 's:OpenIds() is# "4,5,6,7"')
    let s:out.cli_ms = s:Ms() - l:t

    " ALE has no shutdown request: :ALEStopAllLSPs stops the job.
    let l:t = s:Ms()
    ALEStopAllLSPs
    call s:Wait('the server to exit', 'filereadable($PLANLS_RC)')
    let s:out.shutdown_ms = s:Ms() - l:t
    let s:out.server_rc = str2nr(readfile($PLANLS_RC)[0])
    let s:out.no_shutdown_request = v:true
    let s:out.ok = v:true
  catch
    let s:out.ok = v:false
    let s:out.error = v:exception . ' at ' . v:throwpoint
  endtry
  call writefile([json_encode(s:out)], $PLANLS_OUT)
  if s:out.ok
    qall!
  endif
  cquit!
endfunction

" run.sh: vim -N -es -u ale.vim -c "call PlanlsMatrixRun()" PLAN.md (Ex mode: no terminal)
