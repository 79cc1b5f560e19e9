"""The LED painter: what every hex shows, worked out from a `BoardView` alone.

A view is the little the LEDs depend on: the position, which hexes hold a disk, which disks
are still to turn, the legal moves if they are to glow, the phase and the odd marked hex. The
controller (gameboard/controller.py) keeps its own view up to date as it referees; a host that
knows only a board's reported `state` builds one from it (host_sim/web/ledview.py) and paints
the same colours. `compose(view, now)` writes view.frame and allocates nothing.
"""

import iago
from gameboard import elapsed, palette
from gameboard.settings import RULE_CHOICES

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from gameboard._ledkernel import paint
except (ImportError, SyntaxError):
    from gameboard._ledplain import paint

NONE = const(255)
# Phases (the controller's).
STARTUP = const(0)
PLAY = const(1)
OVER = const(2)
STARTUP_MS = const(900)      # the light check at power-on

FACE_COLOUR = bytes((palette.OFF, palette.DARK, palette.LIGHT, palette.OFF, palette.OFF,
                     palette.DARK_CAPTIVE, palette.LIGHT_CAPTIVE))
# Before a game, from 0: how the rules hex (A1) shows standard, loose, simple and
# loose+simple; from 4 the computer hex (B1): off, dark or light; from 7 the level hex (B6):
# levels 1-5, in no legal move's glow. One table: each global name stays interned on a Pico.
_SETTING_COLOURS = bytes((palette.SETTING_ON, palette.DARK, palette.LIGHT, palette.DARK_CAPTIVE,
                          palette.SETTING_OFF, palette.DARK, palette.LIGHT,
                          palette.SETTING_OFF, palette.DARK_CAPTIVE, palette.DARK,
                          palette.LIGHT, palette.SETTING_ON))
# Per-cell flags: a settings cell (or a square board's demo square: before the first
# placement neither is a placement), a corner (shows whose turn it is).
SETTINGS_HEX = const(1)
_CORNER = const(2)


def special_cells(layout):
    """The per-cell flags (SETTINGS_HEX, CORNER) of a layout."""
    out = bytearray(layout.cells)
    for c in layout.setting_cells:
        if c != NONE:
            out[c] |= SETTINGS_HEX
    if layout.reserved:
        out[layout.demo_cell] |= SETTINGS_HEX
    for c in layout.corners:
        out[c] |= _CORNER
    return bytes(out)


class BoardView:
    """What the LEDs show of a board, as data.

    game         the position (a board of the game's rules module)
    settings     gameboard.settings.Settings (palette, hints, the settings hexes' values)
    phase, phase_since   STARTUP, PLAY or OVER, and since when (ms)
    pregame      no placement yet: the settings hexes show their settings
    present      bytearray, 1 = a disk is on the hex
    face_ok      bytearray, 0 = the disk there is still to turn
    hint         bytearray, 1 = a legal move; shown only if show_hints
    hints_stale  `hint` is not yet made for the position now (the controller makes it)
    show_hints   hints are on and every hex agrees with the game; 2: the legal hexes in the
                 mover's disk colour, brighter, while a refused disk lies (hints on or off)
    waiting      a disk put down early on a legal hex, or NONE
    extra        the one disk where the game has none, refused as a placement while
                 everything else agrees (show_hints 2 says why), or NONE
    chosen       the computer's or a suggested hex, or NONE
    flash_cell, flash_colour   feedback on one hex (NONE: none), blinking fast; steady if
                 flash_colour has bit 7 set
    flash_fault  the flash cannot be written: a red pulse on the corners
    winner       the winning side once the game is over
    result       the score the LEDs show at the end, screen by screen (gameboard/archive.py,
                 `score`), or None: the winner's disks only
    """

    def __init__(self, layout, settings):
        n = layout.cells
        self.layout = layout
        self.special = special_cells(layout)
        self.settings = settings
        self.game = None
        self.phase = STARTUP
        self.phase_since = 0
        self.pregame = False
        self.present = bytearray(n)
        self.face_ok = bytearray(b"\x01" * n)
        self.hint = bytearray(n)
        self.hints_stale = True
        self.show_hints = 0
        self.waiting = NONE
        self.extra = NONE
        self.chosen = NONE
        self.flash_cell = NONE
        self.flash_colour = palette.OFF
        self.flash_fault = False
        self.winner = 0
        self.result = None
        self.frame = bytearray(n * 3)   # RGB in cell order, read by the LED output
        self.colours = bytearray(n)     # palette index per cell, painted into frame


def compose(view, now):
    """Write the LED frame for `now` into view.frame; no allocation."""
    frame = view.frame
    n = len(view.present)
    if view.phase == STARTUP:
        step = elapsed(now, view.phase_since) * 3 // STARTUP_MS
        for c in range(n):
            frame[c * 3] = 60 if step == 0 else 0
            frame[c * 3 + 1] = 60 if step == 1 else 0
            frame[c * 3 + 2] = 60 if step >= 2 else 0
        return
    game = view.game
    pal = palette.PALETTES[view.settings.palette]
    cells = game.cell_states
    present = view.present
    face_ok = view.face_ok
    slow = (now // 400) & 1
    fast = (now // 125) & 1
    turn_phase = now % 800 < 600
    # A corner shows whose turn it is by two short flashes of the mover's disk colour every
    # 1.5 s: nothing lit as long as a glance (0.2 s), so it never passes for a legal move's
    # steady glow (docs/board.md, "Telling the cues apart").
    pulse = now % 1500 < 100 or 200 <= now % 1500 < 300
    # The flash cannot be written: a red pulse between them.
    fault_pulse = view.flash_fault and 750 <= now % 1500 < 1000
    turn_hint = palette.HINT_DARK if game.turn == iago.DARK else palette.HINT_LIGHT
    show_hints = view.show_hints
    pregame = view.pregame
    over = view.phase == OVER
    colours = view.colours
    result = view.result if over else None
    flash = NONE if over else view.flash_cell
    winner = view.winner
    if result:
        # The score at the end: screen 0, who won, from the disks; the others as they are.
        since = elapsed(now, view.phase_since) // 100 % result[2]   # in tenths of a s
        k = 0
        while since >= result[3 + k] & 0x7F:
            since -= result[3 + k] & 0x7F
            k += 1
        if k:
            # A digit in the side's disk colour, the marks in the win colour (green): each
            # digit lit 0.7 s, then its marks alone (archive.score).
            lit = (palette.OFF if since >= 7 else
                   palette.LIGHT if result[3 + k] & 0x80 else palette.DARK)
            k = 3 + result[0] + (k - 1) * ((n + 3) >> 2)
            for c in range(n):
                v = result[k + (c >> 2)] >> ((c & 3) << 1) & 3
                colours[c] = lit if v == 1 else palette.WIN if v else palette.OFF
            paint(colours, pal, frame)
            return
        flash = result[1]                     # the centre that broke a tie
    # Everything the loop reads is a local: on a Pico each global or attribute lookup in
    # this loop costs about a millisecond a frame.
    off = palette.OFF
    error = palette.ERROR if fast else off
    face_colour = FACE_COLOUR
    special = view.special
    flip = view.layout.flip
    hint = view.hint
    chosen = view.chosen
    waiting_colour = face_colour[game.turn] if slow else off
    # The computer's (or a suggested) hex flickers between the mover's colour and the glow:
    # never darker than the legal moves around it, never steady like them.
    chosen_colour = face_colour[game.turn] if fast else turn_hint
    waiting = view.waiting
    lit = face_colour[game.turn] if show_hints == 2 else turn_hint     # a legal hex
    for c in range(n):
        v = cells[c]
        if v:
            target = face_colour[v]
            if not present[c]:
                # Lifted: show the face it must have when put back, blinking.
                colour = target if (slow or not face_ok[c]) else off
            elif not face_ok[c]:
                # "Turn this": mostly the face it must end with, briefly the other.
                colour = target if turn_phase else face_colour[v ^ flip]
            elif over:
                # Game over: the winner's disks green, the others blinking.
                colour = palette.WIN if v == winner else (target if slow else off)
            else:
                colour = target
        elif pregame and special[c] & SETTINGS_HEX and c != chosen:
            # Dark while a refused disk lies, but under a disk: only the hexes the mover may
            # take are lit steadily then.
            colour = _setting_colour(view, c) if show_hints != 2 or present[c] else off
        elif c == waiting:
            colour = waiting_colour     # the mover's colour, blinking: it waits its turn
        elif present[c]:
            colour = off if over else error
        elif c == chosen:
            colour = chosen_colour
        elif over:
            colour = off
        elif show_hints and hint[c]:
            colour = lit
        elif special[c] & _CORNER:
            colour = face_colour[game.turn] if pulse else (palette.ERROR if fault_pulse else off)
        else:
            colour = off
        if c == flash:
            if over:
                colour = palette.WIN if fast else target   # this disk broke a tie
            else:
                # Bit 7: steady (the new game's confirmation), else blinking fast.
                colour = view.flash_colour & 0x7F if fast or view.flash_colour & 0x80 else off
        colours[c] = colour
    paint(colours, pal, frame)


def _setting_colour(view, c):
    s = view.settings
    which = view.layout.setting_at(c)
    if which == "rules":
        return _SETTING_COLOURS[RULE_CHOICES.index(s.rules)]
    if which == "penalty":
        return palette.SETTING_ON if s.penalty else palette.SETTING_OFF
    if which == "hints":
        return palette.SETTING_ON if s.hints else palette.SETTING_OFF
    if which == "brightness":
        return palette.LIGHT
    if which == "palette":
        return palette.SETTING_ON if s.palette else palette.SETTING_OFF
    if which == "computer":
        return _SETTING_COLOURS[4 + s.computer_side()]
    if which == "level":
        return _SETTING_COLOURS[6 + s.level]
    return palette.OFF          # the demo square
