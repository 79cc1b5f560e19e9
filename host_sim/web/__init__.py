"""The board in a web page: `iago serve` (docs/web.md).

One process serves one board, the simulated one (`simdriver`, with its parts `simlink`,
`simhands` and `simcontrols`, and `replay` and `ptylink`) or a real one over its USB serial port
(`serialdriver`, with `ledview`), to any number of pages; `driver` declares what every driver
(those two and the table's, `tabledriver`) answers, and builds the board snapshot once:
`server` is the HTTP side (static page, JSON API, Server-Sent Events), `hub` fans the board's
state out to the pages, `api` checks what the pages send, `records` turns a board state into a
game record, `options` are the command line's.
"""
