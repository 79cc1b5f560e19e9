"""The score a finished game shows on the LEDs (docs/board.md, "The score at the end"): who won,
then each side's numbers, a large digit at a time. Unit tests of gameboard.archive.score on
positions of docs/rules.md, "Game end and scoring", and the whole display on the simulated
board under both runtimes. tests/test_score_full_board.py reads the screens back from pictures
of a full board."""

import random
from types import SimpleNamespace
from pathlib import Path

import pytest

import iago
from gameboard import archive, palette
from gameboard.layout import Layout, hex_layout
from gameboard.settings import Settings
from host_sim.simboard import SimBoard

ROOT = Path(__file__).resolve().parent.parent
HEX = hex_layout()
OFF = palette.OFF
# The first hex of each row of a digit, H to B (the rows of six start half a hex further out).
FIRST = {7: 4, 6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}


def digit_cells(layout, d):
    cells = archive.draw(layout, d, 2)
    return {c for c in range(layout.cells) if cells[c] == 1}


def docs_digits():
    """{digit: its cells} as docs/board.md draws the ten digits (rows H to B)."""
    text = (ROOT / "docs" / "board.md").read_text()
    block = text.split("<!-- digits -->")[1].split("```")[1]
    lines = block.strip("\n").splitlines()
    assert [line[0] for line in lines] == list("HGFEDCB")
    out = {}
    for d in range(10):
        cells = set()
        for line in lines:
            row = "ABCDEFGHI".index(line[0])
            marks = line[1:].split("|")[d].split()
            assert len(marks) == (6 if row % 2 else 5), (d, line)
            cells |= {HEX.grid.cell_at(row, FIRST[row] + i) for i, m in enumerate(marks)
                      if m == "#"}
        out[d] = cells
    return out


def test_digits_are_drawn_as_docs_board_md_shows_them():
    drawn = docs_digits()
    for d in range(10):
        assert drawn[d] == digit_cells(HEX, d), d
    # Ten different pictures, none inside another: each digit differs in at least 3 hexes.
    for a in range(10):
        for b in range(a + 1, 10):
            assert len(drawn[a] ^ drawn[b]) >= 3, (a, b)


def test_a_square_board_draws_the_same_digits_on_its_columns():
    """A row of six hexes becomes five squares: its middle four in three columns."""
    rows = {}
    for c in digit_cells(Layout("square", 8), 1):
        rows.setdefault(c // 8, set()).add(c % 8)
    # 1 on 8x8, ranks 8 to 2, files b-f: its flag, its stem on d, its foot across c-e.
    assert rows == {7: {3}, 6: {2, 3}, 5: {3}, 4: {3}, 3: {3}, 2: {3}, 1: {2, 3, 4}}


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
        lit = palette.DARK if side == iago.DARK else palette.LIGHT
        out.append((result[3 + i] & 0x7F, side, [(OFF, lit, palette.WIN)[v] for v in values]))
    assert sum(t for t, _, _ in out) == result[2]
    return out


def shown(layout, screen, side):
    """(digit drawn, the mark's cells) of a screen, turned upright for dark."""
    if side == iago.LIGHT:
        screen = screen[::-1]
    lit = {c for c in range(layout.cells) if screen[c] in (palette.DARK, palette.LIGHT)}
    glow = {c for c in range(layout.cells) if screen[c] == palette.WIN}
    (d,) = [d for d in range(10) if digit_cells(layout, d) == lit]
    return d, glow


def numbers(view):
    """[(side, [digits], mark cells)] of the screens after who won: a number ends with a
    digit shown 1.4 s (0.7 s of marks alone after it, 0.2 s after the others)."""
    out = []
    digits = []
    for tenths, side, screen in screens(view)[1:]:
        d, glow = shown(view.layout, screen, side)
        digits.append(d)
        assert tenths in (9, 14)
        if tenths == 14:
            out.append((side, digits, glow))
            digits = []
    assert digits == []
    return out


def ended(text, rules="standard", layout=HEX):
    """The finished game `text` with the score its board shows (archive.score)."""
    game = iago.Board(text, iago.Rules.parse(rules))
    assert game.is_game_over()
    return SimpleNamespace(game=game, layout=layout, result=archive.score(game, layout))


INNER = {HEX.parse_cell("E2"), HEX.parse_cell("E8")}
RING = {c for c in range(61) if HEX.grid.IS_OUTER[c] and HEX.grid.ROW_OF[c] not in (1, 7)}
BARS = {c for c in range(61) if HEX.grid.ROW_OF[c] in (0, 8)}


def test_each_side_shows_its_inner_and_outer_counts_then_their_product():
    """docs/rules.md, "Score (standard and Loose)": (inner disks, or 1 if none) x (outer
    disks, or 1 if none). Dark: 20 x 6 = 120; light: 17 inner, no outer disk: 17 x 1. Each
    number a digit at a time, hundreds first; an empty area shows 0 (the score counts it 1)."""
    view = ended(position(20, 6, 0))
    assert view.result[1] == 255                                     # no tie
    assert screens(view)[0][:2] == (24, 0)
    assert numbers(view) == [
        (iago.DARK, [2, 0], INNER), (iago.DARK, [6], RING), (iago.DARK, [1, 2, 0], BARS),
        (iago.LIGHT, [1, 7], INNER), (iago.LIGHT, [0], RING), (iago.LIGHT, [1, 7], BARS)]


def test_the_marks_never_touch_a_digit():
    """Marks glow on hexes no digit takes, so a digit's shape is its own."""
    taken = set().union(*(digit_cells(HEX, d) for d in range(10)))
    assert not taken & (INNER | RING | BARS)
    assert {HEX.cell_name(c) for c in taken} >= {"B1", "B6", "H4", "H9", "E3", "E7"}


def test_a_tie_flashes_the_centre_that_broke_it():
    """docs/rules.md, "Ties: the centre decides": the tie at 84 of its example, light's disk on
    the centre wins; the centre flashes on the first screen."""
    text = "LLDDD/LdLDDl/LdLLDDl/LLldlDLD/1DLdLdLDD/LLddLlDl/1LdlLDD/1dDDDl/1L2D L"
    view = ended(text)
    assert view.game.outcome().winner == iago.LIGHT and view.result[1] == HEX.demo_cell
    assert [digits for _, digits, _ in numbers(view)] == [[1, 2], [7], [8, 4]] * 2


def test_simple_rules_show_each_sides_count_of_disks():
    """docs/rules.md, "Score (Simple)": the count of face-up disks anywhere."""
    view = ended(position(20, 6, 0), "simple")
    assert numbers(view) == [(iago.DARK, [2, 6], BARS), (iago.LIGHT, [1, 7], BARS)]


@pytest.mark.parametrize("size", [7, 8, 9])
def test_a_square_board_shows_each_sides_count_of_disks(size):
    """Othello and Io (docs/rules.md): most disks win; each side's count, a digit at a
    time, between bars where the board has rows to spare."""
    from iago import games
    layout = Layout("square", size)
    rng = random.Random(7)
    game = layout.new_board(Settings())
    while not game.is_game_over():
        game.push(rng.choice(list(game.legal_moves)))
    view = SimpleNamespace(game=game, layout=layout, result=archive.score(game, layout))
    dark, light = game.scores()
    got = numbers(view)
    assert [(side, digits) for side, digits, _ in got] == [
        (iago.DARK, [int(d) for d in str(dark)]), (iago.LIGHT, [int(d) for d in str(light)])]
    bars = {c for c in range(size * size) if c // size in {9: (0, 8), 8: (0,), 7: ()}[size]}
    assert all(glow == bars for _, _, glow in got)
    assert games.module(layout.game).Board.KIND == "square"


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_a_finished_game_shows_its_score_on_the_leds_until_the_board_is_cleared(runtime):
    """The board showed the winner's disks, then each side's disks alone: the players counted
    and multiplied. Each screen of the score now shows on the LEDs in turn: its digit for
    0.7 s, then its marks alone."""
    rng = random.Random(5)
    with SimBoard(runtime=runtime) as board:
        board.advance(1200)
        ctl = board.controller
        while ctl.referee.phase == 1:
            board.place(rng.choice(list(ctl.game.legal_moves)))
            for c in ctl.flips_pending():
                board.flip(c)
            board.advance(50)
        view = ctl.view
        assert view.result is not None
        leds = board.app.leds
        start = ctl.referee.phase_since
        pal = palette.PALETTES[0]
        at = 0
        for tenths, _, screen in screens(view):
            times = [(at + tenths // 2, screen)] if screen is None else [
                (at + 3, screen), (at + 8, [c if c == palette.WIN else OFF for c in screen])]
            at += tenths
            for tenth, want in times:
                board.advance((start + tenth * 100 - board.app.clock.ticks_ms()) & 0x3FFFFFFF)
                if want is None:
                    continue
                assert leds.scale == 4096, "the current cap scaled the frame"
                wire = [tuple(leds.level(v) for v in pal[k * 3:k * 3 + 3]) for k in want]
                assert board.circuit.led_colours() == wire
        for name in list(board.disks):
            board.lift(name, 5)
        board.advance(100)
        assert ctl.referee.phase == 1 and view.result is None and ctl.game.ply() == 0
