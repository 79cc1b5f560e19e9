"""Io (../shared/rules/io-rules.txt) as docs/rules.md ("Io") reads it.

Each rules test quotes the sentence of io-rules.txt it pins; tests of points the rule text
leaves open say "Decided:". A plain reference implementation below (stones in a dict by file
and rank, the bound stone's target found from the history of placements) cross-checks the
module's board move by move, in random games and in perft."""

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

import mpvm
from gamecheck import check_push_pop
from test_games_micropython import PROGRAM as GAMES_PROGRAM
from test_rules_micropython import run_cpython

from iago import InvalidCellError, InvalidPositionError, InvalidRulesError, IllegalMoveError
from iago import games, iogame
from iago.rules import DARK, EMPTY, LIGHT

SEVEN = iogame.Rules.parse("7x7")
NINE = iogame.Rules.parse("9x9")
# The rule text's diagram note, rebuilt on 9x9: White's last free stone is on c1 and Black
# is to place his bound stone next to it. Rows of stones on ranks 3, 6 and 9 and a stone on g2
# leave e1 the only free cell (a1 and i1 are corners; b1, d1 touch c1; f1, g1, h1 touch g2).
DIAGRAM = "DLDLDLDLD/9/9/DLDLDLDLD/9/9/DLDLDLDLD/6D2/2L6 D bound=c1"


def names(cells):
    return " ".join(sorted(cells, key=lambda name: (name[1:], name[0])))


def legal(board):
    """The legal placements as names, in cell order (rank 1 first)."""
    return " ".join(board.grid.cell_name(c) for c in board.legal_moves)


def around(board, name):
    """The names of the empty cells next to `name` (straight and diagonal), in cell order."""
    g = board.grid
    c = g.parse_cell(name)
    cells = [g.neighbour(c, d) for d in range(8)]
    return " ".join(g.cell_name(n) for n in sorted(n for n in cells if n is not None
                                                  and board.cell(n) == EMPTY))


def phase(board):
    return iogame.PHASE_NAMES[board.phase]


def random_game(rules, seed, until=None):
    """A board after random placements from the start, until `until(board)` or the end."""
    board = iogame.new_board(rules)
    rnd = random.Random(seed)
    while not board.is_game_over() and not (until and until(board)):
        board.push(rnd.choice(list(board.legal_moves)))
    return board


# --- the game and its names -----------------------------------------------------------------

def test_game_names_sides_and_registry():
    # "There are two players, Black and White. Each has a sufficient number of stones and both
    # move only with their own color."  Decided: Black is dark (D), White is light (L).
    assert (iogame.GAME, iogame.TITLE) == ("io", "Io")
    assert iogame.SIDE_NAMES == {DARK: "black", LIGHT: "white"}
    assert games.module("io") is iogame
    board = iogame.new_board()
    assert board.GAME == "io" and board.rules == NINE and board.grid.CELLS == 81
    assert board.text() == iogame.STARTING_TEXT == "9/9/9/9/9/9/9/9/9 L first"
    assert board.claims == [] and not board.can_claim() and not board.claim_penalty()
    assert not board.is_miss(0) and not board.rules.penalty


def test_nine_by_nine_by_default_and_seven_by_seven_for_beginners():
    # "The diagram shows a 9x9 board. Beginners may benefit from using a 7x7 board."
    assert iogame.Rules() == NINE and iogame.Rules.parse(" 9X9 ") == NINE
    assert SEVEN.size == 7 and NINE.size == 9 and SEVEN != NINE
    assert iogame.Rules("7x7") == SEVEN and repr(SEVEN) == "Rules('7x7')"
    for rules in (SEVEN, NINE):
        assert iogame.Rules.parse(rules.name()) == rules
    board = iogame.new_board(SEVEN)
    assert board.grid.CELLS == 49 and board.text() == "7/7/7/7/7/7/7 L first"
    assert board.grid.cell_name(48) == "g7" and board.grid.parse_cell("A1") == 0


@pytest.mark.parametrize("name, token", [("8x8", "'8x8'"), ("", "''"), ("9x9+7x7", "'9x9+7x7'"),
                                         ("standard", "'standard'"), (9, "9")])
def test_rules_errors_name_the_bad_token(name, token):
    with pytest.raises(InvalidRulesError, match=re.escape(token)):
        iogame.Rules.parse(name)
    with pytest.raises(InvalidRulesError, match=re.escape(token)):
        iogame.Rules(name)                      # checked when built directly too


# --- the one-bound-one-free phase ------------------------------------------------------------

def test_white_places_the_first_stone_anywhere_on_the_empty_board():
    # "White starts by placing one stone on the empty board."  Decided: anywhere, a corner
    # included ("a corner may only be occupied with the first or bound placement").
    for rules in (SEVEN, NINE):
        board = iogame.new_board(rules)
        assert board.turn == LIGHT and board.phase == iogame.FIRST
        assert list(board.legal_moves) == list(range(rules.size ** 2))
    board = iogame.new_board(SEVEN)
    board.play("g7")
    assert board.text() == "6L/7/7/7/7/7/7 D bound=g7" and legal(board) == "f6 g6 f7"


def test_black_answers_the_first_stone_with_a_bound_then_a_free_stone():
    # "White starts by placing one stone on the empty board. From that point on players take
    # turns to: Place a stone on a cell straight or diagonally adjacent to the last stone
    # placed by the opponent, and ... place a stone on a on a cell that has only vacant cells,
    # straight or diagonally, as neighbors."  Decided: White's first stone is a turn of its
    # own; Black then places bound (next to it) and free, then White bound and free, and so on.
    board = iogame.new_board(SEVEN)
    board.play("d4")
    assert board.turn == DARK and phase(board) == "bound" and board.anchor == 24
    assert legal(board) == around(board, "d4") == "c3 d3 e3 c4 e4 c5 d5 e5"
    board.play("e5")
    assert board.turn == DARK and phase(board) == "free"
    board.play("b2")
    assert board.turn == LIGHT and phase(board) == "bound"


def test_the_bound_stone_touches_the_opponents_last_free_stone():
    # "Place a stone on a cell straight or diagonally adjacent to the last stone placed by the
    # opponent"; the note: "White's last free move was at C1. Black's bound reply was at B2".
    # Decided: the opponent's last stone is his last placement (his free one), not his bound
    # one, nor a stone turned over since.
    board = iogame.Board("7/7/4D2/3L3/7/7/7 D free", SEVEN)
    board.play("b2")                                   # Black's free stone
    assert legal(board) == around(board, "b2") == "a1 b1 c1 a2 c2 a3 b3 c3"
    assert board.text() == "7/7/4D2/3L3/7/1D5/7 L bound=b2"
    for name in ("e4", "f4", "d5", "f5", "d6", "e6", "f6"):   # next to Black's bound e5
        with pytest.raises(IllegalMoveError, match=name):
            board.play(name)


def test_the_free_stone_needs_only_vacant_neighbours():
    # "... place a stone on a on a cell that has only vacant cells, straight or diagonally, as
    # neighbors."  Decided: the neighbours that are on the board; an edge cell has five.
    board = iogame.Board("7/7/4D2/3L3/7/7/7 D free", SEVEN)
    g = board.grid
    expected = [c for c in range(49) if c not in g.CORNERS and board.cell(c) == EMPTY and
                all(board.cell(n) == EMPTY for n in (g.neighbour(c, d) for d in range(8))
                    if n is not None)]
    assert list(board.legal_moves) == board.free_cells() == expected
    assert legal(board) == ("b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 g2 a3 b3 f3 g3 a4 b4 g4 a5 b5 g5 "
                            "a6 b6 c6 g6 b7 c7 d7 e7 f7")
    with pytest.raises(IllegalMoveError, match="f6"):  # its neighbour e5 holds a stone
        board.play("f6")


def test_a_corner_is_taken_only_by_the_first_or_a_bound_placement():
    # "In this phase a corner may only be occupied with the first or bound placement."
    board = iogame.Board("7/7/7/3L3/7/7/7 D bound=d4", SEVEN)
    board.play("e5")
    for corner in ("a1", "g1", "a7", "g7"):            # empty all around, still not free
        assert around(board, corner).count(" ") == 2
        with pytest.raises(IllegalMoveError, match=corner):
            board.play(corner)
    board.play("b2")
    board.play("a1")                                   # a bound stone in a corner
    assert board.cell(0) == LIGHT and phase(board) == "free"


def test_both_placements_are_compulsory():
    # "Both placements are compulsory."  No pass: the legal moves are the bound cells, then
    # the free cells, of the same player; anything else is refused, naming the cell.
    board = iogame.Board("7/7/7/3L3/7/7/7 D bound=d4", SEVEN)
    with pytest.raises(IllegalMoveError, match="b2 is not a legal move for black"):
        board.play("b2")
    board.play("c3")
    with pytest.raises(IllegalMoveError, match="c2"):
        board.play("c2")
    assert board.turn == DARK and board.count_moves() == len(board.free_cells()) > 0


def test_io_opening_phase_move_by_move_on_a_7x7_board():
    # The whole first phase: "White starts by placing one stone on the empty board. From that
    # point on players take turns to: [bound], [free]" ... "When the player to move can no
    # longer make the second placement, then his turn ends and his opponent may start the
    # single placement phase."  After each placement: who places next, what, and where.
    board = iogame.new_board(SEVEN)
    script = [
        ("d4", "D bound=d4", "c3 d3 e3 c4 e4 c5 d5 e5"),
        ("c5", "D free", "b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 g2 a3 b3 f3 g3 a4 f4 g4 a5 f5 g5 a6 "
                         "e6 f6 g6 b7 c7 d7 e7 f7"),
        ("f2", "L bound=f2", "e1 f1 g1 e2 g2 e3 f3 g3"),
        ("e3", "L free", "b1 c1 d1 a2 b2 c2 a3 b3 a4 g4 a5 f5 g5 a6 e6 f6 g6 b7 c7 d7 e7 f7"),
        ("b2", "D bound=b2", "a1 b1 c1 a2 c2 a3 b3 c3"),
        ("a1", "D free", "d1 a4 g4 a5 f5 g5 a6 e6 f6 g6 b7 c7 d7 e7 f7"),   # a corner, bound
        ("f6", "L bound=f6", "e5 f5 g5 e6 g6 e7 f7 g7"),
        ("g7", "L free", "d1 a4 g4 a5 a6 b7 c7 d7"),                        # a corner, bound
        ("c7", "D bound=c7", "b6 c6 d6 b7 d7"),
        ("b6", "D free", "d1 a4 g4"),
        ("g4", "L bound=g4", "f3 g3 f4 f5 g5"),
        ("f3", "L free", "d1 a4"),
        ("d1", "D bound=d1", "c1 e1 c2 d2 e2"),
        ("d2", "D free", "a4"),
        # Black's free stone takes the last free cell: White still places his bound stone,
        ("a4", "L bound=a4", "a3 b3 b4 a5 b5"),
        # then his turn ends and Black places first in the single-placement phase.
        ("b4", "D single", "b1 c1 e1 f1 g1 a2 c2 e2 g2 a3 b3 c3 d3 g3 c4 e4 f4 a5 b5 d5 e5 f5 "
                           "g5 a6 c6 d6 e6 g6 a7 b7 d7 e7 f7"),
    ]
    for name, state, moves in script:
        board.play(name)
        assert board.text().split(" ", 1)[1] == state, name
        assert legal(board) == moves, name
        assert board.last_flips() == ()
    assert board.text() == "2L3L/1D3D1/2D4/DL1L2D/4LL1/1L1D1D1/D2L3 D single"
    assert board.free_cells() == [] and board.ply() == 16
    # "the number of placements of both sides will always be the same"
    assert board.scores() == (8, 8)
    # Every placement of the phase, taken back, gives the same states in reverse.
    for _name, state, moves in reversed(script[:-1]):
        board.pop()
        assert board.text().split(" ", 1)[1] == state and legal(board) == moves
    board.pop()
    assert board.text() == "7/7/7/7/7/7/7 L first"


def test_the_diagram_note_on_9x9():
    # "White's last free move was at C1. Black's bound reply was at B2 to keep E1 for free
    # placement. Thus White is forced to make a bound move (F2) and leave the first move in
    # the next phase to Black."  Decided: a player whose free placement is impossible before
    # his bound one still makes the bound placement; the turn ends after it.
    board = iogame.Board(DIAGRAM, NINE)
    assert legal(board) == "b1 d1 b2 c2 d2" and names(
        board.grid.cell_name(c) for c in board.free_cells()) == "e1"
    board.play("b2")
    assert board.turn == DARK and legal(board) == "e1"
    board.play("e1")
    assert board.free_cells() == []                    # nothing free for White's second stone
    assert board.turn == LIGHT and legal(board) == "d1 f1 d2 e2 f2"
    board.play("f2")
    assert board.turn == DARK and phase(board) == "single"
    assert board.text() == "DLDLDLDLD/9/9/DLDLDLDLD/9/9/DLDLDLDLD/1D3LD2/2L1D4 D single"


@pytest.mark.parametrize("bound", ["d1", "d2"])
def test_the_diagram_note_bound_stone_that_kills_the_free_cell(bound):
    # "If Black had chosen D1 or D2 for his bound placement, there would have been no place for
    # a free placement, and White would have had the first move of the next phase."
    board = iogame.Board(DIAGRAM, NINE)
    board.play(bound)
    assert board.turn == LIGHT and phase(board) == "single" and board.free_cells() == []
    assert len(board.legal_moves) == 81 - 30


@pytest.mark.parametrize("bound", ["b1", "c2"])
def test_the_diagram_note_other_bound_stones_keep_e1(bound):
    board = iogame.Board(DIAGRAM, NINE)
    board.play(bound)
    assert board.turn == DARK and phase(board) == "free" and legal(board) == "e1"


def test_the_first_phase_ends_only_after_a_bound_stone():
    # "When the player to move can no longer make the second placement, then his turn ends and
    # his opponent may start the single placement phase."  Decided: the check is made after
    # every bound stone (so the phase ends on a bound stone, the opponent of its player moves
    # next); a bound placement is always possible, since the stone it touches was placed first
    # or free, with every neighbour empty, and nothing was placed since.
    ends = set()
    for rules in (SEVEN, NINE):
        for seed in range(40):
            board = iogame.new_board(rules)
            rnd = random.Random(seed)
            while board.phase != iogame.SINGLE:
                if board.phase == iogame.BOUND:
                    g = board.grid
                    assert all(board.cell(n) == EMPTY for n in g.NEIGHBOURS[
                        board.anchor * 8:board.anchor * 8 + 8] if n != 255)
                    assert board.legal_moves
                before = board.phase
                mover = board.turn
                board.push(rnd.choice(list(board.legal_moves)))
            assert before == iogame.BOUND and board.turn == mover ^ 3
            ends.add(board.cell(board.peek()))
    assert ends == {DARK, LIGHT}                       # either colour may end the phase


def test_a_free_stone_never_captures_and_a_bound_stone_may():
    # "By the nature of the protocol, capture with a free move is not possible. Capture with a
    # bound move follows the normal othelloanian protocol."
    free_placements = bound_captures = 0
    for rules in (SEVEN, NINE):
        for seed in range(40):
            board = iogame.new_board(rules)
            rnd = random.Random(seed)
            while board.phase != iogame.SINGLE:
                before = board.phase
                board.push(rnd.choice(list(board.legal_moves)))
                if before == iogame.FREE:
                    free_placements += 1
                    assert board.last_flips() == ()
                elif before == iogame.BOUND and board.last_flips():
                    bound_captures += 1
                    # never the stone it touches: that one's other neighbours are empty
                    assert board.move_stack[-2] not in board.last_flips()
    assert free_placements > 500 and bound_captures > 20


def test_a_bound_stone_captures_as_in_othello():
    # "Capture with a bound move follows the normal othelloanian protocol."  White's bound stone
    # on d2, next to Black's free d1, encloses d3-d4 (up to d5) and e3 (up to f4).
    board = iogame.Board("7/7/3L3/3D1L1/3DD2/7/3D3 L bound=d1", SEVEN)
    d2 = board.grid.parse_cell("d2")
    assert sorted(board.grid.cell_name(c) for c in board.flips(d2)) == ["d3", "d4", "e3"]
    board.play("d2")
    assert board.text() == "7/7/3L3/3L1L1/3LL2/3L3/3D3 L free"
    assert sorted(board.grid.cell_name(c) for c in board.last_flips()) == ["d3", "d4", "e3"]


def test_the_stone_counts_may_differ_but_not_the_placements():
    # "Because of captures, the number of stones of each color may not be the same at the end
    # of this phase, though the number of placements of both sides will always be the same."
    differ = 0
    for seed in range(60):
        board = random_game(NINE if seed % 2 else SEVEN, seed,
                            until=lambda b: b.phase == iogame.SINGLE)
        # White: the first stone, then a bound-free pair a turn; Black the same without the
        # first stone but with the bound stone that ended the phase (or the other way round).
        history = replay_colours(board)
        assert history.count(DARK) == history.count(LIGHT) == board.ply() // 2
        dark, light = board.scores()
        assert dark + light == board.ply()
        differ += dark != light
    assert differ > 0


def replay_colours(board):
    """The colour of each placement so far, replayed from the start."""
    replay = iogame.Board(board.start_text, board.rules)
    colours = []
    for cell in board.move_stack:
        colours.append(replay.turn)
        replay.push(cell)
    assert replay.text() == board.text()
    return colours


# --- the single placement phase and the end --------------------------------------------------

def test_single_placements_go_anywhere_corners_included():
    # "Now players take turns to compulsory place one of their stones on any vacant square.
    # Corners are no longer excluded."
    board = iogame.Board("7/7/7/2LD3/7/7/7 D single", SEVEN)
    assert list(board.legal_moves) == [c for c in range(49) if board.cell(c) == EMPTY]
    board.play("a1")                                   # a corner, no capture: legal
    assert board.text() == "7/7/7/2LD3/7/7/D6 L single" and board.last_flips() == ()
    board.play("g7")
    assert board.turn == DARK


def test_single_placements_capture_as_in_othello():
    # "If a placement results in capture, then the normal othelloanian protocol is followed."
    # "if a placement results in one or more opponent's stones that lie in an unbroken straight
    # or diagonal line, to be enclosed between the placed stone and a like colored stone at the
    # other end, then these stones are captured and reversed in the same turn".  A line stops at
    # the first own stone; a gap or the edge encloses nothing.
    # Black on d4: e4-f4 up to g4 and c5-b6 up to a7 are enclosed; d3 up to d2 (the first
    # own stone: d1 beyond it stays white); not d5 (a gap before d7), not c4-a4 or c3-a1 (the
    # edge before any black stone), nothing towards e5 (black) or e3 (empty).
    board = iogame.Board("D6/1L5/2LLD2/LLL1LLD/2LL3/1L1D3/L2L3 D single", SEVEN)
    d4 = board.grid.parse_cell("d4")
    flips = sorted(board.grid.cell_name(c) for c in board.flips(d4))
    assert flips == ["b6", "c5", "d3", "e4", "f4"]
    board.play("d4")
    assert board.text() == "D6/1D5/2DLD2/LLLDDDD/2LD3/1L1D3/L2L3 L single"


def test_the_board_fills_and_most_stones_win():
    # "The game ends when the board is full. Winner is the player with the most stones. Draws
    # are not possible."
    for rules in (SEVEN, NINE):
        winners = set()
        for seed in range(20):
            board = random_game(rules, seed)
            assert EMPTY not in board.cells() and board.phase == iogame.SINGLE
            assert board.ply() == rules.size ** 2 and not board.legal_moves
            outcome = board.outcome()
            assert outcome.dark_score + outcome.light_score == rules.size ** 2
            assert outcome.dark_score != outcome.light_score
            assert outcome.winner == (DARK if outcome.dark_score > outcome.light_score else LIGHT)
            assert outcome.result() == ("1-0" if outcome.winner == DARK else "0-1")
            assert outcome.scoring == "count"
            winners.add(outcome.winner)
            with pytest.raises(IllegalMoveError, match="the game is over"):
                board.play(0)
        assert winners == {DARK, LIGHT}
    board = iogame.Board("7/7/7/7/7/7/7 L first", SEVEN)
    assert board.outcome() is None and not board.is_game_over()


def test_game_over_only_on_a_full_board():
    board = iogame.Board("LLLLLLL/" * 6 + "LLLLLL1 D single", SEVEN)
    assert not board.is_game_over() and legal(board) == "g1"
    board.play("g1")
    assert board.is_game_over() and board.outcome().winner == LIGHT
    assert board.scores() == (1, 48)


# --- a plain reference --------------------------------------------------------------------------

class Reference:
    """Io from the rule text, written plainly: stones in a dict {(file, rank): 'D' or 'L'},
    the history of (colour, (file, rank)) placements, the phase as a word."""

    def __init__(self, size):
        self.size = size
        self.stones = {}
        self.history = []
        self.side = "L"
        self.phase = "first"

    def copy(self):
        other = Reference(self.size)
        other.stones = dict(self.stones)
        other.history = list(self.history)
        other.side = self.side
        other.phase = self.phase
        return other

    def around(self, p):
        f, r = p
        return [(f + df, r + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)
                if (df or dr) and 0 <= f + df < self.size and 0 <= r + dr < self.size]

    def cells(self):
        return [(f, r) for r in range(self.size) for f in range(self.size)]

    def is_free(self, p):
        corner = p[0] in (0, self.size - 1) and p[1] in (0, self.size - 1)
        return (not corner and p not in self.stones and
                all(q not in self.stones for q in self.around(p)))

    def moves(self):
        empty = [p for p in self.cells() if p not in self.stones]
        if self.phase == "bound":
            last = [p for colour, p in self.history if colour != self.side][-1]
            return [p for p in empty if p in self.around(last)]
        if self.phase == "free":
            return [p for p in empty if self.is_free(p)]
        return empty

    def captures(self, p):
        out = []
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if not (df or dr):
                    continue
                run = []
                f, r = p[0] + df, p[1] + dr
                while (f, r) in self.stones and self.stones[(f, r)] != self.side:
                    run.append((f, r))
                    f, r = f + df, r + dr
                if run and self.stones.get((f, r)) == self.side:
                    out.extend(run)
        return out

    def play(self, p):
        other = "D" if self.side == "L" else "L"
        for q in self.captures(p):
            self.stones[q] = self.side
        self.stones[p] = self.side
        self.history.append((self.side, p))
        if self.phase == "bound":
            if any(self.is_free(q) for q in self.cells()):
                self.phase = "free"
                return
            self.phase = "single"
        elif self.phase != "single":
            self.phase = "bound"
        self.side = other


def reference_perft(ref, depth):
    moves = ref.moves()
    if depth == 0 or not moves:
        return 1
    total = 0
    for p in moves:
        child = ref.copy()
        child.play(p)
        total += reference_perft(child, depth - 1)
    return total


def agree(board, ref):
    """The board's stones, side, phase and legal moves are the reference's."""
    size = ref.size
    chars = {EMPTY: None, DARK: "D", LIGHT: "L"}
    assert [chars[v] for v in board.cells()] == [ref.stones.get(p) for p in ref.cells()]
    assert "DL"[board.turn - 1] == ref.side and phase(board) == ref.phase
    assert list(board.legal_moves) == [r * size + f for f, r in ref.moves()]


@pytest.mark.parametrize("rules", [SEVEN, NINE], ids=["7x7", "9x9"])
@pytest.mark.parametrize("seed", range(6))
def test_full_random_games_follow_the_reference_and_fill_the_board(rules, seed):
    board = iogame.new_board(rules)
    ref = Reference(rules.size)
    rnd = random.Random(seed)
    while not board.is_game_over():
        agree(board, ref)
        cell = rnd.choice(list(board.legal_moves))
        p = (cell % rules.size, cell // rules.size)
        assert sorted(board.flips(cell)) == sorted(q[1] * rules.size + q[0]
                                                   for q in ref.captures(p))
        board.push(cell)
        ref.play(p)
        assert iogame.Board(board.text(), rules).text() == board.text()
    agree(board, ref)
    assert board.ply() == rules.size ** 2 and EMPTY not in board.cells()


def test_perft_7x7_matches_the_reference():
    # 49 first stones; 4 corners x 3 + 20 edges x 5 + 25 inner x 8 = 312 bound replies.
    board = iogame.new_board(SEVEN)
    table = [iogame.perft(board, d) for d in (1, 2, 3)]
    assert table == [reference_perft(Reference(7), d) for d in (1, 2, 3)]
    assert table == [49, 312, 10752]
    assert board.text() == "7/7/7/7/7/7/7 L first" and board.ply() == 0


@pytest.mark.parametrize("text, rules, depth", [
    (DIAGRAM, NINE, 3),
    ("2L3L/1D3D1/2D4/3L2D/4LL1/1L3D1/D6 L free", SEVEN, 4),
])
def test_perft_from_positions_matches_the_reference(text, rules, depth):
    board = iogame.Board(text, rules)
    ref = Reference(rules.size)
    for cell in range(rules.size ** 2):
        if board.cell(cell):
            ref.stones[(cell % rules.size, cell // rules.size)] = "DL"[board.cell(cell) - 1]
    ref.side = "DL"[board.turn - 1]
    ref.phase = phase(board)
    if board.phase == iogame.BOUND:
        anchor = board.anchor
        ref.history.append(("LD"[board.turn - 1], (anchor % rules.size, anchor // rules.size)))
    agree(board, ref)
    assert ([iogame.perft(board, d) for d in range(1, depth + 1)] ==
            [reference_perft(ref, d) for d in range(1, depth + 1)])


# --- push/pop and the position text ----------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 10 ** 4), min_size=1, max_size=81), st.sampled_from([SEVEN, NINE]))
def test_push_pop_inverse_and_text_round_trip(picks, rules):
    check_push_pop(iogame.new_board(rules), picks)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from([SEVEN, NINE]))
def test_pop_restores_every_state(seed, rules):
    board = random_game(rules, seed)
    states = []
    replay = iogame.new_board(rules)
    for cell in board.move_stack:
        states.append((replay.text(), replay.phase, replay.anchor, replay.turn))
        replay.push(cell)
    copy = board.copy()
    assert copy.text() == board.text() and copy.move_stack == board.move_stack
    while board.move_stack:
        board.pop()
        assert (board.text(), board.phase, board.anchor, board.turn) == states.pop()


@pytest.mark.parametrize("text, rules", [
    ("9/9/9/9/9/9/9/9/9 L first", NINE),
    ("7/7/7/3L3/7/7/7 D bound=d4", SEVEN),
    ("7/7/4D2/3L3/7/7/7 D free", SEVEN),
    ("7/7/7/2LD3/7/7/7 D single", SEVEN),
    ("7/7/7/7/7/7/7 L single", SEVEN),
    (DIAGRAM, NINE),
])
def test_position_text_round_trips(text, rules):
    # Format: rows from rank 7 (9) down to rank 1, files a upwards; D black, L white, digits
    # for empty runs; the side to place next; the phase: first, bound=<cell>, free or single.
    assert iogame.Board(text, rules).text() == text
    assert str(iogame.Board.from_text(text, rules)) == text


def test_position_text_reads_dots_and_upper_case_cells():
    board = iogame.Board("......./7/7/...L.../7/7/7 D bound=D4", SEVEN)
    assert board.text() == "7/7/7/3L3/7/7/7 D bound=d4" and board.start_text == board.text()


@pytest.mark.parametrize("text, rules, token", [
    ("7/7/7/7/7/7/7 L", SEVEN, "one phase field"),
    ("7/7/7/7/7/7/7 L first single", SEVEN, "'first single'"),
    ("7/7/7/7/7/7/7 L second", SEVEN, "'second'"),
    ("7/7/7/3D3/7/7/7 L bound=z9", SEVEN, "bound=z9"),
    ("7/7/7/3D3/7/7/7 L bound=h1", SEVEN, "'h1'"),
    ("7/7/7/3D3/7/7/7 L bound=a1", SEVEN, "bound=a1: .* a1 holds none"),
    ("7/7/7/3L3/7/7/7 L bound=d4", SEVEN, "bound=d4: .* d4 holds none"),
    ("7/7/7/2LD3/7/7/7 L bound=d4", SEVEN, "bound=d4: .* c4 is not"),
    ("7/7/7/3D3/7/7/7 L first", SEVEN, "first: the first stone goes on the empty board"),
    ("7/7/7/7/7/7/7 D first", SEVEN, "first: White places the first stone"),
    ("7/1D2L1D/7/1L2D1L/7/1D2L1D/7 L free", SEVEN, "free: no cell is free"),
    ("7/7/7/3X3/7/7/7 L single", SEVEN, "'X'"),
    ("8/7/7/7/7/7/7 L single", SEVEN, "'8'"),
    ("9/9/9/9/9/9/9/9/9 L first", SEVEN, "7 rows"),
    ("7/7/7/7/7/7/7 B first", SEVEN, "'B'"),
    ("7/7/7/7/7/7/7", SEVEN, "side to move"),
])
def test_position_errors_name_the_bad_token(text, rules, token):
    with pytest.raises(InvalidPositionError, match=token):
        iogame.Board(text, rules)


def test_move_errors_name_the_bad_token():
    board = iogame.new_board(SEVEN)
    with pytest.raises(InvalidCellError, match="'h8'"):
        board.play("h8")
    with pytest.raises(InvalidCellError, match="49"):
        board.play(49)
    board.play("d4")
    with pytest.raises(IllegalMoveError, match="^a1 is not a legal move for black; legal: c3 "):
        board.play("a1")
    with pytest.raises(IllegalMoveError, match="d4 is not empty"):
        board.flips(24)


# --- MicroPython ----------------------------------------------------------------------------

# The program of tests/test_games_micropython.py on Io games only, and a perft.
MP_PROGRAM = GAMES_PROGRAM + """
print("perft", [module.perft(module.new_board(module.Rules.parse("7x7")), d) for d in (1, 2, 3)])
print("diagram", module.perft(module.Board(DIAGRAM), 3))
"""
MP_RUNS = [("io", "7x7", 21), ("io", "7x7", 22), ("io", "9x9", 23), ("io", "9x9", 24)]


@pytest.mark.micropython
def test_random_games_identical_under_unix_micropython():
    source = "RUNS = %r\nDIAGRAM = %r\n" % (MP_RUNS, DIAGRAM) + MP_PROGRAM
    expected = run_cpython(source)
    assert expected.count("end io") == len(MP_RUNS)
    assert "perft [49, 312, 10752]" in expected and " single" in expected
    assert mpvm.run_unix(source) == expected
