call remote#host#RegisterPlugin('claude-nvim', '0', [
\ {'type': 'autocmd', 'name': 'BufEnter', 'sync': 0, 'opts': {'eval': '{''buf'': bufnr(), ''path'': expand(''%:p''), ''buftype'': &buftype, ''mode'': mode(), ''cursor'': getpos(''.''), ''visual'': getpos(''v''), ''tick'': b:changedtick}', 'pattern': '*'}},
\ {'type': 'autocmd', 'name': 'CursorMoved', 'sync': 0, 'opts': {'eval': '{''buf'': bufnr(), ''path'': expand(''%:p''), ''buftype'': &buftype, ''mode'': mode(), ''cursor'': getpos(''.''), ''visual'': getpos(''v''), ''tick'': b:changedtick}', 'pattern': '*'}},
\ {'type': 'autocmd', 'name': 'CursorMovedI', 'sync': 0, 'opts': {'eval': '{''buf'': bufnr(), ''path'': expand(''%:p''), ''buftype'': &buftype, ''mode'': mode(), ''cursor'': getpos(''.''), ''visual'': getpos(''v''), ''tick'': b:changedtick}', 'pattern': '*'}},
\ {'type': 'autocmd', 'name': 'DiagnosticChanged', 'sync': 0, 'opts': {'eval': '{''path'': expand(''<afile>:p'')}', 'pattern': '*'}},
\ {'type': 'autocmd', 'name': 'DirChanged', 'sync': 0, 'opts': {'pattern': '*'}},
\ {'type': 'autocmd', 'name': 'ModeChanged', 'sync': 0, 'opts': {'eval': '{''buf'': bufnr(), ''path'': expand(''%:p''), ''buftype'': &buftype, ''mode'': mode(), ''cursor'': getpos(''.''), ''visual'': getpos(''v''), ''tick'': b:changedtick}', 'pattern': '*'}},
\ {'type': 'function', 'name': 'ClaudeHostDiffDone', 'sync': 0, 'opts': {}},
\ {'type': 'function', 'name': 'ClaudeHostMention', 'sync': 0, 'opts': {}},
\ {'type': 'function', 'name': 'ClaudeHostStart', 'sync': 1, 'opts': {}},
\ {'type': 'function', 'name': 'ClaudeHostStatus', 'sync': 1, 'opts': {}},
\ {'type': 'function', 'name': 'ClaudeHostStop', 'sync': 1, 'opts': {}},
\ {'type': 'function', 'name': 'ClaudeHostVersion', 'sync': 1, 'opts': {}},
\ ])
