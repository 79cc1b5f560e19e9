"""A board's LEDs and disks as a host works them out from the board's `state` alone.

The host link reports the game, not the switches or the LEDs. The disks follow from the state
(every disk of the game but the missing ones, plus the extra ones), and the LED colours from
the firmware's own code run on the host: its controller holds the state, its referee
(gameboard/referee.py) reads those disks against the game as the board's did, and its painter
(gameboard/painter.py) and LED pipeline draw that reading.
The board's shape and game come from the state too (`layout_of`): the hex board's Iago, or
Othello and Io on a square board.
"""

import iago
from gameboard.controller import Controller
from gameboard.layout import Layout, hex_layout
from gameboard.leds import LedOutput
from gameboard.referee import OVER, PHASE_NAMES
from gameboard.settings import NAMES as SETTING_NAMES
from gameboard.settings import Settings

from host_sim.render import FACES, turned_faces
from host_sim.web import records


def layout_of(state):
    """The Layout (gameboard.layout) of the board a state comes from."""
    board = records.position_board(state)
    return hex_layout() if board.KIND == "hex" else Layout(board.KIND, board.grid.size)


def layout_dict(layout):
    """The board's shape and game as the page draws it (the snapshot's `layout`), with the
    hexes that step a setting before the first placement ({setting name: cell name}) and
    the one that starts the demo."""
    settings = {}
    for i in range(len(SETTING_NAMES)):
        if layout.setting_cells[i] < layout.cells:     # 255: the board has no such hex
            settings[SETTING_NAMES[i]] = layout.cell_name(layout.setting_cells[i])
    cells = range(layout.cells)
    shape = {"kind": layout.kind, "size": layout.size, "game": layout.game,
             "title": layout.module.TITLE, "cells": layout.cells,
             "names": [layout.cell_name(c) for c in cells],
             "side_names": records.side_names(layout.game), "settings": settings,
             "demo": layout.cell_name(layout.demo_cell),
             "corners": [layout.cell_name(c) for c in layout.corners]}
    shape.update(_geometry(layout))
    return shape


def _geometry(layout):
    """Where each cell lies, from the grid's own tables, so the page draws the board the
    firmware plays: `rows` and `columns` (the hex board's row 0-8 and number 1-9, a square
    board's rank and file from 0), the outer ring's and the centre's names (the hex board's
    areas; a square board has neither)."""
    cells = range(layout.cells)
    if layout.kind != "hex":
        size = layout.size
        return {"rows": [c // size for c in cells], "columns": [c % size for c in cells],
                "outer": [], "centre": None}
    grid = layout.grid
    return {"rows": [grid.ROW_OF[c] for c in cells], "columns": [grid.NUMBER_OF[c] for c in cells],
            "outer": [grid.cell_name(c) for c in grid.OUTER_RING],
            "centre": grid.cell_name(grid.CENTRE)}


def inferred_disks(state, layout=None):
    """{cell name: face} of the disks a state implies ("?" for a disk the game has not)."""
    if state.get("phase") == "demo":
        return {}                               # the demo plays on the LEDs alone
    if state.get("phase") == "selftest":        # no game: the switches closed, faces unknown
        return {name: "?" for name in state.get("closed") or ()}
    layout = layout or layout_of(state)
    board = records.position_board(state)
    turned = turned_faces(layout.flip)
    missing = set(state.get("missing") or ())
    turning = set(state.get("flips_pending") or ())
    disks = {}
    for cell in range(layout.cells):
        name = layout.cell_name(cell)
        face = FACES.get(board.cell(cell))
        if face is not None and name not in missing:
            disks[name] = turned[face] if name in turning else face
    for name in state.get("extra") or ():
        disks[name] = "?"
    if state.get("waiting"):
        disks[state["waiting"]] = "?"
    return disks


def derived_leds(state, bmap, now_ms, startup_ms=0, layout=None):
    """The wire colours (r, g, b), one a cell, the firmware shows for `state` at `now_ms`;
    all off during the self-test, whose lights follow its own clock, not the state."""
    if state.get("phase") == "selftest":
        return [(0, 0, 0)] * (layout.cells if layout else hex_layout().cells)
    layout = layout or layout_of(state)
    settings = Settings.from_dict(state["settings"])
    if state.get("phase") == "demo":
        from gameboard.demo import Demo
        ctl = Demo(settings, startup_ms, layout=layout)
        ctl.show(records.position_board(state))
        ctl.compose(now_ms)
        return _wire(ctl.frame, settings, bmap)
    board = reading(state, layout, settings, startup_ms)
    board.compose(now_ms)
    return _wire(board.frame, settings, bmap)


def reading(state, layout, settings, startup_ms=0):
    """The firmware's own Controller (gameboard/controller.py) holding a board's reported
    `state`: its game, the disks the state implies with their faces, the disk waiting its
    turn, whether the board is ready (legal moves are reported only then), read by its
    referee as the board read them; `compose(now)` paints what the board's LEDs show."""
    parse = layout.parse_cell
    board = Controller(settings, startup_ms, layout, coin=lambda: 0)
    try:
        game = records.board_of(state)          # with its history: the settings hexes
    except iago.IagoError:                      # light up only before the first placement
        game = records.position_board(state)
    board.restore(game, [parse(name) for name in state.get("flips_pending") or ()])
    referee = board.referee
    for name in inferred_disks(state, layout):
        referee.present[parse(name)] = 1
    if state.get("waiting"):
        referee.waiting = parse(state["waiting"])
    referee.enter(PHASE_NAMES.index(state["phase"]), startup_ms)    # read again
    referee.ready = bool(state.get("legal"))
    outcome = state.get("outcome")
    if outcome:
        board.view.winner = iago.DARK if outcome["winner"] == "dark" else iago.LIGHT
    return board


def _wire(frame, settings, bmap):
    leds = LedOutput(bmap, frame, settings.brightness_level())
    leds.render()
    scale = leds.scale
    return [tuple((leds.level(frame[c * 3 + i]) * scale) >> 12 for i in range(3))
            for c in range(len(frame) // 3)]


def score_numbers(game, layout):
    """[(side, what, number)] in the order the board shows them at the end (gameboard/archive.py,
    score): each side's inner and outer counts and score, or its count."""
    out = []
    for side in (iago.DARK, iago.LIGHT):
        if layout.kind == "hex" and game.rules.scoring == "product":
            inner, outer = game.area_counts(side)
            out += [(side, "inner", inner), (side, "outer", outer),
                    (side, "score", (inner or 1) * (outer or 1))]
        else:
            out.append((side, "score" if layout.kind == "hex" else "count", game.score(side)))
    return out


def score_screen(controller, now_ms):
    """What the LEDs of the game's `controller` show at `now_ms` of a finished game's score
    (its view.result, from gameboard/archive.py, since the game ended), for the page's
    caption: {"what": "winner"} on the first screen, else {"side", "what", "number", "digit":
    the digit lit or None between two, "place": its place in the number from 1, "digits"};
    None with no score shown."""
    result = controller.view.result
    if not result or controller.referee.phase != OVER:
        return None
    since = (now_ms - controller.referee.phase_since) % (result[2] * 100)
    k = 0
    while since >= (result[3 + k] & 0x7F) * 100:
        since -= (result[3 + k] & 0x7F) * 100
        k += 1
    if k == 0:
        return {"what": "winner"}
    for side, what, number in score_numbers(controller.game, controller.layout):
        digits = str(number)
        if k <= len(digits):
            return {"side": iago.side_name(side), "what": what, "number": number,
                    "digit": digits[k - 1] if since < 700 else None, "place": k,
                    "digits": len(digits)}
        k -= len(digits)
    return None
