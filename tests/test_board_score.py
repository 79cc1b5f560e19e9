"""The score a finished game shows on the LEDs (docs/board.md, "The score at the end"): who won,
then each side's numbers as digits, read at a glance. Unit tests of gameboard.archive.score
on positions of docs/rules.md, "Game end and scoring", and the whole display on the simulated
board under both runtimes."""

import random

import pytest

import iago
from gameboard import archive, palette
from gameboard.layout import Layout, hex_layout
from gameboard.painter import BoardView
from gameboard.settings import Settings
from host_sim.simboard import SimBoard

HEX = hex_layout()
OFF = palette.OFF

# The digits as the board draws them, checked by eye against docs/board.md: rows G to C,
# tens left of the centre E5, units right of it.
DRAWN = {
    1: """
G     .   .   .   .   .   .   #
F   .   .   .   .   .   .   .   #
E .   .   .   .   .   .   .   #   .
D   .   .   .   .   .   .   .   #
C     .   .   .   .   .   .   #""",
    23: """
G     #   #   #   .   #   #   #
F   .   .   .   #   .   .   .   #
E .   #   #   #   .   #   #   #   .
D   #   .   .   .   .   .   .   #
C     #   #   #   .   #   #   #""",
    45: """
G     #   .   #   .   #   #   #
F   #   .   .   #   #   .   .   .
E .   #   #   #   .   #   #   #   .
D   .   .   .   #   .   .   .   #
C     .   .   #   .   #   #   #""",
    67: """
G     #   #   #   .   #   #   #
F   #   .   .   .   .   .   .   #
E .   #   #   #   .   .   .   #   .
D   #   .   .   #   .   .   .   #
C     #   #   #   .   .   .   #""",
    89: """
G     #   #   #   .   #   #   #
F   #   .   .   #   #   .   .   #
E .   #   #   #   .   #   #   #   .
D   #   .   .   #   .   .   .   #
C     #   #   #   .   #   #   #""",
    100: """
G     #   #   #   .   #   #   #
F   #   .   .   #   #   .   .   #
E .   #   .   #   .   #   .   #   .
D   #   .   .   #   #   .   .   #
C     #   #   #   .   #   #   #""",
}


def lit_cells(picture):
    """The cells a picture of rows G-C lights."""
    cells = set()
    for line in picture.strip("\n").splitlines():
        row = "ABCDEFGHI".index(line[0])
        marks = line[1:].split()
        first = HEX.grid.first_number(row)
        cells |= {HEX.grid.cell_at(row, first + i) for i, m in enumerate(marks) if m == "#"}
    return cells


@pytest.mark.parametrize("number", sorted(DRAWN))
def test_digits_are_drawn_as_docs_board_md_shows_them(number):
    screen = archive.fill(HEX, number)
    assert {c for c in range(HEX.cells) if screen[c]} == lit_cells(DRAWN[number])


def position(dark_inner, dark_outer, light_outer, centre="D"):
    """A finished Iago position: the inner area full, dark's disks first, then light's; the
    outer ring with dark's disks, then light's, then empty hexes."""
    grid = HEX.grid
    cells = ["1"] * 61
    inner = [c for c in range(61) if not grid.IS_OUTER[c] and c != grid.CENTRE]
    for i, c in enumerate(inner):
        cells[c] = "D" if i < dark_inner - (centre == "D") else "L"
    cells[grid.CENTRE] = centre
    outer = [c for c in range(61) if grid.IS_OUTER[c]]
    for i, c in enumerate(outer):
        cells[c] = "D" if i < dark_outer else "L" if i < dark_outer + light_outer else "1"
    return "/".join("".join(cells[c] for c in grid.row_cells(r)) for r in range(8, -1, -1)) + " D"


def screens(view):
    """[(time in tenths, side, screen: the palette colour of each cell; None for who won)]
    of view.result."""
    result = view.result
    k = result[0]
    n = view.layout.cells
    size = (n + 3) // 4
    out = [(result[3], 0, None)]
    for i in range(1, k):
        side = iago.LIGHT if result[3 + i] & 0x80 else iago.DARK
        start = 3 + k + (i - 1) * size
        values = [result[start + c // 4] >> (2 * (c % 4)) & 3 for c in range(n)]
        lit, glow = ((palette.DARK, palette.HINT_DARK), (palette.LIGHT, palette.HINT_LIGHT))[
            side - 1]
        out.append((result[3 + i] & 0x7F, side, [(OFF, lit, glow)[v] for v in values]))
    assert sum(t for t, _, _ in out) == result[2]
    return out


def shown(layout, screen, side):
    """(number drawn, the mark's cells) of a screen, turned upright for dark."""
    if side == iago.LIGHT:
        screen = screen[::-1]
    digit = palette.DARK if side == iago.DARK else palette.LIGHT
    glow = palette.HINT_DARK if side == iago.DARK else palette.HINT_LIGHT
    lit = bytes(1 if v == digit else 0 for v in screen)
    number = next(n for n in range(200) if archive.fill(layout, n) == lit)
    return number, {c for c in range(layout.cells) if screen[c] == glow}


def ended(text, rules="standard", layout=HEX):
    view = BoardView(layout, Settings())
    view.game = iago.Board(text, iago.Rules.parse(rules))
    assert view.game.is_game_over()
    view.winner = view.game.outcome().winner        # as the controller sets it
    archive.score(view)
    return view


RING = {c for c in range(61) if HEX.grid.IS_OUTER[c]} - lit_cells(DRAWN[89])
BARS = {c for c in range(61) if HEX.grid.ROW_OF[c] in (1, 7) and not HEX.grid.IS_OUTER[c]}


def test_each_side_shows_its_inner_and_outer_counts_then_their_product():
    """docs/rules.md, "Score (standard and Loose)": (inner disks, or 1 if none) x (outer
    disks, or 1 if none); an empty area counts 1, shown as 0 then 1; a score of 100 or more
    shows its hundreds first. Dark: 20 x 6 = 120; light: 17 inner, no outer disk: 17 x 1."""
    view = ended(position(20, 6, 0))
    assert view.result[1] == 255                                     # no tie
    got = [(t, None) if s is None else (t,) + shown(HEX, s, side)
           for t, side, s in screens(view)]
    assert [side for _, side, _ in screens(view)] == [0] + [iago.DARK] * 4 + [iago.LIGHT] * 4
    assert got == [
        (24, None),
        (16, 20, set()), (16, 6, RING), (10, 1, BARS), (14, 20, BARS),       # dark: 1, 20
        (16, 17, set()), (8, 0, RING), (8, 1, RING), (24, 17, BARS)]         # light


def test_a_tie_flashes_the_centre_that_broke_it():
    """docs/rules.md, "Ties: the centre decides": the tie at 84 of its example, light's disk on
    the centre wins; the centre flashes on the first screen."""
    text = "LLDDD/LdLDDl/LdLLDDl/LLldlDLD/1DLdLdLDD/LLddLlDl/1LdlLDD/1dDDDl/1L2D L"
    view = ended(text)
    assert view.game.outcome().winner == iago.LIGHT and view.result[1] == HEX.demo_cell
    numbers = [shown(HEX, s, side)[0] for t, side, s in screens(view)[1:]]
    assert numbers == [12, 7, 84, 12, 7, 84]


def test_simple_rules_show_each_sides_count_of_disks():
    """docs/rules.md, "Score (Simple)": the count of face-up disks anywhere."""
    view = ended(position(20, 6, 0), "simple")
    got = [shown(HEX, s, side) for t, side, s in screens(view)[1:]]
    assert got == [(26, BARS), (17, BARS)]


def test_a_square_board_shows_each_sides_count_of_disks():
    """Othello (docs/rules.md, "Othello"): most disks win; each side's count between bars."""
    from iago import othello
    layout = Layout("square", 8)
    rng = random.Random(7)
    game = othello.new_board()
    while not game.is_game_over():
        game.push(rng.choice(list(game.legal_moves)))
    view = BoardView(layout, Settings())
    view.game = game
    archive.score(view)
    dark, light = game.scores()
    got = [shown(layout, s, side)[0] for t, side, s in screens(view)[1:]]
    assert got == [dark, light]


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_a_finished_game_shows_its_score_on_the_leds_until_the_board_is_cleared(runtime):
    """The board showed the winner's disks, then each side's disks alone: the players counted
    and multiplied. Each screen of the score now shows on the LEDs in turn."""
    rng = random.Random(5)
    with SimBoard(runtime=runtime) as board:
        board.advance(1200)
        ctl = board.controller
        while ctl.phase == 1:
            board.place(rng.choice(list(ctl.game.legal_moves)))
            for c in ctl.flips_pending():
                board.flip(c)
            board.advance(50)
        view = ctl.view
        assert view.result is not None
        leds = board.app.leds
        start = ctl.view.phase_since
        pal = palette.PALETTES[0]
        at = 0
        for tenths, _, screen in screens(view):
            middle = start + (at + tenths // 2) * 100
            at += tenths
            board.advance((middle - board.app.clock.ticks_ms()) & 0x3FFFFFFF)  # its clock
            if screen is None:
                continue
            assert leds.scale == 4096, "the current cap scaled the frame"
            want = [tuple(leds.level(v) for v in pal[k * 3:k * 3 + 3]) for k in screen]
            assert board.circuit.led_colours() == want
        for name in list(board.disks):
            board.lift(name, 5)
        board.advance(100)
        assert ctl.phase == 1 and view.result is None and ctl.game.ply() == 0
