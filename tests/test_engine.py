"""The engine (iago.engine): legal, deterministic, sliceable, sound in the endgame, and the
same moves under the MicroPython VMs as under CPython."""

import contextlib
import io

import pytest

import iago
import mpvm
from iago import engine

SMALL = 150   # node budget that keeps a test quick but still searches a few plies deep
RULES = ["standard", "loose", "simple", "loose+simple", "standard+penalty", "simple+penalty"]

# End positions found by brute force (see solve below): the side to move has exactly one
# winning placement.
ONE_WIN = [
    ("D2L1/ldL1d1/DDLDlL1/lDLdlLdL/DlLddL1D1/DLDl1dl1/LdddLd1/DLLLLL/DDDD1 L", "E7"),
    ("LDDDD/LdDDLl/1DDlDdD/1DLdLdd1/DldDdLlL1/1L1LLlL1/1LLLdL1/1d1dL1/L2L1 D", "A3"),
    ("L1D2/1dDl2/1ldlDD1/1DllD3/LLDddlDlD/dllDlDl1/LLlLdLD/ddLdlD/LL2D D", "D8"),
    ("L4/1dlDD1/1lLDldL/1DlDlLd1/1ldddLLdL/DDD2L2/1DlLdL1/1DlLd1/2DlD L", "E1"),
    ("2L1L/DlDld1/DLDdLdL/1lLlL1d1/2DddDL2/1ldLldL1/DDDDlD1/1lLLl1/1DDD1 L", "F2"),
]
# ... where that one winning placement wins on equal scores through the centre tie-break.
TIE_BREAK_WIN = [
    ("L2D1/1dDldL/Lldlld1/dLdldL2/LDDlDDdL1/LLlDllL1/ddlDDlD/LLddDl/4D D", "F8",
     iago.CENTRE_DISK),
    ("1D1D1/LLLLL1/1dDDdlD/1lLDddL1/1D1ldlDLD/1DlLDLdL/1ldLDld/DDLlDL/1LdLD L", "E3",
     iago.CENTRE_CAPTIVE),
    ("3D1/LddlD1/LDLDDLD/1lLDllDl/1D1lLdDlD/1llDlDd1/1DdLdd1/LdLLL1/5 L", "E3",
     iago.CENTRE_DISK),
]


def lcg(seed):
    rng = engine.Lcg(seed)
    return rng.below


def random_positions(rules_name, count, seed):
    """Positions along random games (every fourth placement), claims taken when possible."""
    rules = iago.Rules.parse(rules_name)
    pick = lcg(seed)
    out = []
    while len(out) < count:
        board = iago.Board(rules=rules)
        while not board.is_game_over() and len(out) < count:
            if board.can_claim() and pick(2):
                board.claim_penalty()
            if board.ply() % 4 == 3:
                out.append(board.copy())
            moves = list(board.legal_moves)
            board.push(moves[pick(len(moves))])
    return out


def solve(board):
    """Whether the side to move wins with perfect play: plain minimax on the Board API."""
    if board.is_game_over():
        return board.outcome().winner == board.turn
    for cell in list(board.legal_moves):
        board.push(cell)
        lost = not solve(board)
        board.pop()
        if lost:
            return True
    return False


# --- legality and determinism ------------------------------------------------------------

@pytest.mark.parametrize("rules_name", RULES)
def test_every_player_returns_a_legal_move(rules_name):
    for i, board in enumerate(random_positions(rules_name, 24, seed=len(rules_name))):
        for player in engine.PLAYERS:
            before = board.text()
            move = engine.choose_move(board, player, seed=i, nodes=SMALL)
            assert move in board.legal_moves, (player, board.text())
            assert board.text() == before   # the board is left alone
            if board.rules.penalty and not board.has_free_placement():
                assert not board.is_miss(move), (player, board.text())


def test_free_placement_after_a_claim_may_go_anywhere():
    # INTERPRETATIONS, penalty: after a granted claim every empty cell is legal; the engine
    # uses that (here the centre is no capture but the only way to keep the tie-break).
    board = iago.Board("5/6/7/8/5LLD1/2D5/4LD1/6/1LLD1 L free",
                       iago.Rules.parse("standard+penalty"))
    moves = engine.candidate_moves(board)
    assert len(moves) == 52
    assert engine.choose_move(board, 3, nodes=SMALL) in board.legal_moves


def test_game_over_gives_no_move():
    board = iago.Board()
    while not board.is_game_over():
        board.push(list(board.legal_moves)[0])
    for player in engine.PLAYERS:
        assert engine.choose_move(board, player) is None
        assert engine.Search(board, player).step() is True


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level"):
        engine.Search(iago.Board(), 6)
    with pytest.raises(ValueError):
        engine.Search(iago.Board(), "3")


def test_same_seed_and_budget_same_result():
    for board in random_positions("standard", 6, seed=11):
        for level in (1, 2, 3, 5):
            a = engine.Search(board, level, seed=5, nodes=400).run()
            b = engine.Search(board, level, seed=5, nodes=400).run()
            assert (a.move, a.score, a.pv, a.depth, a.nodes) == \
                (b.move, b.score, b.pv, b.depth, b.nodes)


def test_seed_varies_the_choice_among_equal_moves():
    # On the empty board many first placements are equal: the seed picks among them.
    board = iago.Board()
    assert len({engine.choose_move(board, "random", seed=s) for s in range(12)}) > 3
    assert len({engine.choose_move(board, 1, seed=s) for s in range(12)}) > 1


def test_principal_variation_is_a_legal_line_from_the_best_move():
    for board in random_positions("standard", 8, seed=3):
        result = engine.analyse(board, 4)
        assert result.pv[0] == result.move
        line = board.copy()
        for cell in result.pv:
            assert cell in line.legal_moves
            line.push(cell)
        assert 1 <= result.depth <= len(result.pv) or result.proven


def static_value(board):
    count = board.rules.scoring == iago.COUNT
    ev = engine._counters(board.cell_states)
    if board.is_game_over():
        return engine._final(ev, board.cell_states, board.turn, count)
    return engine.evaluate(ev, board.turn, board._empty_inner, count)


def negamax(board, depth):
    """Plain negamax on the Board API with the engine's evaluation: no pruning, no ordering."""
    if depth == 0 or board.is_game_over():
        return static_value(board)
    best = -engine.WIN * 10
    for cell in engine.candidate_moves(board):
        board.push(cell)
        best = max(best, -negamax(board, depth - 1))
        board.pop()
    return best


@pytest.mark.parametrize("rules_name", ["standard", "loose", "simple"])
def test_alpha_beta_value_equals_plain_negamax(rules_name):
    """Pruning, move ordering and the resumable stacks change nothing: at a fixed depth the
    search's value is exactly the minimax value (its own make/unmake and counters agree with
    Board.push)."""
    for board in random_positions(rules_name, 12, seed=7):
        for depth in (1, 2, 3):
            result = engine.Search(board, 5, nodes=10 ** 7, max_depth=depth, analyse=True).run()
            assert result.score == negamax(board, depth), (board.text(), depth)


# --- slices and budgets ------------------------------------------------------------------

@pytest.mark.parametrize("slice_nodes", [1, 7, 64, 500])
def test_slices_give_the_same_result_as_one_step(slice_nodes):
    for board in random_positions("standard", 4, seed=21) + [iago.Board()]:
        whole = engine.Search(board, 4, seed=2)
        assert whole.step(10 ** 9) is True
        sliced = engine.Search(board, 4, seed=2)
        steps = 0
        while not sliced.step(slice_nodes):
            steps += 1
            assert sliced.best() in board.legal_moves   # a move is ready at any time
            assert sliced.nodes() <= steps * slice_nodes
        a, b = whole.result(), sliced.result()
        assert (a.move, a.score, a.pv, a.depth, a.nodes) == \
            (b.move, b.score, b.pv, b.depth, b.nodes)


def test_node_budget_is_respected():
    board = random_positions("standard", 1, seed=8)[0]
    for nodes in (1, 10, 333, 1000):
        result = engine.Search(board, 5, nodes=nodes).run()
        assert result.nodes <= nodes
        assert result.move in board.legal_moves


def test_a_level_spends_its_node_budget_on_a_minimax_best_move():
    board = random_positions("standard", 1, seed=9)[0]
    replies = list(board.legal_moves)
    assert len(replies) == 33
    for level, (budget, depth_limit, noise) in engine.LEVELS.items():
        result = engine.Search(board, level).run()
        assert result.move in replies
        # It stops at its budget, or at its depth limit once every reply is looked at: a
        # search that gave up early does neither.
        assert result.nodes == budget or (result.depth == depth_limit
                                          and len(replies) <= result.nodes <= budget), level
        if not noise:
            # Plain negamax at the depth the search completed values its move as the best.
            board.push(result.move)
            value = -negamax(board, result.depth - 1)
            board.pop()
            assert value == negamax(board, result.depth), level
    assert engine.Search(board, 5).run().depth >= 3


def test_time_budget_uses_the_given_clock():
    now = [0]

    def clock():
        now[0] += 1   # one "millisecond" each time the search looks at the clock
        return now[0]

    board = random_positions("standard", 1, seed=4)[0]
    search = engine.Search(board, 5, nodes=10 ** 6, clock=clock, time_ms=20)
    result = search.run()
    assert result.move in board.legal_moves
    assert result.nodes < 64 * 25   # the clock is read every 64 nodes
    assert now[0] >= 20


# --- what the players choose -------------------------------------------------------------

def immediate_margin(board, cell):
    board.push(cell)
    mover = board.turn ^ 3
    margin = board.score(mover) - board.score(mover ^ 3)
    board.pop()
    return margin


@pytest.mark.parametrize("rules_name", ["standard", "simple"])
def test_greedy_takes_the_best_immediate_score(rules_name):
    for i, board in enumerate(random_positions(rules_name, 30, seed=5)):
        margins = {c: immediate_margin(board, c) for c in engine.candidate_moves(board)}
        best = max(margins.values())
        result = engine.analyse(board, "greedy", seed=i)
        assert margins[result.move] == best
        assert result.score == best


def test_greedy_breaks_ties_by_seed_among_the_best():
    board = iago.Board()   # every first placement scores the same
    picks = {engine.choose_move(board, "greedy", seed=s) for s in range(20)}
    assert len(picks) > 3 and picks <= set(board.legal_moves)


@pytest.mark.parametrize("text,winning", ONE_WIN)
def test_finds_the_only_winning_move_in_an_end_position(text, winning):
    board = iago.Board(text)
    assert solve(board)
    if board._empty_inner <= 2:
        assert iago.cell_name(engine.choose_move(board, 5)) == winning
    result = engine.analyse(board, 5, nodes=100000)
    assert iago.cell_name(result.move) == winning
    assert result.proven and result.score > engine.WIN - 1000


@pytest.mark.parametrize("text,winning,tie_break", TIE_BREAK_WIN)
def test_wins_through_the_centre_tie_break(text, winning, tie_break):
    board = iago.Board(text)
    result = engine.analyse(board, 5)
    assert iago.cell_name(result.move) == winning
    assert result.proven and result.score == engine.WIN   # a win by 0 points
    board.push(result.move)
    outcome = board.outcome()
    assert outcome.winner == board.turn ^ 3 and outcome.tie_break == tie_break


@pytest.mark.parametrize("rules_name", ["standard", "simple"])
def test_proven_results_agree_with_brute_force(rules_name):
    """Endgames with one or two empty inner cells (the outer ring may still take many disks):
    the search proves each one, and its verdict is the brute-force one."""
    for seed in range(30):
        pick = lcg(seed)
        board = iago.Board(rules=iago.Rules.parse(rules_name))
        while board._empty_inner > 1 + seed % 2:
            moves = list(board.legal_moves)
            board.push(moves[pick(len(moves))])
        result = engine.Search(board, 5, nodes=100000, analyse=True).run()
        assert result.proven, board.text()
        assert (result.score > 0) == solve(board), board.text()


def test_search_beats_greedy_in_a_short_match():
    from host_sim import play
    result = play.run_match(3, engine.GREEDY, 8, seed=1)
    assert result.wins >= 6


# --- MicroPython -------------------------------------------------------------------------

GAME_PROGRAM = """
import iago
from iago import engine
for rules_name, seed, nodes in RUNS:
    board = iago.Board(rules=iago.Rules.parse(rules_name))
    while not board.is_game_over():
        ply = board.ply()
        player = engine.PLAYERS[(seed + ply) % len(engine.PLAYERS)]
        search = engine.Search(board, player, engine.mix_seed(seed, ply), nodes=nodes)
        while not search.step(53):
            pass
        r = search.result()
        print(ply, player, r.move, r.score, r.depth, r.nodes, r.proven, bytes(r.pv).hex())
        board.push(r.move)
    print("end", board.text(), board.outcome().winner)
"""
GAME_RUNS = [("standard", 1, 300), ("loose", 2, 200), ("simple", 3, 200)]


def run_cpython(source):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<engine games>", "exec"), {})
    return out.getvalue()


@pytest.mark.micropython
@pytest.mark.parametrize("vm", ["unix", "wasm"])
def test_micropython_chooses_the_same_moves_as_cpython(vm):
    source = "RUNS = %r\n" % GAME_RUNS + GAME_PROGRAM
    expected = run_cpython(source)
    assert expected.count("end ") == len(GAME_RUNS)
    got = mpvm.RUNNERS[vm](source)
    assert got.splitlines() == expected.splitlines()


@pytest.mark.micropython
def test_engine_heap_under_unix_micropython():
    """A whole game of level-5 searches under a 200 KB heap: the engine module costs under
    20 KB and a search under 16 KB live (64-bit objects, up to twice their Pico size; the
    emulated Pico figures are in docs/engine.md)."""
    out = mpvm.run_unix("""
import gc
import iago
from iago import rules   # Iago's rules: the package face loads them on first use, not the engine
gc.collect()
a0 = gc.mem_alloc()
from iago import engine
gc.collect()
module = gc.mem_alloc() - a0
board = iago.Board()
worst = 0
while not board.is_game_over():
    gc.collect()
    b0 = gc.mem_alloc()
    search = engine.Search(board, 5, board.ply())
    while not search.step(200):
        pass
    gc.collect()
    worst = max(worst, gc.mem_alloc() - b0)
    board.push(search.best())
    search = None
print(module, worst, board.ply())
""", heap="200k")
    module, worst, plies = (int(x) for x in out.split())
    assert plies >= 37
    assert 0 < module < 20 * 1024
    assert 0 < worst < 16 * 1024


def test_the_move_generators_contract_is_the_same_in_every_copy():
    # rules and engine keep private copies (inlined on a Pico, no interned names).
    from iago import engine, hexgrid, movegen, rules
    contract = (movegen.MOVES, movegen.SCRATCH_SIZE, movegen.RELEASE_ON, movegen.FORCED_CAPTURE)
    for module in (rules, engine):
        assert (module._MOVES, module._SCRATCH_SIZE, module._RELEASE_ON,
                module._FORCED_CAPTURE) == contract
    assert (rules._CENTRE, rules._NO_CELL) == (hexgrid.CENTRE, hexgrid.NO_CELL)
