"""The board in a web page: `iago serve` (docs/web.md).

One process serves one board, the simulated one (`simdriver`, with `replay` and `ptylink`) or a
real one over its USB serial port (`serialdriver`, with `ledview`), to any number of pages:
`server` is the HTTP side (static page, JSON API, Server-Sent Events), `hub` fans the board's
state out to the pages, `api` checks what the pages send, `records` turns a board state into a
game record, `options` are the command line's.
"""
