"""A board's LEDs and disks as a host works them out from the board's `state` alone.

The host link reports the game, not the switches or the LEDs. The disks follow from the state
(every disk of the game but the missing ones, plus the extra ones), and the LED colours from
the firmware's own Controller.compose() and LED pipeline, run on the host with that state.
"""

import iago
from gameboard import controller as ctl_module
from gameboard.leds import LedOutput
from gameboard.settings import Settings
from iago import hexgrid

from host_sim.web import records

_FACE = {iago.DARK: "D", iago.LIGHT: "L", iago.DARK_CAPTIVE: "d", iago.LIGHT_CAPTIVE: "l"}
_FLIPPED = {"D": "d", "d": "D", "L": "l", "l": "L"}


def inferred_disks(state):
    """{cell name: face} of the disks a state implies ("?" for a disk the game has not)."""
    if state.get("phase") == "demo":
        return {}                               # the demo plays on the LEDs alone
    board = iago.Board(state["position"], iago.Rules.parse(state["rules"]))
    missing = set(state.get("missing") or ())
    turning = set(state.get("flips_pending") or ())
    disks = {}
    for cell in range(hexgrid.CELLS):
        name = iago.cell_name(cell)
        face = _FACE.get(board.cell(cell))
        if face is not None and name not in missing:
            disks[name] = _FLIPPED[face] if name in turning else face
    for name in state.get("extra") or ():
        disks[name] = "?"
    return disks


def derived_leds(state, bmap, now_ms, startup_ms=0):
    """The 61 (r, g, b) wire colours the firmware shows for `state` at `now_ms`."""
    settings = Settings.from_dict(state["settings"])
    if state.get("phase") == "demo":
        from gameboard.demo import Demo
        ctl = Demo(settings, startup_ms)
        ctl.game = iago.Board(state["position"], iago.Rules.parse(state["rules"]))
        ctl.stage = -1                          # between placements: the disks only
        return _wire(ctl, settings, bmap, now_ms)
    ctl = ctl_module.Controller(settings, startup_ms)
    try:
        ctl.game = records.board_of(state)      # with its history: the settings hexes
    except iago.IagoError:                      # light up only before the first placement
        ctl.game = iago.Board(state["position"], iago.Rules.parse(state["rules"]))
    ctl.phase = ctl_module.PHASE_NAMES.index(state["phase"])
    ctl.phase_since = startup_ms
    for name, face in inferred_disks(state).items():
        ctl.present[iago.parse_cell(name)] = 1
    ctl._game_changed()
    for c in range(hexgrid.CELLS):
        ctl.hint[c] = 0
    for name in state.get("legal") or ():
        ctl.hint[iago.parse_cell(name)] = 1
    ctl.hints_stale = False                     # the board's own legal moves, as reported
    for name in state.get("flips_pending") or ():
        ctl.face_ok[iago.parse_cell(name)] = 0
    if state.get("tentative"):
        ctl.tentative = iago.parse_cell(state["tentative"])
    outcome = state.get("outcome")
    if outcome:
        ctl.winner = iago.DARK if outcome["winner"] == "dark" else iago.LIGHT
    return _wire(ctl, settings, bmap, now_ms)


def _wire(ctl, settings, bmap, now_ms):
    ctl.compose(now_ms)
    leds = LedOutput(bmap, ctl.frame, settings.brightness_level())
    leds.render()
    scale = leds.scale
    frame = ctl.frame
    return [tuple((leds.level(frame[c * 3 + i]) * scale) >> 12 for i in range(3))
            for c in range(hexgrid.CELLS)]
