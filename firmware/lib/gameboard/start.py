"""How the board starts: its board map checked (or the checked copy read back), a start
that follows a crash counted, the hardware layer and the App built from them.

Imported by app.build and forgotten once the App stands, so its code takes no heap in play
(about 1.3 KB on a Pico, docs/architecture.md).
"""

import sys

import iago

from gameboard import survey
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
        hw = hardware()
    clock = getattr(hw, "clock", time)      # CircuitPython's time has no ticks
    root = root if root.endswith("/") else root + "/"
    bmap = checkedmap.load(map_path, root + "board-checked.json")
    if restart_after_check and checkedmap.kept_now:
        hw.soft_restart()            # never returns; the next start reads the copy
    checkedmap.forget()              # the map keeps only its tables
    report = None
    saves = getattr(hw, "saves", Saves)(root)
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
    from gameboard.app import App
    app = App(bmap, saves,
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

def parts(app, now, coin):
    """App.__init__'s heavy part: the game's controller with the saved game read back (and a
    save that cannot be read reported), the LED output and the host link. Returns
    (layout, controller, leds, link)."""
    from gameboard.app import FIRMWARE_VERSION
    from gameboard.controller import Controller
    from gameboard.layout import Layout
    from gameboard.leds import LedOutput
    from gameboard.link import Link
    boardmap = app.boardmap
    layout = Layout(boardmap.geometry, boardmap.size)
    settings, game, flips, problem = _load(app.saves, layout)
    ctl = Controller(settings, now, layout, coin)
    if game is not None:
        restore(ctl, game, flips)
    link = Link(ctl, app.saves, app.write,
                {"firmware": FIRMWARE_VERSION, "board": boardmap.name, "game": layout.game})
    if problem:
        link.send_event({"event": "save_error", "error": problem})
    link.selftest = app.start_selftest
    link.demo = app.start_demo
    return layout, ctl, LedOutput(boardmap, ctl.frame), link


def restore(ctl, game, flips_pending):
    """Resume a saved game in the Controller `ctl` after power-on: `flips_pending` lists cells
    still to turn."""
    from gameboard.settings import RULE_CHOICES
    ctl.game = game
    if ctl.layout.rules_name is None:
        # Iago's rules setting is their name without the penalty option, a setting of its own.
        rules = game.rules
        name = iago.Rules(rules.forced_capture, rules.release, rules.scoring).name()
        ctl.settings.rules = name if name in RULE_CHOICES else "standard"
        ctl.settings.penalty = rules.penalty
    ctl._game_changed()
    ctl.flips_of_last = False
    for c in flips_pending:
        ctl.view.face_ok[c] = 0
    ctl._emit({"event": "restored", "moves": game.ply(), "flips_pending": len(flips_pending)})


def controller(ctl, settings, now, layout, coin):
    """Controller.__init__'s work: the controller's state, by concern (its class names it)."""
    from gameboard.controller import _coin
    from gameboard.layout import hex_layout
    from gameboard.painter import NONE, STARTUP, BoardView
    from gameboard.settings import Settings
    ctl.layout = layout = layout or hex_layout()
    ctl.n = layout.cells
    ctl.coin = coin or _coin
    ctl.settings = settings or Settings()
    # What the LEDs show (painter.py). Its buffers are the controller's own (present,
    # frame; face_ok: 1 = the disk there shows the game's face; hint: the legal moves),
    # and so is the state the LEDs draw: `waiting` (an early disk on a legal hex, played
    # once the board is ready), `extra` (a disk refused), `chosen` (the engine's hex),
    # flash_cell and flash_colour (feedback on one hex), flash_fault, phase_since.
    view = ctl.view = BoardView(layout, ctl.settings)
    ctl.present = view.present      # debounced: 1 = a disk is on the hex
    ctl.frame = view.frame          # RGB in cell order, read by the LED output
    ctl.game = _new_board(ctl)      # the board of the game's rules module
    # 1 = closed at power-on where the saved game has no disk, or a disk the board asked
    # to remove (taken back, of an old game, the demo's stopping disk): never played
    # until it opens once.
    ctl.suspect = bytearray(ctl.n)
    ctl.phase = STARTUP             # STARTUP, PLAY, OVER (painter.py)
    view.phase_since = now
    # The placement: the last one until it has settled, and its flags. The flips
    # pending are the last placement's own (lifting its disk then takes it back), not
    # flips a take-back asked to undo (lifting it then is part of mending).
    ctl.tentative = NONE
    ctl.tentative_miss = False      # it missed a forced capture (penalty option)
    ctl.flips_of_last = False
    ctl.ready = False               # every hex agrees: the next placement may come
    ctl.setting_cell = NONE         # a disk resting on a settings hex
    # The engine (imported only when needed: it costs heap): the computer's move, or a
    # suggestion for the side to move (`suggesting`, also while lit), found in slices
    # between ticks; the hex it chose (view.chosen), lit in the mover's colour.
    ctl.search = None
    ctl.suggesting = False
    # Every disk of a game in progress lifted: the board asks for a new game, which a
    # disk held on the demo cell and lifted confirms (docs/board.md, "Gestures").
    ctl.asking = False
    ctl.demo_requested = False      # the app starts the demo (gameboard/demo.py)
    ctl.outbox = []                 # host-link events, drained by the app
    ctl.save_due = False            # the game or settings changed at a save point
    ctl.finished = None             # a finished game awaiting its record
    ctl.dirty = True
    ctl._game_changed()


def new_game(ctl, now, why, settings):
    """Controller.new_game's work: a new game, every disk on the board one of the old game
    (to lift, never played)."""
    from gameboard.painter import PLAY, STARTUP
    if settings is not None:
        ctl.settings = settings
    ctl.game = _new_board(ctl)
    ctl._no_placement(now)
    for c in range(ctl.n):
        ctl.view.face_ok[c] = 1
        if ctl.present[c]:
            ctl.suspect[c] = 1   # a disk of the old game: lifted, never played
    ctl._game_changed()
    if ctl.phase != STARTUP:
        ctl._enter(PLAY, now)
    ctl.save_due = True
    event = {"event": "new_game", "why": why, "rules": ctl.game.rules.name()}
    _first(ctl, event)
    ctl._emit(event)
    survey.try_place(ctl, now)


def change_settings(ctl, settings, now, event):
    """Controller.change_settings's work."""
    rules_change = (ctl.layout.rules_name is None and
                    settings.rules_object() != ctl.game.rules)
    if rules_change and ctl.game.ply():
        raise ValueError("rules can change only before the first placement (start a new game)")
    ctl.settings = settings
    if rules_change:
        ctl.game = _new_board(ctl)
        ctl._game_changed()
    ctl.save_due = True
    ctl.dirty = True
    event = event or {}
    event["event"] = "settings"
    event["settings"] = settings.as_dict()
    ctl._emit(event)
    survey.try_place(ctl, now)


def step_setting(ctl, cell, now):
    """A disk came to rest on the settings hex `cell` before the first placement: its
    setting steps, the hex flashes green (or red where the step is refused)."""
    from gameboard import palette
    which = ctl.layout.setting_at(cell)
    changed = ctl.settings.step(which)
    ctl.blink(cell, palette.SETTING_ON if changed else palette.ERROR, now)
    # The host hears which setting was stepped and its value now (the same if refused).
    change_settings(ctl, ctl.settings, now, {
        "name": which, "value": ctl.settings.as_dict()[which], "cell": ctl.name(cell)})


def _new_board(ctl):
    module = ctl.layout.module
    if module.Board.COIN_TOSS:
        return module.new_board(first=iago.LIGHT if ctl.coin() else iago.DARK)
    return ctl.layout.new_board(ctl.settings)


def startup(ctl, now):
    """The Controller `ctl` after the light check at power-on: play, or the end of a game
    finished before a power cut, and the `startup` event (what the switches show)."""
    from gameboard.painter import OVER, PLAY
    # A game whose last flips were still pending at a power cut goes on until they are done,
    # and then ends as any game does (game_over, its record).
    over = ctl.game.is_game_over() and not survey.pending(ctl)
    ctl._enter(OVER if over else PLAY, now)
    if over:
        ctl.finished = ctl.game.copy()   # its record, unless already kept
    cells = ctl.game.cell_states
    for c in range(ctl.n):
        ctl.suspect[c] = 1 if ctl.present[c] and not cells[c] else 0
    extra, missing, flips = ctl.differences()
    name = ctl.name
    event = {"event": "startup", "moves": ctl.game.ply(),
             "closed": [name(c) for c in range(ctl.n) if ctl.present[c]],
             "unexpected": [name(c) for c in extra],
             "missing": [name(c) for c in missing],
             "flips_pending": [name(c) for c in flips]}
    _first(ctl, event)
    ctl._emit(event)
    survey.try_place(ctl, now)


def _load(saves, layout):
    # Saves.load sets a damaged save aside and raises SaveError; anything else that
    # escapes it (no heap to read it) still starts a new game, reported, never a loop.
    from gameboard.settings import Settings
    try:
        loaded = saves.load(layout)
    except Exception as exc:
        return Settings(), None, [], str(exc) or exc.__class__.__name__
    if loaded is None:
        return Settings(), None, [], None
    settings, game, flips = loaded
    return settings, game, flips, None


def _first(ctl, event):
    """Before the first placement of a game with a coin toss: who it chose to place first."""
    if ctl.game.COIN_TOSS and not ctl.game.ply():
        event["first"] = iago.side_name(ctl.game.turn)
