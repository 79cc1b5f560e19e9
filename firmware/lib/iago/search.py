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
scores, _cells; fewer than 255 cells): iterative-deepening alpha-beta (negamax) on a copy of
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

from iago.searchcore import Lcg, Result, mix_seed  # noqa: F401  (re-exported like engine's)
from iago.rules import DARK, EMPTY

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

RANDOM = "random"
GREEDY = "greedy"
# Level -> (positions searched a move, root noise in evaluation units). The noise is a fixed
# seeded amount per root move that makes the low levels err like people do.
LEVELS = {1: (40, 40), 2: (150, 12), 3: (500, 0), 4: (1500, 0), 5: (4000, 0)}
PLAYERS = (RANDOM, GREEDY, 1, 2, 3, 4, 5)

WIN = const(100000)         # a finished game is worth WIN + margin to its winner
_INF = const(1000000)
_PROVEN = const(99000)      # |value| beyond this: a finished game is in sight
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


# States of the resumable search.
_ENTER = const(0)    # a position has been reached and is not counted yet
_NEXT = const(1)     # try the next move of the position at `ply`
_RETURN = const(2)   # the position at `ply` has its value
_IDLE = const(3)     # between iterations
_DONE = const(4)


class Search:
    """A resumable search of `board` (which it copies) for the side to move.

    level: 1-5, "random" or "greedy". seed: the noise of the low levels and greedy's choice
    among equal moves. nodes: overrides the level's node budget. clock and time_ms: a callable
    returning milliseconds and a time budget (the search also stops when it runs out; the
    result then depends on the machine's speed). max_depth: a depth limit. A single legal
    move is played without thinking, unless `analyse` asks for its score.
    """

    def __init__(self, board, level=5, seed=0, nodes=None, clock=None, time_ms=None,
                 max_depth=None, analyse=False):
        if level not in PLAYERS:
            raise ValueError("unknown level %r (use 1-5, random or greedy)" % (level,))
        self.level = level
        self.seed = seed
        self.board = board = board.copy()
        self._clock = clock
        self._deadline = clock() + time_ms if clock is not None and time_ms is not None else None
        budget, noise = LEVELS[level] if level in LEVELS else (0, 0)
        self._limit = budget if nodes is None else nodes
        self._nodes = 0
        self._state = _IDLE
        self._result = None
        root = candidate_moves(board)
        self._root = root
        if not root:
            self._finish(Result(None, 0, [], 0, 0, False))
            return
        rng = Lcg(seed)
        if level == RANDOM:
            move = root[rng.below(len(root))]
            self._finish(Result(move, 0, [move], 0, 0, False))
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
        for v in board._cells:
            if v == EMPTY:
                plies += 1
        self._plies = plies            # every placement fills a cell: no line is longer
        self._max_depth = plies if max_depth is None or max_depth > plies else max_depth
        # Moves are tried heaviest cell first, then in cell order: unique keys.
        weights = self._weights
        rank = [0] * len(weights)
        order = sorted(range(len(weights)), key=lambda c: c - weights[c] * 256)
        for i in range(len(order)):
            rank[order[i]] = i
        self._key = lambda c: rank[c]
        root.sort(key=self._key)
        self._noise = [0] * len(weights)
        if noise:
            noise_rng = Lcg(mix_seed(seed, 1))
            for c in root:
                self._noise[c] = noise_rng.below(2 * noise + 1) - noise
        m = self._max_depth + 1
        self._moves = [root] * (m + 1)          # the ordered moves of each ply
        self._mi = [0] * (m + 1)                # index of ply p's move being searched
        self._made = bytearray(m + 1)           # the cell placed at ply p
        self._negate = bytearray(m + 1)         # 1 if the side changed on reaching ply p
        self._alpha = [0] * (m + 1)
        self._beta = [0] * (m + 1)
        self._best = [0] * (m + 1)
        # Triangular principal-variation table: row p holds the line from ply p, its move at
        # ply j (p <= j < pvlen[p]) in pv[pvoff[p] - p + j].
        self._pvoff = [0] * (m + 1)
        for p in range(1, m + 1):
            self._pvoff[p] = self._pvoff[p - 1] + m - p + 1
        self._pv = bytearray(self._pvoff[m] + 1)
        self._pvlen = bytearray(m + 1)
        self._prev_pv = bytearray(m + 1)
        self._prev_len = 0
        self._follow = bytearray(m + 1)
        self._killer = bytearray(2 * m + 2)
        for i in range(2 * m + 2):
            self._killer[i] = _NONE
        self._depth = 0
        self._completed = 0                     # the last complete iteration's depth
        self._ply = 0
        self._value = 0
        self._root_done = 0
        self._iter_nodes = [0, 0]               # nodes of the last two complete iterations
        self._iter_start = 0

    # --- players without search -------------------------------------------------------

    def _finish(self, result):
        self._result = result
        self._state = _DONE

    def _greedy(self, rng):
        """The placement with the best disk difference right after it; the seed breaks ties."""
        board = self.board
        me = board.turn
        best = -_INF
        choice = []
        for c in self._root:
            board.push(c)
            dark, light = board.scores()
            board.pop()
            v = dark - light if me == DARK else light - dark
            if v > best:
                best = v
                choice = [c]
            elif v == best:
                choice.append(c)
        move = choice[rng.below(len(choice))]
        self._nodes = len(self._root)
        self._finish(Result(move, best, [move], 1, self._nodes, False))

    # --- the public face (iago.engine.Search's) -----------------------------------------

    def done(self):
        return self._state == _DONE

    def nodes(self):
        """Positions visited so far."""
        return self._nodes

    def best(self):
        """The best move found so far (a cell), or None when the game is over."""
        if self._result is not None:
            return self._result.move
        return self._root[0] if self._root else None

    def result(self):
        """A Result; before the first iteration completes, the first root move unscored."""
        if self._result is not None:
            return self._result
        move = self.best()
        return Result(move, 0, [] if move is None else [move], 0, self._nodes, False)

    def step(self, max_nodes=256):
        """Search up to `max_nodes` more positions; True once the search is finished."""
        if self._state == _DONE:
            return True
        stop = self._nodes + max_nodes
        while self._state != _DONE and self._nodes < stop:
            if self._state == _IDLE and not self._next_iteration():
                self._state = _DONE
                break
            self._run(stop)
        if self._state == _DONE and self._result is not None:
            self._result.nodes = self._nodes
        return self._state == _DONE

    def run(self):
        """Search to the end of the budget; returns the Result."""
        while not self.step(1 << 20):
            pass
        return self.result()

    # --- iterative deepening ----------------------------------------------------------

    def _next_iteration(self):
        if self._nodes >= self._limit or self._out_of_time():
            return False
        r = self._result
        if self._depth >= self._max_depth or (r is not None and r.proven):
            return False
        depth = self._depth + 1
        if self._completed >= 2 and self._max_depth == self._plies and self._solve_fits():
            depth = self._max_depth
        self._depth = depth
        root = self._root
        if r is not None and r.move in root:
            root.remove(r.move)
            root.insert(0, r.move)
        self._moves[0] = root
        self._mi[0] = 0
        self._alpha[0] = -_INF
        self._beta[0] = _INF
        self._best[0] = -_INF
        self._pvlen[0] = 0
        self._ply = 0
        self._root_done = 0
        self._follow[0] = 1 if self._prev_len else 0
        self._iter_start = self._nodes
        self._state = _NEXT
        return True

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

    def _out_of_time(self):
        return self._deadline is not None and self._clock() >= self._deadline

    def _iteration_done(self, complete):
        """Record the root's best move of this iteration (complete or not)."""
        if not self._root_done:
            return
        n = self._pvlen[0]
        pv = list(self._pv[0:n])
        score = self._best[0] - self._noise[pv[0]]
        # Every line reached the end of the game, or a finished game is in sight.
        proven = self._depth >= self._plies or score >= _PROVEN or score <= -_PROVEN
        # An unfinished iteration searched the previous best move first, so its best so far
        # is at least as well founded as the previous iteration's.
        if complete:
            self._completed = self._depth
        self._result = Result(pv[0], score, pv, self._completed, self._nodes, proven and complete)
        for i in range(n):
            self._prev_pv[i] = pv[i]
        self._prev_len = n
        if complete:
            self._iter_nodes[0] = self._iter_nodes[1]
            self._iter_nodes[1] = self._nodes - self._iter_start

    def _run(self, stop):
        """The search loop: walk the tree with the per-ply stacks until `stop` nodes, the end
        of the budget or the end of the iteration."""
        board = self.board
        moves = self._moves
        mi = self._mi
        made = self._made
        negate = self._negate
        alpha = self._alpha
        beta = self._beta
        best = self._best
        pv = self._pv
        pvoff = self._pvoff
        pvlen = self._pvlen
        noise = self._noise
        killer = self._killer
        follow = self._follow
        prev_pv = self._prev_pv
        prev_len = self._prev_len
        depth = self._depth
        ply = self._ply
        state = self._state
        value = self._value
        nodes = self._nodes
        limit = self._limit
        if stop > limit:
            stop = limit
        while True:
            if state == _ENTER:
                if nodes >= stop:
                    break
                nodes += 1
                if nodes & 63 == 0 and self._deadline is not None and self._out_of_time():
                    self._limit = limit = stop = nodes
                pvlen[ply] = ply
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
                    a = alpha[ply]
                    if b > a:
                        a = b
                    bb = beta[ply]
                    if ply == 0:
                        a -= noise[cell]
                        bb -= noise[cell]
                    side = board.turn
                    board.push(cell)
                    follow[ply + 1] = 1 if follow[ply] and cell == prev_pv[ply] else 0
                    ply += 1
                    if board.turn == side:     # the same side places again: same sign
                        negate[ply] = 0
                        alpha[ply] = a
                        beta[ply] = bb
                    else:
                        negate[ply] = 1
                        alpha[ply] = -bb
                        beta[ply] = -a
                    state = _ENTER
                else:
                    value = b
                    state = _RETURN
            else:  # _RETURN
                if ply == 0:
                    self._root_done = mi[0]
                    self._nodes = nodes
                    self._iteration_done(True)
                    state = _IDLE
                    break
                if negate[ply]:
                    value = -value
                ply -= 1
                board.pop()
                cell = made[ply]
                if ply == 0:
                    value += noise[cell]
                    self._root_done = mi[0]
                if value > best[ply]:
                    best[ply] = value
                    # The principal variation: this move, then the child's line.
                    row = pvoff[ply] - ply
                    pv[row + ply] = cell
                    n = pvlen[ply + 1]
                    child = pvoff[ply + 1] - ply - 1
                    for j in range(ply + 1, n):
                        pv[row + j] = pv[child + j]
                    pvlen[ply] = n if n > ply + 1 else ply + 1
                    if value >= beta[ply]:
                        k = ply * 2
                        if killer[k] != cell:
                            killer[k + 1] = killer[k]
                            killer[k] = cell
                state = _NEXT
        self._ply = ply
        self._state = state
        self._value = value
        self._nodes = nodes
        if state != _IDLE and nodes >= limit:
            # Out of budget in the middle of an iteration: keep what the root has so far,
            # and put the board back as it was.
            self._iteration_done(False)
            for _ in range(ply):
                board.pop()
            self._ply = 0
            self._state = _DONE

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
        cells = board._cells
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


def choose_move(board, level=5, seed=0, nodes=None):
    """The move `level` plays in `board` (a cell), or None when the game is over."""
    return Search(board, level, seed, nodes).run().move


def analyse(board, level=5, seed=0, nodes=None):
    """A Result for the side to move in `board` (a forced move is searched too)."""
    return Search(board, level, seed, nodes, analyse=True).run()
