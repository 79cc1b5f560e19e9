"""The board drawn in a terminal, with optional ANSI colour: hexes for Iago, a square grid
for Othello and Io, a row of marks for the number line."""

import iago
from iago import hexgrid

# A disk's face by its cell state, the letters of the position text (d, l: Iago's red side up).
FACES = {iago.DARK: "D", iago.LIGHT: "L", iago.DARK_CAPTIVE: "d", iago.LIGHT_CAPTIVE: "l"}
_COLOUR = {
    iago.DARK: "\x1b[1;97;40m",          # bold white on black: the dark disk
    iago.LIGHT: "\x1b[1;30;47m",         # black on white: the light disk
    iago.DARK_CAPTIVE: "\x1b[1;90;41m",  # red face, grey letter: hidden dark
    iago.LIGHT_CAPTIVE: "\x1b[1;97;41m",  # red face, white letter: hidden light
}
_RESET = "\x1b[0m"
_DIM = "\x1b[2m"


def turned_faces(flip):
    """{face: the face after the disk is turned over} in a game whose Board.FLIP is `flip`:
    the faces its disks can show."""
    out = {}
    for state in (iago.DARK, iago.LIGHT):
        out[FACES[state]] = FACES[state ^ flip]
        out[FACES[state ^ flip]] = FACES[state]
    return out


def _empty_glyph(cell):
    if cell == iago.CENTRE:
        return "*"
    return "-" if cell in iago.OUTER_RING else "."


def _glyph(state, colour, empty="."):
    glyph = FACES.get(state) or ("#" if state == 8 else empty)
    if colour and state in _COLOUR:
        return _COLOUR[state] + glyph + _RESET
    return _DIM + glyph + _RESET if colour else glyph


def _cell_text(glyph, marked):
    return ("[%s]" if marked else " %s ") % glyph


def draw(board, colour=False, highlight=()):
    """The board as lines of text (see draw_hexes, draw_square, draw_line)."""
    return _DRAW[board.KIND](board, colour, highlight)


def draw_square(board, colour=False, highlight=()):
    """Rank 1 at the bottom, file a on the left; '.' empty, D and L disks."""
    grid = board.grid
    lines = []
    for rank in range(grid.size - 1, -1, -1):
        text = "".join(_cell_text(_glyph(board.cell(c), colour), c in highlight)
                       for c in range(rank * grid.size, rank * grid.size + grid.size))
        lines.append("%d %s" % (rank + 1, text))
    lines.append("  " + "".join(" %s " % grid.cell_name(f)[0] for f in range(grid.size)))
    return lines


def draw_line(board, colour=False, highlight=()):
    """The marks in one row with their numbers under them; '#' a black hole."""
    grid = board.grid
    cells = range(grid.CELLS)
    return ["".join(" %s " % _cell_text(_glyph(board.cell(c), colour), c in highlight)
                    for c in cells),
            "".join("  %s " % grid.cell_name(c) for c in cells)]


def draw_hexes(board, colour=False, highlight=()):
    """The board as lines of text: row I at the top, A (dark's side) at the bottom.

    Empty cells: '.' inner area, '-' outer ring, '*' the centre. Disks: D and L face up, d and l
    captives (red side up) showing their hidden colour. Cells in `highlight` are bracketed.
    """
    lines = []
    for row in range(8, -1, -1):
        cells = list(hexgrid.row_cells(row))
        parts = []
        for c in cells:
            state = board.cell(c)
            glyph = FACES.get(state) or _empty_glyph(c)
            if colour and state in _COLOUR:
                glyph = _COLOUR[state] + glyph + _RESET
            elif colour:
                glyph = _DIM + glyph + _RESET
            parts.append(glyph)
        text = ""
        for i in range(len(cells)):
            marked = cells[i] in highlight
            text += ("[%s]" if marked else " %s ") % parts[i] + " "
        first = hexgrid.first_number(row)
        last = hexgrid.last_number(row)
        indent = " " * (2 * (9 - len(cells)))
        lines.append("%s %s%s %d-%d" % (hexgrid.ROWS[row], indent, text, first, last))
    return lines


def describe_scores(board):
    """'dark 12 x 6 = 72' style lines for both sides under the board's scoring."""
    out = []
    if not hasattr(board, "area_counts"):     # the games that count disks
        for side in (iago.DARK, iago.LIGHT):
            out.append("%-5s %d (%s)" % (iago.side_name(side), board.score(side),
                                         board.SIDE_NAMES[side]))
        return out
    for side in (iago.DARK, iago.LIGHT):
        inner, outer = board.area_counts(side)
        if board.rules.scoring == iago.COUNT:
            out.append("%-5s %d (%d inner + %d outer)" % (iago.side_name(side), inner + outer,
                                                          inner, outer))
        else:
            out.append("%-5s %d (%d inner x %d outer)" % (iago.side_name(side),
                                                          board.score(side), inner, outer))
    return out


def describe_outcome(board):
    """One line: who won and why, or whose turn it is."""
    outcome = board.outcome()
    if outcome is None:
        line = "%s to move" % iago.side_name(board.turn)
        phase = getattr(board, "phase", None)
        if phase is not None:
            line += " (%s placement)" % ("first", "bound", "free", "single")[phase]
        if board.has_free_placement():
            line += " (penalty granted: may place on any empty hex)"
        elif board.can_claim():
            line += " (the last placement missed a forced capture: a penalty may be claimed)"
        return line
    winner = iago.side_name(outcome.winner)
    if outcome.winner == iago.EMPTY:
        return "game over: a draw, %d to %d" % (outcome.dark_score, outcome.light_score)
    if outcome.tie_break == "tie":
        return "game over: %s wins the tie at %d (ties go to player 2)" % (winner,
                                                                          outcome.dark_score)
    if outcome.tie_break == iago.CENTRE_DISK:
        why = "scores tied at %d, %s's disk on the centre breaks the tie" % (
            outcome.dark_score, winner)
    elif outcome.tie_break == iago.CENTRE_CAPTIVE:
        loser = iago.side_name(outcome.winner ^ 3)
        why = "scores tied at %d, the captive on the centre is %s's, so %s loses" % (
            outcome.dark_score, loser, loser)
    else:
        why = "%d to %d" % (max(outcome.dark_score, outcome.light_score),
                            min(outcome.dark_score, outcome.light_score))
    return "game over: %s wins, %s" % (winner, why)


_DRAW = {"hex": draw_hexes, "square": draw_square, "line": draw_line}
