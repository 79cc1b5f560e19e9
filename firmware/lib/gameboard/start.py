"""How the board starts: its board map checked (or the checked copy read back), a start
that follows a crash counted, the hardware layer and the App built from them.

Imported by app.build and forgotten once the App stands, so its code takes no heap in play
(about 1.3 KB on a Pico, docs/architecture.md).
"""

from gameboard import forget
from gameboard.saves import Saves

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_WATCHDOG_MS = const(4000)


def build(root, map_path, serial, coin, restart_after_check, hw):
    """app.build's work (see there)."""
    import time

    from gameboard import checkedmap
    if hw is None:
        from gameboard.app import hardware
        hw = hardware()
    clock = getattr(hw, "clock", time)      # CircuitPython's time has no ticks
    root = root if root.endswith("/") else root + "/"
    bmap = checkedmap.load(map_path, root + "board-checked.json")
    if restart_after_check and checkedmap.kept_now:
        hw.soft_restart()            # never returns; the next start reads the copy
    forget("gameboard.checkedmap", "gameboard.boardmap")   # the map keeps only its tables
    report = None
    if restart_after_check and hw.restarted():
        # After the map's check, so its soft restart does not count a start twice; before the
        # watchdog starts, which a fault would have to keep feeding.
        from gameboard import archive
        report = archive.count_restart(root)
        forget("gameboard.archive")
    buttons = None
    if bmap.buttons:
        # Bit 0 select, bit 1 confirm; a button the board lacks reads as never pressed.
        buttons = hw.Buttons([bmap.buttons.get("select"), bmap.buttons.get("confirm")])
    from gameboard.app import App
    app = App(bmap, getattr(hw, "saves", Saves)(root),
              hw.ReedMatrix(bmap.row_pins, bmap.col_pins),
              hw.Pixels(bmap.led_pin, len(bmap.led_of_cell), bmap.bpp), clock, serial,
              hw.Watchdog(_WATCHDOG_MS), buttons, coin)
    share = getattr(hw, "SEARCH_SHARE", 100)
    if share < 100:
        # An interpreter without viper searches slower: the top level's budget and the
        # nodes a tick shrink so a move still takes at most 2 s and a step stays short.
        layout = app.layout
        cap = layout.board_nodes[-1] * share // 100
        layout.board_nodes = tuple(  # type: ignore[assignment]  # the same five levels
            min(n, cap) for n in layout.board_nodes)
        layout.think_nodes = max(1, layout.think_nodes * share // 100)
    if report:
        app.link.send_event({"event": "save_error", "error": report})
    return app
