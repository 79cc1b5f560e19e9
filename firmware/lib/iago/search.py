"""The computer opponent for the games other than Iago (Othello, Io, the number line).

The interface is iago.engine.Search's: `Search(board, level, seed, nodes)`, then `step(n)`
until it returns True (at most n positions a call, so the board's loop keeps ticking), then
`best()` / `result()`. Iterative-deepening alpha-beta (negamax) on a copy of the board,
resumable between slices because the search is a generator that yields at every position.
A placement after which the same side places again (an Othello pass, Io's bound-then-free
turn) keeps the sign instead of negating it.

The evaluation, for the side to move: a per-cell weight table of the game (corners good,
the cells beside an empty corner bad on square boards), a mobility bonus, and the disk count
that becomes everything near the end; a finished game is worth WIN + margin. Deterministic
for seed + node budget on every interpreter.
"""

from iago.searchcore import Lcg, Result, mix_seed  # noqa: F401
from iago.rules import DARK, EMPTY

RANDOM = "random"
GREEDY = "greedy"
# Positions searched a move at levels 1-5; levels 1 and 2 also add seeded noise at the root.
LEVELS = {1: (40, 40), 2: (150, 12), 3: (500, 0), 4: (1500, 0), 5: (4000, 0)}
PLAYERS = (RANDOM, GREEDY, 1, 2, 3, 4, 5)
WIN = 100000
_INF = 1000000
_MOBILITY = 6


def _square_weights(size):
    """Corner 60, edge 6, the cells diagonal and next to a corner -25 / -8, the rest 1."""
    out = bytearray(size * size)
    last = size - 1
    for rank in range(size):
        for file in range(size):
            edge_f = file in (0, last)
            edge_r = rank in (0, last)
            near_f = file in (1, last - 1)
            near_r = rank in (1, last - 1)
            if edge_f and edge_r:
                w = 60
            elif (near_f and near_r) and (file < 2 or file > last - 2) and (rank < 2 or rank > last - 2):
                w = -25
            elif (edge_f and near_r and (rank < 2 or rank > last - 2)) or (
                    edge_r and near_f and (file < 2 or file > last - 2)):
                w = -8
            elif edge_f or edge_r:
                w = 6
            else:
                w = 1
            out[rank * size + file] = w & 0xFF
    return out


def _signed(b):
    return b - 256 if b > 127 else b


def weights_for(board):
    """The weight table (a list of ints per cell) the evaluation uses for `board`'s game."""
    grid = board.grid
    if board.GAME == "numberline":
        return [4] * grid.CELLS
    return [_signed(b) for b in _square_weights(grid.size)]


class Search:
    def __init__(self, board, level=5, seed=0, nodes=None, analyse=False):
        if level not in LEVELS and level not in (RANDOM, GREEDY):
            raise ValueError("unknown level %r (random, greedy or 1-5)" % (level,))
        self.board = board.copy()
        self.level = level
        self.seed = seed
        self.nodes = 0
        self.budget = nodes if nodes is not None else (LEVELS[level][0] if level in LEVELS else 0)
        self.noise = LEVELS[level][1] if level in LEVELS else 0
        self.weights = weights_for(board)
        self.done = False
        self._result = None
        self._forced = not analyse
        self._gen = None

    # --- the interface of iago.engine.Search ----------------------------------------------

    def step(self, max_nodes):
        """Search up to `max_nodes` more positions; True once the move is chosen."""
        if self.done:
            return True
        if self._gen is None:
            moves = list(self.board.legal_moves)
            if not moves:
                return self._finish(Result(None, 0, [], 0, 0, True))
            if self.level == RANDOM:
                return self._finish(Result(moves[Lcg(self.seed).below(len(moves))], 0, [], 0, 0, False))
            if self.level == GREEDY:
                return self._finish(self._greedy(moves))
            if len(moves) == 1 and self._forced:
                return self._finish(Result(moves[0], 0, [moves[0]], 0, 0, False))
            self._gen = self._deepen(moves)
        stop = self.nodes + max_nodes
        try:
            while self.nodes < stop:
                next(self._gen)
        except StopIteration:
            return self._finish(self._best_so_far())
        return False

    def run(self):
        while not self.step(1 << 20):
            pass
        return self._result

    def best(self):
        return self._result.move if self._result else None

    def result(self):
        return self._result

    # --- internals -------------------------------------------------------------------------

    def _finish(self, result):
        self._result = result
        self.done = True
        self._gen = None
        return True

    def _greedy(self, moves):
        """The placement with the best disk difference right after it; seeded ties."""
        board = self.board
        me = board.turn
        rng = Lcg(self.seed)
        best = moves[0]
        best_key = (-_INF, -1)
        for m in moves:
            board.push(m)
            dark, light = board.scores()
            board.pop()
            diff = dark - light if me == DARK else light - dark
            key = (diff, rng.below(1000))
            if key > best_key:
                best, best_key = m, key
        return Result(best, best_key[0], [best], 1, len(moves), False)

    def _evaluate(self):
        board = self.board
        me = board.turn
        cells = board._cells
        weights = self.weights
        empty = 0
        value = 0
        mine = 0
        theirs = 0
        for c in range(len(cells)):
            v = cells[c]
            if v == me:
                value += weights[c]
                mine += 1
            elif v == EMPTY:
                empty += 1
            elif v != 8:
                value -= weights[c]
                theirs += 1
        value += _MOBILITY * board.count_moves()
        total = mine + theirs + empty
        # The count grows in weight as the board fills.
        value += (mine - theirs) * (total - empty) * 4 // (total or 1)
        return value

    def _final(self):
        dark, light = self.board.scores()
        margin = dark - light if self.board.turn == DARK else light - dark
        if margin > 0:
            return WIN + margin
        if margin < 0:
            return -WIN + margin
        return 0

    def _negamax(self, depth, alpha, beta, ply):
        board = self.board
        self.nodes += 1
        yield
        if board.is_game_over():
            return self._final()
        if depth == 0:
            return self._evaluate()
        me = board.turn
        best = -_INF
        weights = self.weights
        # Unique keys: MicroPython's sort is not stable, and the order must match CPython's.
        moves = sorted(board.legal_moves, key=lambda c: c - weights[c] * 256)
        for m in moves:
            board.push(m)
            if board.turn == me:
                value = yield from self._negamax(depth - 1, alpha, beta, ply + 1)
            else:
                value = yield from self._negamax(depth - 1, -beta, -alpha, ply + 1)
                value = -value
            board.pop()
            if value > best:
                best = value
                self._pv[ply] = [m] + self._pv[ply + 1] if ply + 1 < len(self._pv) else [m]
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
            if self.nodes >= self.budget:
                break
        return best

    def _deepen(self, moves):
        board = self.board
        rng = Lcg(mix_seed(self.seed, 1))
        noise = [rng.below(2 * self.noise + 1) - self.noise if self.noise else 0 for _ in moves]
        order = list(range(len(moves)))
        empties = sum(1 for v in board._cells if v == EMPTY)
        self._best = (moves[0], -_INF, [moves[0]], 0, False)
        self._pv = [[] for _ in range(empties + 2)]
        me = board.turn
        for depth in range(1, empties + 1):
            best_i = -1
            best_value = -_INF
            best_pv = []
            alpha = -_INF
            complete = True
            for i in order:
                board.push(moves[i])
                self._pv = [[] for _ in range(empties + 2)]
                if board.turn == me:
                    value = yield from self._negamax(depth - 1, alpha - 50, _INF, 1)
                else:
                    value = yield from self._negamax(depth - 1, -_INF, -alpha + 50, 1)
                    value = -value
                board.pop()
                if self.nodes >= self.budget:
                    complete = False
                    break
                value += noise[i]
                if value > best_value:
                    best_value = value
                    best_i = i
                    best_pv = [moves[i]] + self._pv[1]
                    alpha = max(alpha, value)
            if best_i >= 0 and (complete or best_i == order[0] or best_value > self._best[1]):
                proven = abs(best_value) >= WIN - 200
                self._best = (moves[best_i], best_value, best_pv, depth if complete else self._best[3],
                              proven and complete)
                order.remove(best_i)
                order.insert(0, best_i)
            if not complete or self._best[4] or depth >= empties:
                return
        return

    def _best_so_far(self):
        move, value, pv, depth, proven = self._best
        return Result(move, value, pv, depth, self.nodes, proven)


def candidate_moves(board):
    """The placements the engine considers: the legal moves."""
    return list(board.legal_moves)


def choose_move(board, level=5, seed=0, nodes=None):
    return Search(board, level, seed, nodes).run().move


def analyse(board, level=5, seed=0, nodes=None):
    return Search(board, level, seed, nodes, analyse=True).run()
