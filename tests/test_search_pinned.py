"""Both engines' choices pinned: for a few positions of every game, the move, score, line,
depth and node count of each kind of player, budget and stop (node budget, depth limit,
time budget, slices, a search looked at half-way). Refactoring the engines must keep these
to the letter; a change that means to alter the play updates them on purpose."""

import pytest

from iago import games

# (game, rules, position text or None for the start, player, seed, node budget or None for
# the level's, how it is run: "run", "analyse", "depth N", "clock N" (a fake clock that ticks
# once a call, N ms), "slices N")
OTHELLO_LATE = "1LLLLL2/DDDDLL1D/1DLDLLDD/LLDLLLLD/1LLDLLLL/DL1DLLLL/1LDLDDLL/1LL1LLLL D"
CASES = [
    ("iago", "standard", None, 5, 0, 300, "run"),
    ("iago", "standard", None, 1, 3, None, "run"),
    ("iago", "standard", None, 2, 4, None, "slices 7"),
    ("iago", "standard", "5/1D1D2/3l3/3ldlD1/3ldL1l1/1Lldl2D/1d2DD1/1L4/5 D", 3, 1, None,
     "run"),
    ("iago", "standard", "5/1D1D2/3l3/3ldlD1/3ldL1l1/1Lldl2D/1d2DD1/1L4/5 D", 5, 2, 900,
     "slices 64"),
    ("iago", "standard", "5/1D1D2/3l3/3ldlD1/3ldL1l1/1Lldl2D/1d2DD1/1L4/5 D", 5, 2, None,
     "depth 3"),
    ("iago", "standard", "L1L2/1ddd2/L1LlL2/1d1ldlD1/2LldLDl1/1Lldld1D/1dDDDd1/1ll2L/DD3 D",
     4, 5, None, "analyse"),
    ("iago", "standard", "L1L2/1ddd2/L1LlL2/1d1ldlD1/2LldLDl1/1Lldld1D/1dDDDd1/1ll2L/DD3 D",
     5, 5, 2000, "clock 20"),
    ("iago", "standard", "LLL2/1dDdD1/L1LLl2/1dDlDlD1/2lldLDlL/1lldldld/DDDDDDd/1llL1L/DD3 D",
     5, 6, None, "run"),
    ("iago", "standard", "LLL2/1dDdD1/L1LLl2/1dDlDlD1/2lldLDlL/1lldldld/DDDDDDd/1llL1L/DD3 D",
     "greedy", 6, None, "run"),
    ("iago", "standard", "LLL2/1dDdD1/L1LLl2/1dDlDlD1/2lldLDlL/1lldldld/DDDDDDd/1llL1L/DD3 D",
     "random", 6, None, "run"),
    ("iago", "loose", "5/1DLdL1/1l3L1/1DL1DDL1/1DL2lL2/DllDDLL1/1DlDDd1/2DDL1/5 D", 5, 7, 600,
     "run"),
    ("iago", "simple+penalty",
     "3L1/1DLdL1/3L3/2L1DDL1/2LdLll2/1LLDD1l1/2DDDDD/3D2/5 D miss", 4, 8, None, "run"),
    ("iago", "standard", "D2L1/ldL1d1/DDLDlL1/lDLdlLdL/DlLddL1D1/DLDl1dl1/LdddLd1/DLLLLL/DDDD1 L",
     5, 9, None, "analyse"),
    ("iago", "standard", "5/2DDLL/2DDld1/5LdL/2D2dd2/4L1L1/1L1d3/1dL3/1L3 L", 5, 1, None,
     "run"),
    ("iago", "standard", "5/2DDLL/2DDld1/5LdL/2D2dd2/4L1L1/1L1d3/1dL3/1L3 L", 3, 1, None,
     "analyse"),
    ("othello", "standard", None, 5, 0, 400, "run"),
    ("othello", "standard", None, 1, 1, None, "slices 1"),
    ("othello", "standard", "3L4/2L1LL2/2DLDLLL/2LDLDLD/1L1DDLD1/4D3/3L1D2/8 D", 2, 2, None,
     "run"),
    ("othello", "standard", "3L4/2L1LL2/2DLDLLL/2LDLDLD/1L1DDLD1/4D3/3L1D2/8 D", 5, 3, 1200,
     "slices 32"),
    ("othello", "standard", "3L4/2L1LL2/2DLDLLL/2LDLDLD/1L1DDLD1/4D3/3L1D2/8 D", 5, 3, None,
     "depth 2"),
    ("othello", "standard", "3L4/2L1LL2/2DLDLLL/2LDLDLD/1L1DDLD1/4D3/3L1D2/8 D", "greedy", 3,
     None, "run"),
    ("othello", "standard", OTHELLO_LATE,
     5, 4, None, "analyse"),
    ("othello", "standard", OTHELLO_LATE,
     3, 4, None, "clock 5"),
    ("io", "7x7", None, 5, 0, 500, "run"),
    ("io", "7x7", "1L5/2D2L1/6D/3L3/5DL/2D4/1L5 D bound=d4", 5, 1, 700, "slices 7"),
    ("io", "7x7", "1L5/2D2L1/6D/3L3/5DL/2D4/1L5 D bound=d4", 1, 1, None, "run"),
    ("io", "7x7", "DL1L3/DDLL1LD/DDDL2D/LDLLL2/1D2LLL/2DDDLL/1L3D1 L single", 5, 2, None,
     "run"),
    ("io", "7x7", "DL1L3/DDLL1LD/DDDL2D/LDLLL2/1D2LLL/2DDDLL/1L3D1 L single", "random", 2, None,
     "run"),
    ("io", "9x9", "1L7/D2DL1DL1/8D/L2D4L/D2L1LD1L/8L/1D6L/L1D1L2LD/3L1D3 D single", 4, 3,
     None, "run"),
    ("io", "9x9", "1L7/D2DL1DL1/8D/L2D4L/D2L1LD1L/8L/1D6L/L1D1L2LD/3L1D3 D single", 5, 3, 800,
     "depth 3"),
    ("numberline", "standard", None, 5, 0, None, "run"),
    ("numberline", "standard", "L2D1D4 L", 2, 5, None, "slices 3"),
    ("numberline", "standard", "L2D1D4 L", "greedy", 5, None, "run"),
    ("numberline", "ties-to-2+holes=22,26", "2XL2X2D D", 5, 6, None, "analyse"),
    ("numberline", "ties-to-2+holes=22,26", "2XL2X2D D", 3, 6, 60, "slices 5"),
]

# Each case: the result half-way (after a first slice of 13) and at the end, as
# "move score depth nodes proven line".
EXPECTED = [
    'C3 0 | C3 0 0 13 0 C3 | C3 10 2 300 0 C3,C5,C4',
    'B2 0 | B2 0 0 13 0 B2 | E6 26 1 36 0 E6',
    'B2 0 | B2 0 0 13 0 B2 | D5 5 1 80 0 D5,C3',
    'B1 0 | B1 0 0 13 0 B1 | F4 15 2 250 0 F4,C3,C4',
    'G7 0 | G7 0 0 13 0 G7 | C3 7 3 900 0 C3,G5,A1,I5',
    'G7 0 | G7 0 0 13 0 G7 | C3 31 3 439 0 C3,C4,A1',
    'D7 0 | C1 10 1 12 0 C1 | F4 24 4 700 0 F4,G8,C1,H8,I8',
    'D7 0 | C1 10 1 12 0 C1 | F4 24 4 960 0 F4,G8,C1,H8,I8',
    'A4 0 | A4 40 2 10 0 A4,B5 | A4 143 10 4000 0 A4,B5,A5,G4,H4,B1,A3,D1,F2,I8,G8',
    'A4 2 | A4 26 1 2 0 A4 | A4 26 1 2 0 A4',
    'A3 0 | A3 0 0 0 0 A3 | A3 0 0 0 0 A3',
    'C7 0 | C7 0 0 13 0 C7 | A5 54 3 600 0 A5,E1,C7',
    'D1 0 | D1 18 1 3 0 D1 | F3 -7 7 700 0 F3,B5,I6,F5,A4,B2,D6,F2',
    'C7 0 | E7 13 1 5 0 E7 | E7 100010 5 185 1 E7,I6,E9,D5,H7',
    'H5 1 | H5 16 1 1 0 H5 | H5 16 1 1 0 H5',
    'H5 0 | H5 -8 2 3 0 H5,I5 | H5 -5 4 250 0 H5,I5,I7,I6',
    'd3 0 | d3 -14 1 4 0 d3 | d3 27 4 400 0 d3,c5,d6,e3',
    'd3 0 | e6 -14 1 4 0 e6 | e6 -13 2 40 0 e6,f4,f3',
    'c1 0 | e8 -52 1 12 0 e8 | f3 -71 2 150 0 f3,f1,h7',
    'c1 0 | c1 -50 1 12 0 c1 | h7 53 4 1200 0 h7,c4,a4,g1',
    'c1 0 | c1 -50 1 12 0 c1 | h7 41 2 67 0 h7,c4',
    'g7 12 | g7 5 1 12 0 g7 | g7 5 1 12 0 g7',
    'd1 0 | a4 -126 1 6 0 a4 | d1 -163 7 4000 0 d1,c3,a1,h8,a4,a8,g8,a2',
    'd1 0 | a4 -126 1 6 0 a4 | d1 -165 3 92 0 d1,h8,a1',
    'a1 0 | a1 0 0 13 0 a1 | a1 91 3 500 0 a1,b1,d1',
    'c3 0 | d3 80 1 8 0 d3 | d3 -166 4 700 0 d3,a4,a3,e1,d1',
    'c3 0 | e5 80 1 8 0 e5 | e5 21 1 40 0 e5,e1',
    'a1 0 | a1 0 0 13 0 a1 | a1 -103 4 4000 0 a1,g7,g1,a3,c1',
    'g7 0 | g7 0 0 0 0 g7 | g7 0 0 0 0 g7',
    'a1 0 | a1 0 0 13 0 a1 | a1 -226 2 1500 0 a1,a9,i1',
    'a1 0 | a1 0 0 13 0 a1 | a1 -226 2 800 0 a1,a9,i1',
    '20 0 | 20 16 1 10 0 20 | 20 0 6 4000 0 20,26,21,27,29,22',
    '21 0 | 26 32 1 7 0 26 | 26 -16 3 150 0 26,21,22,27',
    '26 7 | 26 2 1 7 0 26 | 26 2 1 7 0 26',
    '20 0 | 20 16 1 6 0 20 | 20 -100000 6 335 1 20,21,27,24,25,28',
    '20 0 | 20 16 1 6 0 20 | 20 16 2 60 0 20,21,24',
]


def board_of(game, rules, text):
    module = games.module(game)
    rules = module.Rules.parse(rules)
    return module.new_board(rules) if text is None else module.Board(text, rules)


def shown(board, r):
    name = board.grid.cell_name
    return "%s %d %d %d %d %s" % (
        "-" if r.move is None else name(r.move), r.score, r.depth, r.nodes, r.proven,
        ",".join(name(c) for c in r.pv))


def outcome(case):
    game, rules, text, player, seed, nodes, how = case
    board = board_of(game, rules, text)
    kind, _, arg = how.partition(" ")
    extra = {}
    if kind == "analyse":
        extra["analyse"] = True
    elif kind == "depth":
        extra["max_depth"] = int(arg)
        extra["analyse"] = True
    elif kind == "clock":
        ticks = [0]

        def clock():
            ticks[0] += 1
            return ticks[0]
        extra["clock"] = clock
        extra["time_ms"] = int(arg)
    module = __import__("iago.engine" if game == "iago" else "iago.search", None, None, ["x"])
    before = board.text()
    half = module.Search(board, player, seed, nodes, **extra)
    half.step(13)
    mid = shown(board, half.result())
    s = module.Search(board, player, seed, nodes, **extra)
    first = "%s %d" % ("-" if s.best() is None else board.grid.cell_name(s.best()), s.nodes())
    if kind == "slices":
        while not s.step(int(arg)):
            pass
        r = s.result()
    else:
        r = s.run()
    assert board.text() == before
    assert r is s.result() and s.done() and r.nodes == s.nodes() and r.move == s.best()
    return "%s | %s | %s" % (first, mid, shown(board, r))


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_engines_play_as_pinned(index):
    assert outcome(CASES[index]) == EXPECTED[index], CASES[index]
