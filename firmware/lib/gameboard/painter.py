"""The LED painter: what every hex shows, from the referee's reading of the disks and a
`BoardView` of the few marks the table adds.

The referee (gameboard/referee.py) says what the disks say: the position, and per hex whether
its disk agrees, is to turn, is lifted, extra or waiting, which hexes are legal, the phase.
The view holds only what else is drawn: the settings, the flash on one hex, the flash fault,
the winner and the score at the end. A host that knows only a board's reported `state` reads
it into a referee of its own (host_sim/web/ledview.py) and paints the same colours.
`compose(view, referee, now)` writes view.frame and allocates nothing.
"""

import iago
from gameboard import NO_CELL, elapsed, palette
from gameboard.layout import CORNER
from gameboard.referee import (AGREES, EMPTY, LIFTED, OVER, RESERVED, STARTUP, STARTUP_MS,
                               TURNING, WAITING)
from gameboard.settings import RULE_CHOICES

try:
    from gameboard._ledkernel import paint
except (ImportError, SyntaxError):
    from gameboard._ledplain import paint

FACE_COLOUR = bytes((palette.OFF, palette.DARK, palette.LIGHT, palette.OFF, palette.OFF,
                     palette.DARK_CAPTIVE, palette.LIGHT_CAPTIVE))
# Before a game, from 0: how the rules hex (A1) shows standard, loose, simple and
# loose+simple; from 4 the computer hex (B1): off, dark or light; from 7 the level hex (B6):
# levels 1-5, in no legal move's glow.
_SETTING_COLOURS = bytes((palette.SETTING_ON, palette.DARK, palette.LIGHT, palette.DARK_CAPTIVE,
                          palette.SETTING_OFF, palette.DARK, palette.LIGHT,
                          palette.SETTING_OFF, palette.DARK_CAPTIVE, palette.DARK,
                          palette.LIGHT, palette.SETTING_ON))


class BoardView:
    """What the LEDs show besides the referee's reading, as data.

    settings     gameboard.settings.Settings (palette, hints, the settings hexes' values)
    flash_cell, flash_colour   feedback on one hex (NO_CELL: none), blinking fast; steady if
                 flash_colour has bit 7 set
    flash_fault  the flash cannot be written: a red pulse on the corners
    winner       the winning side once the game is over
    result       the score the LEDs show at the end, screen by screen (gameboard/archive.py,
                 `score`), or None: the winner's disks only
    frame        RGB in cell order, read by the LED output; colours: a palette index a hex
    """

    def __init__(self, layout, settings):
        n = layout.cells
        self.layout = layout
        self.settings = settings
        self.flash_cell = NO_CELL
        self.flash_colour = palette.OFF
        self.flash_fault = False
        self.winner = 0
        self.result = None
        self.frame = bytearray(n * 3)
        self.colours = bytearray(n)


def compose(view, referee, now):
    """Write the LED frame for `now` into view.frame; no allocation."""
    frame = view.frame
    colours = view.colours
    n = len(colours)
    phase = referee.phase
    if phase == STARTUP:
        step = elapsed(now, referee.phase_since) * 3 // STARTUP_MS
        for c in range(n):
            frame[c * 3] = 60 if step == 0 else 0
            frame[c * 3 + 1] = 60 if step == 1 else 0
            frame[c * 3 + 2] = 60 if step >= 2 else 0
        return
    game = referee.game
    settings = view.settings
    pal = palette.PALETTES[settings.palette]
    cells = game.cell_states
    disks = referee.disks
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
    # The legal hexes glow if hints are on and every hex agrees; while a disk is refused
    # (2) they show in the mover's disk colour, brighter, hints on or off: the reason.
    show_hints = 2 if referee.refused != NO_CELL else settings.hints and referee.ready
    hint = referee.fresh_legal() if show_hints else referee.legal   # read only if shown
    over = phase == OVER
    result = view.result if over else None
    flash = NO_CELL if over else view.flash_cell
    winner = view.winner
    if result:
        # The score at the end: screen 0, who won, from the disks; the others as they are.
        since = elapsed(now, referee.phase_since) // 100 % result[2]   # in tenths of a s
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
    flags = view.layout.flags
    flip = view.layout.flip
    chosen = referee.chosen
    waiting_colour = face_colour[game.turn] if slow else off
    # The computer's (or a suggested) hex flickers between the mover's colour and the glow:
    # never darker than the legal moves around it, never steady like them.
    chosen_colour = face_colour[game.turn] if fast else turn_hint
    lit = face_colour[game.turn] if show_hints == 2 else turn_hint     # a legal hex
    # Branches by the referee's reading, the commonest first: an empty hex, then the game's
    # disks (AGREES ... TURNING are 1-4).
    for c in range(n):
        k = disks[c]
        if k == EMPTY:
            if c == chosen:
                colour = chosen_colour
            elif over:
                colour = off
            elif show_hints and hint[c]:
                colour = lit
            elif flags[c] & CORNER:
                colour = face_colour[game.turn] if pulse else (palette.ERROR if fault_pulse
                                                               else off)
            else:
                colour = off
        elif k <= TURNING:
            v = cells[c]
            target = face_colour[v]
            if k == AGREES:
                # Game over: the winner's disks green, the others blinking.
                colour = ((palette.WIN if v == winner else (target if slow else off)) if over
                          else target)
            elif k == LIFTED:
                colour = target if slow else off  # the face it must have when put back
            elif k == TURNING:
                colour = target
            else:
                # "Turn this": mostly the face it must end with, briefly the other.
                colour = target if turn_phase else face_colour[v ^ flip]
        elif k >= RESERVED:
            # A settings hex before the first placement. Dark while a refused disk lies, but
            # under a disk: only the hexes the mover may take are lit steadily then.
            colour = _setting_colour(view, c) if show_hints != 2 or k == RESERVED else off
        elif k == WAITING:
            colour = waiting_colour     # the mover's colour, blinking: it waits its turn
        else:                           # EXTRA
            colour = off if over else error
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
