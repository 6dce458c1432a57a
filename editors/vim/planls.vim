" planls for Vim (8.2+, 9) and Neovim with ALE (Debian: vim-ale 3.3).
" Source it from your vimrc after ALE is on 'runtimepath', or copy it to
" ~/.vim/plugin/. It defines the `planls` LSP linter for markdown, shows the
" server's Info/Warning messages (ALE shows only errors by default), and adds
"   :PlanlsComplete {id} {evidence...}   complete plan item {id} with proof
"   :PlanlsDefer {id} {reason...}        defer it with a reason
" Without the text they ask for it; without an id they take the item of the
" planls diagnostic on the cursor line. Code actions (:ALECodeAction) offer
" the one-click "Complete #N with <commit>" too.

function! s:Root(buffer) abort
  let l:dir = fnamemodify(bufname(a:buffer), ':p:h')
  for l:marker in ['.planls', '.git']
    let l:found = finddir(l:marker, l:dir . ';')
    if !empty(l:found)
      return fnamemodify(l:found, ':p:h:h')
    endif
  endfor
  return ''
endfunction

call ale#linter#Define('markdown', {
\   'name': 'planls',
\   'lsp': 'stdio',
\   'executable': {b -> get(g:, 'planls_executable', 'planls')},
\   'command': '%e serve',
\   'project_root': function('s:Root'),
\})
let g:ale_lsp_show_message_severity = get(g:, 'ale_lsp_show_message_severity', 'information')

" The id of the planls diagnostic on the cursor line ("plan item #3 ...").
" An item gone from the file is reported where it used to be, on another
" item's line: its diagnostic is not that line's item.
function! s:IdAtCursor() abort
  for l:item in get(get(g:ale_buffer_info, bufnr(''), {}), 'loclist', [])
    if get(l:item, 'linter_name', '') is# 'planls' && l:item.lnum == line('.')
          \ && l:item.text !~# 'is missing from the plan file'
      let l:m = matchlist(l:item.text, '#\(\d\+\)')
      if !empty(l:m)
        return str2nr(l:m[1])
      endif
    endif
  endfor
  return 0
endfunction

function! s:Done(response) abort
  if has_key(a:response, 'error')
    echohl ErrorMsg | echomsg 'planls: ' . a:response.error.message | echohl None
    return
  endif
  let l:content = get(get(a:response, 'result', {}), 'content', [{}])
  echomsg 'planls: ' . get(l:content[0], 'text', 'done')
endfunction

function! s:Run(command, field, prompt, ...) abort
  let l:id = a:0 > 0 && a:1 =~# '^\d\+$' ? str2nr(a:1) : s:IdAtCursor()
  let l:words = a:0 > 0 && a:1 =~# '^\d\+$' ? a:000[1:] : a:000
  if l:id == 0
    echohl ErrorMsg | echomsg 'planls: no plan item here; pass its id' | echohl None
    return
  endif
  let l:value = join(l:words, ' ')
  if empty(trim(l:value))
    let l:value = input(printf(a:prompt, l:id))
  endif
  if empty(trim(l:value))
    echomsg 'planls: nothing changed (' . a:field . ' is required)'
    return
  endif
  let l:arg = {'id': l:id, 'uri': ale#path#ToFileURI(expand('%:p'))}
  let l:arg[a:field] = l:value
  call ale#lsp_linter#SendRequest(bufnr(''), 'planls',
  \   ale#lsp#message#ExecuteCommand(a:command, [l:arg]), function('s:Done'))
endfunction

command! -nargs=* PlanlsComplete call s:Run('planls.complete', 'evidence', 'Evidence for #%d: ', <f-args>)
command! -nargs=* PlanlsDefer call s:Run('planls.defer', 'reason', 'Reason to defer #%d: ', <f-args>)
