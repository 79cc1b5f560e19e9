"""The computer opponent for the games other than Iago (Othello, Io, the number line).

    >>> from iago import othello, search
    >>> board = othello.new_board()
    >>> search.choose_move(board, level=3, seed=1) in board.legal_moves
    True

The interface is iago.engine.Search's: `Search(board, level, seed, nodes)`, then `step(n)`
until it returns True (at most n more positions a call, so the board's loop keeps ticking),
then `best()` / `result()`; `done()` and `nodes()` say how far it is. Players: levels 1-5
(node budgets in LEVELS), "random" and "greedy" (the most disks right after the move).

It works on any board with the games' board API (push/pop, legal_moves, turn, outcome,
scores, cell_states; fewer than 255 cells): iterative-deepening alpha-beta (negamax) on a copy of
the board, walked with explicit per-ply stacks allocated once per search, so a search can
stop after any position and resume in the next slice, and never recurses. A placement after
which the same side places again (an Othello pass, Io's bound-then-free turn) keeps the sign
of the value instead of negating it. Once the rest of the game looks like it fits the budget
left, the next iteration searches to the end: its value is the exact final margin (`proven`).

The evaluation, for the side to move, takes its terms from the game's entry in HINTS: a weight
per cell (square boards: corners good, the cells beside a corner bad, edges good), a bonus per
legal move (mobility) and the disk difference, weighted more as the board fills. A finished
game is worth WIN + margin to its winner (the board's own outcome decides who won, so a tie
that goes to player 2 is a win for player 2). Everything is deterministic for seed + node
budget, on CPython and MicroPython alike: no `random`, no hashing, no floats, and sorting
keys are unique (MicroPython's sort is not stable).
"""

from iago.searchcore import (GREEDY, PLAYERS, RANDOM, WIN,  # noqa: F401  (re-exported)
                             Lcg, Result, Scaffold, mix_seed)
from iago.core import DARK, EMPTY

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Level -> (positions searched a move, root noise in evaluation units). The noise is a fixed
# seeded amount per root move that makes the low levels err like people do.
LEVELS = {1: (40, 40), 2: (150, 12), 3: (500, 0), 4: (1500, 0), 5: (4000, 0)}

_INF = const(1000000)       # searchcore.INF, a constant in the walk
_NONE = const(255)          # no cell (no killer, no previous line)

# Evaluation hints per game (board.GAME): (cell weights, points a legal move of the side to
# move, points a disk of difference on the empty board, the same on the full board). The
# disk weight goes linearly from the third to the fourth as the board fills. Cell weights:
# SQUARE is square_weights(size); None weighs every cell 0.
SQUARE = "square"
HINTS = {
    # Othello: corners never turn, the X- and C-squares next to a corner give it away,
    # mobility wins the middle game, disks count only at the end.
    "othello": (SQUARE, 6, 0, 4),
    # Io: the same geometry and capture, so the same shape of hints.
    "io": (SQUARE, 6, 0, 4),
    # The number line: every mark is alike and any empty mark is a move: coins alone count.
    "numberline": (None, 0, 16, 16),
}
DEFAULT_HINTS = (None, 0, 4, 16)   # a game without an entry: the disk difference


def square_weights(size):
    """Weights of a size x size board, a1 first: corner 60, the edge cells next to a corner
    -8, the cell diagonally next to a corner -25, other edge cells 6, the rest 1."""
    out = []
    last = size - 1
    for rank in range(size):
        for file in range(size):
            edge_f = file == 0 or file == last
            edge_r = rank == 0 or rank == last
            near_f = file == 1 or file == last - 1
            near_r = rank == 1 or rank == last - 1
            if edge_f and edge_r:
                w = 60
            elif near_f and near_r:
                w = -25
            elif (edge_f and near_r) or (edge_r and near_f):
                w = -8
            elif edge_f or edge_r:
                w = 6
            else:
                w = 1
            out.append(w)
    return out


def hints_for(board):
    """(weights, mobility, early disk weight, late disk weight) for `board`'s game."""
    kind, mobility, early, late = HINTS.get(board.GAME, DEFAULT_HINTS)
    cells = board.grid.CELLS
    if kind == SQUARE:
        weights = square_weights(board.grid.size)
    else:
        weights = [0] * cells
    return weights, mobility, early, late


def final_value(board, side):
    """The value of the finished game on `board` for `side`: WIN + margin to the winner,
    -WIN + margin to the loser, the margin (0) for a draw."""
    outcome = board.outcome()
    dark, light = outcome.dark_score, outcome.light_score
    margin = dark - light if side == DARK else light - dark
    if outcome.winner == side:
        return WIN + margin
    if outcome.winner == EMPTY:
        return margin
    return -WIN + margin


# searchcore's states of the resumable search, as constants in the walk.
_ENTER = const(0)    # a position has been reached and is not counted yet
_NEXT = const(1)     # try the next move of the position at `ply`
_RETURN = const(2)   # the position at `ply` has its value


class Search(Scaffold):
    """A resumable search of `board` (which it copies) for the side to move.

    level: 1-5, "random" or "greedy". seed: the noise of the low levels and greedy's choice
    among equal moves. nodes: overrides the level's node budget. clock and time_ms: a callable
    returning milliseconds and a time budget (the search also stops when it runs out; the
    result then depends on the machine's speed). max_depth: a depth limit. A single legal
    move is played without thinking, unless `analyse` asks for its score. The public face
    and iterative deepening are searchcore.Scaffold's.
    """

    def __init__(self, board, level=5, seed=0, nodes=None, clock=None, time_ms=None,
                 max_depth=None, analyse=False):
        self.board = board = board.copy()
        budget, noise = LEVELS[level] if level in LEVELS else (0, 0)
        rng = Lcg(seed)
        root = candidate_moves(board)
        Scaffold.__init__(self, level, seed, clock, time_ms, budget if nodes is None else nodes,
                          root, rng)
        if self.done():
            return
        if level == GREEDY:
            self._greedy(rng)
            return
        hints = hints_for(board)
        self._weights, self._mobility, self._early, self._late = hints
        if len(root) == 1 and not analyse:
            self._finish(Result(root[0], 0, [root[0]], 0, 0, False))
            return
        plies = 0
        for v in board.cell_states:
            if v == EMPTY:
                plies += 1
        # Every placement fills a cell: no line is longer.
        depth_limit = plies if max_depth is None or max_depth > plies else max_depth
        # Moves are tried heaviest cell first, then in cell order: unique keys.
        weights = self._weights
        rank = [0] * len(weights)
        order = sorted(range(len(weights)), key=lambda c: c - weights[c] * 256)
        for i in range(len(order)):
            rank[order[i]] = i
        self._key = lambda c: rank[c]
        root.sort(key=self._key)
        amounts = [0] * len(weights)
        if noise:
            noise_rng = Lcg(mix_seed(seed, 1))
            for c in root:
                amounts[c] = noise_rng.below(2 * noise + 1) - noise
        self._stacks(plies, depth_limit, amounts)
        m = self._max_depth + 1
        self._moves = [root] * (m + 1)          # the ordered moves of each ply
        self._negate = bytearray(m + 1)         # 1 if the side changed on reaching ply p

    def _greedy_value(self, cell):
        """The disk difference right after `cell`."""
        board = self.board
        me = board.turn
        board.push(cell)
        dark, light = board.scores()
        board.pop()
        return dark - light if me == DARK else light - dark

    # --- the walk ---------------------------------------------------------------------

    def _root_moves(self, root):
        self._moves[0] = root

    def _deeper(self):
        """One ply deeper, or straight to the end of the game once that looks like it fits
        the budget left."""
        if self._completed >= 2 and self._max_depth == self._plies and self._solve_fits():
            return self._max_depth
        return self._depth + 1

    def _solve_fits(self):
        """Whether a search to the end of the game (the exact result) should fit in the
        budget left: the last iteration's nodes times its growth over the one before, once
        for every ply still to go."""
        before, last = self._iter_nodes
        growth = last // before if before else last
        if growth < 2:
            growth = 2
        estimate = last
        for _ in range(self._max_depth - self._depth):
            estimate *= growth
            if estimate > self._limit - self._nodes:
                return False
        return True

    def _pause(self, ply, value, nodes):
        Scaffold._pause(self, ply, value, nodes)
        if self.done():             # out of budget: put the board back as it was
            for _ in range(ply):
                self.board.pop()
            self._ply = 0

    def _run(self, stop):
        """The search loop: walk the tree with the per-ply stacks until `stop` nodes, the end
        of the budget or the end of the iteration."""
        board = self.board
        moves = self._moves
        negate = self._negate
        prev_len = self._prev_len
        depth = self._depth
        mi, made, alpha, beta, best, pvlen, follow, prev_pv = self._stack
        improved = self._improved       # (a bound method: looked up once a slice)
        ply, state, value, nodes, stop = self._resume(stop)
        while True:
            if state == _ENTER:
                if nodes >= stop:
                    return self._pause(ply, value, nodes)
                nodes += 1
                if board.is_game_over():
                    value = final_value(board, board.turn)
                    state = _RETURN
                elif ply >= depth:
                    value = self._evaluate()
                    state = _RETURN
                else:
                    moves[ply] = self._ordered(ply, follow[ply] and ply < prev_len)
                    mi[ply] = 0
                    best[ply] = -_INF
                    state = _NEXT
            elif state == _NEXT:
                here = moves[ply]
                i = mi[ply]
                b = best[ply]
                if i < len(here) and b < beta[ply]:
                    cell = here[i]
                    mi[ply] = i + 1
                    made[ply] = cell
                    a = alpha[ply]                 # raised to the best value so far
                    bb = beta[ply]
                    if ply == 0:
                        a, bb = self._root_window(cell, a, bb)
                    side = board.turn
                    board.push(cell)
                    follow[ply + 1] = 1 if follow[ply] and cell == prev_pv[ply] else 0
                    ply += 1
                    pvlen[ply] = ply               # the child's line starts empty
                    if board.turn == side:     # the same side places again: same sign
                        negate[ply] = 0
                        alpha[ply] = a
                        beta[ply] = bb
                    else:
                        negate[ply] = 1
                        alpha[ply] = -bb
                        beta[ply] = -a
                    state = _ENTER
                elif ply == 0:             # the root is searched: the iteration is complete
                    return self._iteration_done(nodes, True)
                else:
                    value = b
                    state = _RETURN
            else:  # _RETURN
                if negate[ply]:
                    value = -value
                ply -= 1
                board.pop()
                cell = made[ply]
                if ply == 0:
                    self._root_value(cell, value)
                elif value > best[ply]:
                    improved(ply, cell, value)
                state = _NEXT

    def _ordered(self, ply, following):
        """The legal moves at `ply`, best guesses first: the previous iteration's line, the
        two killers (moves that refuted a sibling), then heaviest cell first."""
        here = list(self.board.legal_moves)
        here.sort(key=self._key)
        front = 0
        k = ply * 2
        for c in (self._prev_pv[ply] if following else _NONE, self._killer[k],
                  self._killer[k + 1]):
            if c != _NONE and c in here:
                i = here.index(c)
                if i >= front:
                    here.pop(i)
                    here.insert(front, c)
                    front += 1
        return here

    def _evaluate(self):
        """The static value of the board for the side to move (HINTS)."""
        board = self.board
        me = board.turn
        opp = me ^ 3
        cells = board.cell_states
        weights = self._weights
        value = 0
        mine = 0
        theirs = 0
        empty = 0
        for c in range(len(cells)):
            v = cells[c]
            if v == me:
                value += weights[c]
                mine += 1
            elif v == opp:
                value -= weights[c]
                theirs += 1
            elif v == EMPTY:
                empty += 1
        if self._mobility:
            value += self._mobility * board.count_moves()
        total = mine + theirs + empty
        filled = total - empty
        early = self._early
        value += (mine - theirs) * (early * total + (self._late - early) * filled) // (total or 1)
        return value


def candidate_moves(board):
    """The placements the engine considers: the legal moves (none once the game is over)."""
    return list(board.legal_moves)


# The move `level` plays in a board (a cell, None when the game is over); a Result for the
# side to move (a forced move is searched too): searchcore.Scaffold's, on this engine.
choose_move = Search.choose_move
analyse = Search.analyse
