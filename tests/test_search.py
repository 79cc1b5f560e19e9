"""The generic engine (iago.search) that plays Othello, Io and the number line."""

import pytest

import mpvm
from iago import engine, games, iogame, numberline, othello, search
from iago.searchcore import Lcg
from test_rules_micropython import run_cpython

GAMES = (
    ("othello", othello, None),
    ("io 7x7", iogame, iogame.Rules("7x7")),
    ("io 9x9", iogame, iogame.Rules("9x9")),
    ("numberline", numberline, None),
    ("numberline ties-to-2+holes=22,26", numberline,
     numberline.Rules.parse("ties-to-2+holes=22,26")),
)
GAME_IDS = [g[0] for g in GAMES]


def reference_value(board, depth=None):
    """The value of `board` for the side to move by plain full-width negamax, to the end of
    the game (exact: WIN + margin for a win, the board's outcome saying who won, -WIN + margin
    for a loss, the margin (0) for a draw) or `depth` placements deep with the engine's own
    evaluation at the leaves. A placement after which the same side places again keeps the
    sign."""
    outcome = board.outcome()
    me = board.turn
    if outcome is not None:
        margin = outcome.dark_score - outcome.light_score
        if me != othello.DARK:
            margin = -margin
        if outcome.winner == me:
            return search.WIN + margin
        if outcome.winner == 0:
            return margin
        return -search.WIN + margin
    if depth == 0:
        return search.Search(board, 5)._evaluate()
    best = None
    for move in list(board.legal_moves):
        board.push(move)
        value = reference_value(board, None if depth is None else depth - 1)
        if board.turn != me:
            value = -value
        board.pop()
        if best is None or value > best:
            best = value
    return best


def play_randomly_until(module, rules, empties, seed):
    """A position with `empties` empty cells, reached by seeded random placements."""
    board = module.new_board(rules)
    rng = Lcg(seed)
    while not board.is_game_over():
        if sum(1 for v in board.cell_states if v == 0) <= empties:
            return board
        moves = list(board.legal_moves)
        board.push(moves[rng.below(len(moves))])
    return None


def test_slices_give_the_same_move_as_one_step():
    board = othello.new_board()
    for move in ("d3", "c5", "f6"):
        board.play(move)
    whole = search.Search(board, 4, seed=3)
    assert whole.step(10 ** 6)
    sliced = search.Search(board, 4, seed=3)
    steps = 0
    while not sliced.step(32):
        steps += 1
    assert steps > 10
    assert (sliced.best(), sliced.result().score) == (whole.best(), whole.result().score)
    assert sliced.result().nodes == whole.result().nodes


@pytest.mark.parametrize("name,module,rules", GAMES, ids=GAME_IDS)
def test_any_slice_size_gives_the_same_search(name, module, rules):
    # Io's bound-then-free turns (the same side twice) and the number line's solve included.
    board = play_randomly_until(module, rules, module.new_board(rules).grid.CELLS - 6, 5)
    whole = search.analyse(board, 5, seed=2)
    for size in (1, 7, 100):
        s = search.Search(board, 5, seed=2, analyse=True)
        while not s.step(size):
            pass
        r = s.result()
        assert (r.move, r.score, r.pv, r.depth, r.nodes, r.proven) == (
            whole.move, whole.score, whole.pv, whole.depth, whole.nodes, whole.proven)


def test_the_search_leaves_the_board_alone_and_plays_legal_moves():
    for _name, module, rules in GAMES:
        board = module.new_board(rules)
        for level in search.PLAYERS:
            before = board.text()
            move = games.search(board, level, seed=1).run().move
            assert move in board.legal_moves and board.text() == before


@pytest.mark.parametrize("name,module,rules", GAMES, ids=GAME_IDS)
def test_every_level_plays_a_whole_game_of_legal_moves(name, module, rules):
    board = module.new_board(rules)
    while not board.is_game_over():
        level = search.PLAYERS[board.ply() % len(search.PLAYERS)]
        s = games.search(board, level, seed=board.ply())
        while not s.step(200):
            pass
        r = s.result()
        assert r.move in board.legal_moves, (level, board.text())
        line = board.copy()
        for move in r.pv:   # the principal variation is a line of legal placements
            assert move in line.legal_moves, (level, board.text(), r.pv)
            line.push(move)
        board.push(r.move)
    assert board.outcome() is not None


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_a_level_spends_its_node_budget_on_a_minimax_best_move(level):
    board = othello.new_board()
    board.play("d3")
    budget, noise = search.LEVELS[level]
    # The opening is far from solved, so the search stops at its budget and not before.
    for nodes in (budget, 25):
        result = search.analyse(board, level, nodes=nodes)
        assert result.nodes == nodes and result.move in board.legal_moves
    assert result.depth >= 2
    result = search.analyse(board, level)
    assert result.depth >= 3
    if not noise and result.depth <= 5:   # deeper references take seconds
        # Plain negamax at the depth the search completed values its move as the best.
        me = board.turn
        values = {}
        for move in list(board.legal_moves):
            board.push(move)
            value = reference_value(board, result.depth - 1)
            values[move] = value if board.turn == me else -value
            board.pop()
        assert values[result.move] == max(values.values())


def test_the_interface_is_iago_engines():
    import iago
    for board in (iago.Board(), othello.new_board(), iogame.new_board(iogame.Rules("7x7")),
                  numberline.new_board()):
        s = games.search(board, 3, seed=1)
        assert isinstance(s, engine.Search if board.GAME == "iago" else search.Search)
        assert not s.done() and s.nodes() == 0
        assert s.best() in board.legal_moves and s.result().move == s.best()
        assert s.step(10) is False and s.nodes() == 10
        r = s.run()
        assert s.done() and s.step(10) and r is s.result()
        assert r.nodes == s.nodes() and r.move == s.best() in board.legal_moves
        assert isinstance(r.score, int) and r.pv[0] == r.move and r.depth >= 1


def test_a_clock_and_a_depth_limit_stop_the_search():
    board = othello.new_board()
    ticks = [0]

    def clock():
        ticks[0] += 1
        return ticks[0]
    r = search.Search(board, 5, clock=clock, time_ms=10).run()
    assert r.move in board.legal_moves and r.nodes < search.LEVELS[5][0]
    assert search.Search(board, 5, max_depth=2, analyse=True).run().depth == 2


def test_the_number_line_example_is_solved():
    # A dime on 29 takes the pennies on 25 and 28 (number-line-iago.txt): the search proves
    # the win it leads to.
    board = numberline.Board("1L3D1LD1 L")
    result = search.analyse(board, 5)
    assert result.proven and result.score > search.WIN
    assert board.grid.cell_name(result.move) == "29"


def test_othello_finds_a_forced_wipe_out():
    # d1 flips d2 and leaves light one disk that falls next move: the search proves the win,
    # where a1 (a corner, one disk) only looks good to a shallow search.
    board = othello.Board("8/8/8/8/3L4/2DDD3/1L1L4/8 D")
    result = search.analyse(board, 5)
    assert board.grid.cell_name(result.move) == "d1"
    assert result.proven and result.score > search.WIN
    assert board.grid.cell_name(search.analyse(board, 1).move) == "a1"


@pytest.mark.parametrize("name,module,rules,empties", [
    ("othello", othello, None, 7),
    ("io 7x7", iogame, iogame.Rules("7x7"), 6),
    ("numberline", numberline, None, 7),
    ("numberline ties-to-2+holes=22,26", numberline,
     numberline.Rules.parse("ties-to-2+holes=22,26"), 6),
])
def test_few_empties_are_solved_exactly(name, module, rules, empties):
    # With few empty cells the search goes to the end: its score is the exact final margin
    # (a tie that goes to player 2 is player 2's win), and its move reaches it.
    only_winning_moves = 0
    for seed in range(6):
        board = play_randomly_until(module, rules, empties, seed)
        if board is None or board.is_game_over():
            continue
        result = search.analyse(board, 5, seed=seed)
        assert result.proven, board.text()
        assert result.score == reference_value(board), board.text()
        values = []
        for move in list(board.legal_moves):
            me = board.turn
            board.push(move)
            value = reference_value(board) * (1 if board.turn == me else -1)
            board.pop()
            values.append((value, move))
        assert max(values)[0] == dict((m, v) for v, m in values)[result.move], board.text()
        winning = [m for v, m in values if v > 0]
        if len(winning) == 1 and len(values) > 1:
            only_winning_moves += 1
    if name == "othello":
        assert only_winning_moves >= 1   # some of these positions have one way to win


def test_io_turns_of_two_placements_keep_the_sign():
    # Io's bound placement and the free one after it are the same side's: two plies deep
    # the side to move chooses both (io-rules.txt: "one stone next to the opponent's last
    # stone ... then one stone on a cell whose eight neighbours are all empty").
    board = iogame.Board(None, iogame.Rules("7x7"))
    for move in ("d4", "c3", "f6"):
        board.play(move)
    assert board.phase == iogame.BOUND
    for depth in (1, 2, 3):
        result = search.Search(board, 5, max_depth=depth, analyse=True).run()
        assert result.depth == depth and result.score == reference_value(board, depth)


def test_a_tie_that_goes_to_player_2_is_a_win_for_player_2():
    board = numberline.Board("DLDLDLDL2 L", numberline.Rules.parse("ties-to-2"))
    result = search.analyse(board, 5)
    assert result.proven and result.score == search.WIN     # light wins on 5-5
    plain = numberline.Board("DLDLDLDL2 L")
    assert search.analyse(plain, 5).score == 0 and search.analyse(plain, 5).proven


def test_a_game_without_hints_is_played_on_the_disk_difference():
    class Variant(othello.Board):
        GAME = "variant"
    board = Variant("8/8/8/8/3L4/2DDD3/1L1L4/8 D")
    assert search.hints_for(board) == ([0] * 64,) + search.DEFAULT_HINTS[1:]
    result = search.analyse(board, 5)
    assert board.grid.cell_name(result.move) == "d1" and result.proven


def test_greedy_takes_the_most_disks():
    board = numberline.Board("1L3D1LD1 L")
    assert board.grid.cell_name(search.choose_move(board, search.GREEDY)) == "29"


def test_random_and_greedy_depend_on_the_seed_only():
    board = othello.new_board()
    for level in (search.RANDOM, search.GREEDY):
        picks = [search.choose_move(board, level, seed) for seed in range(12)]
        assert picks == [search.choose_move(board, level, seed) for seed in range(12)]
        assert len(set(picks)) > 1          # the four openings are equal to greedy


def test_square_weights_mark_corners_and_their_neighbours():
    w = search.square_weights(8)
    g = othello.GRID
    assert [w[g.parse_cell(c)] for c in ("a1", "h8", "b2", "g7", "b1", "a2", "c1", "d4")] == [
        60, 60, -25, -25, -8, -8, 6, 1]
    assert search.square_weights(7)[iogame.Board(None, iogame.Rules("7x7")).grid.parse_cell(
        "f6")] == -25


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level 6"):
        search.Search(othello.new_board(), 6)


@pytest.mark.micropython
def test_same_choices_under_micropython():
    source = """
from iago import games, search
for game, rules, level in (("othello", "standard", 3), ("io", "7x7", 2), ("io", "9x9", 4),
                           ("numberline", "standard", 5), ("numberline", "ties-to-2+holes=24", 5),
                           ("othello", "standard", "greedy")):
    module = games.module(game)
    board = module.new_board(module.Rules.parse(rules))
    for ply in range(8):
        if board.is_game_over():
            break
        s = games.search(board, level, seed=ply)
        while not s.step(50):
            pass
        r = s.result()
        print(game, board.grid.cell_name(r.move), r.score, r.depth, r.nodes, r.proven,
              " ".join(board.grid.cell_name(c) for c in r.pv))
        board.push(r.move)
"""
    expected = run_cpython(source)
    assert expected.count("othello") == 16
    assert mpvm.run_unix(source) == expected
