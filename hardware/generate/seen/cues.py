"""Every cue the LEDs give in play, measured (docs/board.md, "Telling the cues apart").

A cue is what one hex shows to tell the players something: whose turn it is, a legal move, the
computer's choice, a disk waiting, refused, to turn, to put back... Each is painted here by the
firmware's own controller, referee and painter (gameboard/painter.py) on a board as it stands
when the cue shows (a
`situation`: every cue lit on it can be lit at once), its hex sampled every 25 ms over 12 s
(a whole number of every pattern's period), and its colours read as the eye sees the LED at
each brightness setting, for both palettes (gameboard/palette.py; the colour-blind one also as
a player with red-green colour blindness sees it): hardware/generate/seen/eye.py.

Two cues lit at once are told apart at a glance when
- a disk lies on the hex of one and not of the other (on the table and on the page); or
- their timing differs, except where it cannot help: a cue that is steady has nothing but its
  colour, so any colour another cue holds for a glance (GLANCE_MS) or longer is compared with
  it (the turn corners of old pulsed 250 ms in the legal moves' glow, and players placed
  there); or
- their colours differ by at least MIN_DELTA_E (CIEDE2000) in the worst reading, where they
  share a timing (the same phases, each within a third of the other's length), in the phase
  where they differ most.
`clashes` lists every pair that fails; tests/test_cues.py holds it empty.
"""

import random

import iago
from gameboard import NO_CELL, palette
from gameboard.controller import Controller
from gameboard.layout import Layout, hex_layout
from gameboard.referee import OVER, PLAY
from gameboard.settings import CHOICES, NAMES, Settings

from hardware.generate.seen import eye

STEP_MS = 25
SPAN_MS = 12000            # a whole number of periods of every pattern (250, 800, 1500 ms)
T0 = 1_000_000             # any instant: the painter's patterns follow `now` alone
# A glance rests on a hex for about 200-300 ms: a colour held that long may fill it.
GLANCE_MS = 200
# The difference two cues of one timing must show: CIEDE2000 10 is the project's figure for a
# difference seen at a glance (the two captives, tests/test_captive_colour.py), about five
# times what is just noticed side by side.
MIN_DELTA_E = 10.0
# Cues that say "do this" by a steady colour alone: nothing else may show that colour for a
# glance.
STEADY_CUES = ("legal move", "why refused: a hex the mover may take", "new game: lift it now")
NAMES_OF = {v: k for k, v in vars(palette).items() if k.isupper() and isinstance(v, int)}


class Cue:
    """One cue as painted: `name` (what it tells), `disk` (a disk lies on its hex), `runs`
    [(palette colour, ms)] over one period (one run: steady)."""

    def __init__(self, name, disk, runs):
        self.name = name
        self.disk = disk
        self.runs = tuple(runs)

    def key(self):
        return (self.name, self.disk, self.runs)

    def steady(self):
        return len(self.runs) == 1

    def pattern(self):
        """The timing in words: "steady" and its colour, or each phase's colour and length."""
        if self.steady():
            return "steady %s" % colour_name(self.runs[0][0])
        return ", ".join("%s %d ms" % (colour_name(c), ms) for c, ms in self.runs)


def colour_name(colour):
    return NAMES_OF.get(colour, str(colour)).lower().replace("_", " ")


def runs_of(seq):
    """The cyclic run-lengths of a sampled sequence over its shortest period, from the lit
    run after its longest dark one."""
    n = len(seq)
    period = next(p for p in range(1, n + 1) if n % p == 0 and
                  all(seq[i] == seq[(i + p) % n] for i in range(n)))
    cycle = seq[:period]
    start = next((i for i in range(period) if cycle[i] != cycle[i - 1]), 0)
    cycle = cycle[start:] + cycle[:start]
    out = []
    for colour in cycle:
        if out and out[-1][0] == colour:
            out[-1][1] += STEP_MS
        else:
            out.append([colour, STEP_MS])
    # From the lit run after the longest dark one (a blink is told from its light).
    dark = [i for i in range(len(out)) if out[i][0] == palette.OFF]
    if dark and len(out) > 1:
        first = (max(dark, key=lambda i: out[i][1]) + 1) % len(out)
        out = out[first:] + out[:first]
    return [tuple(run) for run in out]


def paint(view, labelled):
    """The Cues of `labelled` [(name, cell)] on `view` (a _Board), sampled over SPAN_MS; a
    hex never lit shows no cue (a settings hex dark while a refused disk lies)."""
    seqs = {cell: [] for _, cell in labelled}
    view.read()
    for t in range(0, SPAN_MS, STEP_MS):
        view.board.compose(T0 + t)
        for cell in seqs:
            seqs[cell].append(view.board.view.colours[cell])
    found = [Cue(name, bool(view.present[cell]), runs_of(seqs[cell]))
             for name, cell in labelled]
    return [cue for cue in found if any(c != palette.OFF for c, _ in cue.runs)]


# --- the board in each situation --------------------------------------------------------------

class _Board:
    """A board as it stands when cues show: the firmware's Controller holding `game`, its
    disks on their hexes, its referee's facts set as the situation has them (`present`,
    `face_ok`, `chosen`, `waiting`, `extra`: the refused disk; `show_hints` 1: every hex
    agrees, 2: a disk refused) and the marks of its view (flash, winner), read by its referee
    before it is painted (as the board's referee reads them at every change)."""

    def __init__(self, layout, settings, game, show_hints=0, phase=PLAY, winner=0,
                 flash_cell=NO_CELL, flash_colour=palette.OFF):
        self.board = Controller(settings, 0, layout, coin=lambda: 0)
        self.board.restore(game, [])
        referee = self.referee = self.board.referee
        self.game = game
        self.present = referee.present
        self.face_ok = referee.face_ok
        for c in range(layout.cells):
            self.present[c] = 1 if game.cell_states[c] else 0
        referee.enter(phase, 0)
        self.show_hints = show_hints
        self.chosen = self.waiting = self.extra = NO_CELL
        self.board.view.winner = winner
        self.flash_cell = flash_cell
        self.flash_colour = flash_colour
        self.pregame = referee.pregame()
        self.hint = referee.fresh_legal()

    def read(self):
        referee = self.referee
        referee.chosen = self.chosen
        referee.waiting = self.waiting
        referee.refused = self.extra
        referee.classify()
        referee.ready = self.show_hints == 1
        self.board.view.flash_cell = self.flash_cell
        self.board.view.flash_colour = self.flash_colour


def _view(layout, settings, game, **fields):
    return _Board(layout, settings, game, **fields)


def midgame(turn):
    """A game 24 placements in (25 for light to move), with disks of all four faces: the
    first such game of a fixed random sequence."""
    rng = random.Random(7)
    while True:
        board = iago.Board()
        for _ in range(24 if turn == iago.DARK else 25):
            board.push(rng.choice(list(board.legal_moves)))
        states = set(board.cell_states)
        if board.turn == turn and {iago.DARK, iago.LIGHT, iago.DARK_CAPTIVE,
                                   iago.LIGHT_CAPTIVE} <= states:
            return board


def _free(layout, view, used, want=lambda c: True):
    """An empty hex that is no corner and no settings hex, not in `used`, passing `want`."""
    for c in range(layout.cells):
        if (not view.game.cell_states[c] and c not in used and c not in layout.corners and
                not layout.setting_at(c) and c != layout.demo_cell and want(c)):
            used.add(c)
            return c
    raise ValueError("no free hex for a cue")


def _corners(layout, view, used):
    """The empty corners that show whose turn it is (not legal moves, and before the first
    placement not the settings hexes some corners are)."""
    return [("turn corner", c) for c in layout.corners
            if not view.game.cell_states[c] and c not in used and not view.hint[c] and
            not (view.pregame and layout.setting_at(c))]


def play_situations(layout, settings, turn):
    """The hex board in play, `turn` to move: the board agrees (legal moves, the computer's
    choice, a claim's answer), disks to mend, a refused disk."""
    board = midgame(turn)
    legal = set(board.legal_moves)
    out = []
    # Everything agrees: the legal moves glow, a suggestion flickers, a claim is answered.
    for flash in (palette.SETTING_ON | 0x80, palette.ERROR | 0x80):
        view = _view(layout, settings, board, show_hints=1)
        used = set()
        hint = _free(layout, view, used, lambda c: c in legal)
        chosen = view.chosen = _free(layout, view, used, lambda c: c in legal)
        view.flash_cell, view.flash_colour = board.peek(), flash
        name = "claim granted" if flash & 0x7F == palette.SETTING_ON else "claim refused"
        out.append(("in play", view, [("legal move", hint), ("computer's choice", chosen),
                                      (name, board.peek())] + _corners(layout, view, used)))
    # Disks to mend: one of each face to turn, to put back, in hand while it turns; a disk
    # waiting, one where none belongs; the computer's choice still lit.
    view = _view(layout, settings, board)
    used = set()
    labelled = []
    for state in (iago.DARK, iago.LIGHT, iago.DARK_CAPTIVE, iago.LIGHT_CAPTIVE):
        cells = [c for c in range(layout.cells) if board.cell_states[c] == state and
                 c not in used and c != board.peek()]
        turn_it, put_back, in_hand = cells[:3]
        used.update((turn_it, put_back, in_hand))
        view.face_ok[turn_it] = view.face_ok[in_hand] = 0
        view.present[put_back] = view.present[in_hand] = 0
        labelled += [("turn this disk", turn_it), ("a disk belongs here", put_back),
                     ("a disk being turned, in hand", in_hand)]
    waiting = view.waiting = _free(layout, view, used, lambda c: c in legal)
    extra = _free(layout, view, used)
    view.present[waiting] = view.present[extra] = 1
    view.chosen = _free(layout, view, used, lambda c: c in legal)
    labelled += [("a disk put down early, waiting", waiting), ("no disk belongs here", extra),
                 ("computer's choice", view.chosen)]
    out.append(("disks to mend", view, labelled + _corners(layout, view, used)))
    # A refused disk, alone: the hexes the mover may take light up; a suggestion stays.
    view = _view(layout, settings, board, show_hints=2)
    used = set()
    refused = view.extra = _free(layout, view, used, lambda c: c not in legal)
    view.present[refused] = 1
    shown = _free(layout, view, used, lambda c: c in legal)
    view.chosen = _free(layout, view, used, lambda c: c in legal)
    out.append(("a placement refused", view, [
        ("no disk belongs here", refused), ("why refused: a hex the mover may take", shown),
        ("computer's choice", view.chosen)] + _corners(layout, view, used)))
    return out


def _start(layout, settings, first):
    """The game's start; on a square board with `first` placing first (Othello's coin)."""
    if layout.kind == "hex":
        return layout.new_board(settings)
    return layout.module.new_board(layout.module.Rules.parse(layout.rules_name), first=first)


def pregame_situations(layout, settings, first=iago.DARK):
    """The empty board before the first placement: each setting at each value beside the
    legal moves, the corners and the computer's first choice; a setting just stepped; a
    refused first disk."""
    out = []
    for i, name in enumerate(NAMES):
        cell = layout.setting_cells[i]
        if cell >= layout.cells:
            continue
        for value in CHOICES[i]:
            try:
                own = Settings(**dict(settings.as_dict(), **{name: value}))
            except ValueError:          # the penalty option under loose rules
                continue
            board = _start(layout, own, first)
            legal = set(board.legal_moves)
            view = _view(layout, own, board, show_hints=1 if own.hints else 0)
            used = {cell}
            labelled = [("settings hex", cell)]
            if own.hints:
                labelled.append(("legal move", _free(layout, view, used, legal.__contains__)))
            if own.computer_side() == board.turn:
                view.chosen = _free(layout, view, used, legal.__contains__)
                labelled.append(("computer's choice", view.chosen))
            out.append(("before the first placement", view,
                        labelled + _corners(layout, view, used)))
    board = _start(layout, settings, first)
    view = _view(layout, settings, board, flash_cell=layout.setting_cells[2],
                 flash_colour=palette.SETTING_ON, show_hints=1)
    view.present[view.flash_cell] = 1
    used = {view.flash_cell}
    out.append(("a setting stepped", view, [
        ("a setting stepped", view.flash_cell),
        ("legal move", _free(layout, view, used, lambda c: c in board.legal_moves))] +
        _corners(layout, view, used)))
    view = _view(layout, settings, board, show_hints=2)
    used = set()
    view.extra = _free(layout, view, used, lambda c: c not in board.legal_moves)
    view.present[view.extra] = 1
    out.append(("a first placement refused", view, [
        ("no disk belongs here", view.extra),
        ("why refused: a hex the mover may take",
         _free(layout, view, used, lambda c: c in board.legal_moves))] +
        [("settings hex", c) for c in layout.setting_cells if c < layout.cells] +
        _corners(layout, view, used)))
    return out


def asking_situations(layout, settings, turn):
    """Every disk of a game lifted: the board asks for a new game; a disk held on the
    centre 2 s says lift it now."""
    board = midgame(turn)
    out = []
    for held in (False, True):
        view = _view(layout, settings, board, flash_cell=layout.demo_cell,
                     flash_colour=palette.SETTING_ON | (0x80 if held else 0))
        for c in range(layout.cells):
            view.present[c] = 0
        view.present[layout.demo_cell] = 1 if held else 0
        labelled = [("new game: lift it now" if held else "new game? hold a disk here",
                     layout.demo_cell)]
        seen = set()
        for c in range(layout.cells):
            if board.cell_states[c] and board.cell_states[c] not in seen:
                seen.add(board.cell_states[c])
                labelled.append(("a disk belongs here", c))
        out.append(("new game?", view, labelled + _corners(layout, view, set())))
    return out


def over_situation(layout, settings):
    """The game over, its first screen: the winner's disks green, the others blinking."""
    board = midgame(iago.DARK)
    view = _view(layout, settings, board, phase=OVER, winner=iago.DARK)
    winner = next(c for c in range(layout.cells) if board.cell_states[c] == iago.DARK)
    other = next(c for c in range(layout.cells) if board.cell_states[c] == iago.LIGHT)
    return [("the game over", view, [("the winner's disk", winner),
                                     ("the other side's disk", other)])]


def square_situations(settings):
    """Othello's start on a square board, light placing first (the coin toss): the four
    centre disks to put down, then the legal squares beside the settings squares."""
    layout = Layout("square", 8)
    board = layout.module.new_board(first=iago.LIGHT)
    view = _view(layout, settings, board)
    labelled = []
    for c in range(layout.cells):
        if board.cell_states[c]:
            view.present[c] = 0
            labelled.append(("a disk belongs here", c))
    settings_cells = [("settings hex", c) for c in layout.setting_cells if c < layout.cells]
    out = [("Othello: the start disks to put down", view,
            labelled + settings_cells + _corners(layout, view, set()))]
    view = _view(layout, settings, board, show_hints=1)
    used = set()
    out.append(("Othello: the first placement", view, [
        ("legal move", _free(layout, view, used, lambda c: c in board.legal_moves))] +
        settings_cells + _corners(layout, view, used)))
    return out


def situations():
    """[(title, [Cue])]: every situation, its cues painted."""
    layout = hex_layout()
    out = []
    for settings in (Settings(), Settings(computer="light", level=1, hints=True)):
        found = pregame_situations(layout, settings)
        for turn in (iago.DARK, iago.LIGHT):
            found += play_situations(layout, settings, turn)
            found += asking_situations(layout, settings, turn)
        found += over_situation(layout, settings) + square_situations(settings)
        for first in (iago.DARK, iago.LIGHT):
            found += pregame_situations(Layout("square", 8), settings, first)
        out += [(title, paint(view, labelled)) for title, view, labelled in found]
    return out


# --- telling them apart ----------------------------------------------------------------------

def compared_phases(a, b):
    """How `a` and `b` must differ in colour where neither a disk nor their timing tells
    them apart: a list of alignments, each a list of (colour of one, colour of the other) of
    which at least one must differ; [] when a disk or the timing tells."""
    if a.disk != b.disk or a.name == b.name == "settings hex":
        return []
    if a.steady() and b.steady():
        return [[(a.runs[0][0], b.runs[0][0])]]
    if a.steady() or b.steady():
        steady, other = (a, b) if a.steady() else (b, a)
        if steady.name not in STEADY_CUES:
            return []
        # Each colour the other holds for a glance would pass for this steady cue.
        return [[(steady.runs[0][0], c)] for c, ms in other.runs
                if ms >= GLANCE_MS and c != palette.OFF]
    n = len(a.runs)
    if n != len(b.runs):
        return []
    out = []
    for shift in range(n):
        pairs = [(a.runs[i], b.runs[(i + shift) % n]) for i in range(n)]
        if all(3 * abs(x[1] - y[1]) <= max(x[1], y[1]) for x, y in pairs):
            out.append([(x[0], y[0]) for x, y in pairs])
    return out


def delta_table(pal, level, deficiency):
    """CIEDE2000 between every two colours of `pal` at brightness `level`."""
    wires = eye.wire_colours(pal, level)
    n = len(wires)
    return [[eye.delta_e(wires[i], wires[j], deficiency) for j in range(n)] for i in range(n)]


def measure(found=None):
    """{(cue a key, cue b key): {palette name: the smallest difference over every reading}}
    for every pair of cues lit at once whose timing cannot tell them apart; with the cues."""
    found = situations() if found is None else found
    tables = [(name, delta_table(pal, level, deficiency))
              for name, pal, level, deficiency in eye.readings()]
    out = {}
    cues = {}
    for _, lit in found:
        for i, a in enumerate(lit):
            cues[a.key()] = a
            for b in lit[i + 1:]:
                if a.key() == b.key():
                    continue
                alignments = compared_phases(a, b)
                if not alignments:
                    continue
                pair = tuple(sorted((a.key(), b.key())))
                worst = out.setdefault(pair, {})
                for name, table in tables:
                    # The phase where they differ most, in the alignment where that is least.
                    de = min(max(table[x][y] for x, y in pairs) for pairs in alignments)
                    worst[name] = min(worst.get(name, de), de)
    return out, cues


def clashes(measured=None):
    """[(pair, palette name, difference)] of the pairs closer than MIN_DELTA_E."""
    measured = measure()[0] if measured is None else measured
    return [(pair, name, de) for pair, worst in sorted(measured.items())
            for name, de in sorted(worst.items()) if de < MIN_DELTA_E]


# --- the table in docs/board.md ---------------------------------------------------------------

WORDS = {   # each palette colour in words, standard / colour-blind
    palette.DARK: ("blue", "blue"), palette.LIGHT: ("warm white", "yellow"),
    palette.DARK_CAPTIVE: ("raspberry", "reddish purple"),
    palette.LIGHT_CAPTIVE: ("orange red", "vermilion"), palette.ERROR: ("red", "white"),
    palette.HINT_DARK: ("blue glow", "blue glow"), palette.HINT_LIGHT: ("warm glow", "yellow glow"),
    palette.OFF: ("off", "off"), palette.WIN: ("green", "bluish green"),
    palette.SETTING_ON: ("green", "sky blue"), palette.SETTING_OFF: ("red glow", "grey"),
}
TABLE_CUES = ("turn corner", "legal move", "computer's choice", "a disk put down early, waiting",
              "no disk belongs here", "why refused: a hex the mover may take", "turn this disk",
              "a disk being turned, in hand", "a disk belongs here", "claim granted",
              "claim refused", "new game? hold a disk here", "new game: lift it now")


def describe(cue, pal):
    """A cue's look in words for palette `pal` (0 standard, 1 colour-blind)."""
    if cue.steady():
        return "steady " + WORDS[cue.runs[0][0]][pal]
    return ", ".join("%s %g s" % (WORDS[c][pal], ms / 1000) for c, ms in cue.runs)


def closest(measured, cues):
    """[(cue name, (standard, colour-blind, the other cue's name))] for each cue of TABLE_CUES
    that shares its look with another it must be told from by colour: the pair that comes
    closest in either palette."""
    out = []
    for name in TABLE_CUES:
        near = None
        for pair, worst in measured.items():
            if any(cues[k].name == name for k in pair):
                other = cues[pair[1] if cues[pair[0]].name == name else pair[0]]
                figure = (min(worst.values()), worst["standard"], worst["colour-blind"],
                          other.name)
                near = figure if near is None or figure < near else near
        if near is not None:
            out.append((name, near[1:]))
    return out


def table(measured=None, cues=None):
    """docs/board.md's table: each cue of TABLE_CUES (dark's variant where a side shows), its
    look in both palettes, and the smallest difference measured to a cue it must be told
    from by colour."""
    if measured is None:
        measured, cues = measure()
    near = dict(closest(measured, cues))
    rows = ["| cue | disk | standard palette | colour-blind palette | closest cue of the same "
            "look: CIEDE2000, standard / colour-blind |", "| --- | --- | --- | --- | --- |"]
    for name in TABLE_CUES:
        variants = sorted((c for c in cues.values() if c.name == name), key=lambda c: c.runs)
        shown = next((c for c in variants if palette.DARK in [r[0] for r in c.runs] or
                      palette.HINT_DARK in [r[0] for r in c.runs]), variants[0])
        figure = ("%.0f / %.0f (%s)" % near[name] if name in near else
                  "none: told apart by timing or a disk")
        rows.append("| %s | %s | %s | %s | %s |" % (
            name, "yes" if shown.disk else "no", describe(shown, 0), describe(shown, 1), figure))
    return "\n".join(rows)
