"""How the board starts: its board map checked (or the checked copy read back), the saves
(on the FRAM if one answers), a start that follows a crash counted, the hardware layer of the
running interpreter, the App built from them and the saved game it reads back.

Imported by app.build and app.main, and forgotten once the App stands: its code is needed
only at power-on.
"""

import sys

from gameboard.saves import Saves

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_WATCHDOG_MS = const(4000)


def build(App, root, map_path, serial, coin, restart_after_check, hw):
    """app.build's work (see there); `App`, the class it builds."""
    import time

    from gameboard import checkedmap
    if hw is None:
        hw = hardware()
    clock = getattr(hw, "clock", time)      # CircuitPython's time has no ticks
    root = root if root.endswith("/") else root + "/"
    bmap = checkedmap.load(map_path, root + "board-checked.json")
    if restart_after_check and checkedmap.kept_now:
        hw.soft_restart()            # never returns; the next start reads the copy
    checkedmap.forget()              # the map keeps only its tables
    report = None
    saves = getattr(hw, "saves", Saves)(root)
    fram = hw.fram(bmap.fram)
    if fram is not None:
        # The game in progress on the FRAM, the rest on the flash (gameboard/framsaves.py).
        from gameboard.framsaves import FramSaves
        saves = FramSaves(saves, fram)
    if restart_after_check and hw.restarted():
        # After the map's check, so its soft restart does not count a start twice; before the
        # watchdog starts, which a fault would have to keep feeding.
        from gameboard import archive
        report = archive.count_restart(saves)
        archive.forget()
    buttons = None
    if bmap.buttons:
        # Bit 0 select, bit 1 confirm; a button the board lacks reads as never pressed.
        buttons = hw.Buttons([bmap.buttons.get("select"), bmap.buttons.get("confirm")])
    app = App(bmap, saves,
              hw.ReedMatrix(bmap.row_pins, bmap.col_pins),
              hw.Pixels(bmap.led_pin, len(bmap.led_of_cell), bmap.bpp), clock, serial,
              hw.Watchdog(_WATCHDOG_MS), buttons, coin)
    app.layout.share_search(getattr(hw, "SEARCH_SHARE", 100))
    if report:
        app.link.send_event({"event": "save_error", "error": report})
    return app


def hardware():
    """The hardware layer of the running implementation: gameboard.cphw on CircuitPython,
    gameboard.hw on MicroPython (and on the host's fakes of it). On CircuitPython it is also
    bound as gameboard.hw, for the modules that name that one (archive's fault)."""
    if sys.implementation.name == "circuitpython":
        import gameboard
        from gameboard import cphw
        sys.modules["gameboard.hw"] = cphw
        gameboard.hw = cphw  # type: ignore[attr-defined]
        return cphw
    from gameboard import hw
    return hw


def serial(hw):
    """The host link's port: the hardware layer's own (CircuitPython's usb_cdc.data), else
    MicroPython's USB serial."""
    if hasattr(hw, "UsbSerial"):
        return hw.UsbSerial()
    from gameboard.usbserial import UsbSerial
    return UsbSerial()


def saved_game(saves, layout):
    """(settings, game or None, flips pending, why it could not be read or None), for the App.
    Saves.load sets a damaged save aside and raises SaveError; anything else that escapes it
    (no heap to read it) still starts a new game, reported, never a loop."""
    from gameboard.settings import Settings
    try:
        loaded = saves.load(layout)
    except Exception as exc:
        return Settings(), None, [], str(exc) or exc.__class__.__name__
    if loaded is None:
        return Settings(), None, [], None
    settings, game, flips = loaded
    return settings, game, flips, None
