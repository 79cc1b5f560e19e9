"""What both engines share: seeded numbers that come out the same on every interpreter (their
only randomness), the Result of a search, and the scaffold of a resumable search (Scaffold): the
players without search, the public face (`step`, `best`, `result`, `run`), iterative
deepening and its bookkeeping, the per-ply stacks and the principal-variation and killer
updates. Each engine keeps only its own walk of the tree (`_run`), where the speed is."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

RANDOM = "random"
GREEDY = "greedy"
PLAYERS = (RANDOM, GREEDY, 1, 2, 3, 4, 5)

WIN = const(100000)       # a finished game is worth WIN + margin to its winner
_INF = const(1000000)
_PROVEN = const(99000)    # |value| beyond this: a finished game is in sight
_NO_CELL = const(255)     # no cell (no killer, no previous line)

# States of the resumable search; the engines' walks use the same numbers (0 enter a
# position, 1 try the next move, 2 return a value).
_ENTER = const(0)
_NEXT = const(1)
_IDLE = const(3)     # between iterations
_DONE = const(4)

_TYPE_CHECKING = const(0)    # see iago/__init__.py


class Lcg:
    """A small linear congruential generator: the same numbers on every interpreter."""

    def __init__(self, seed=0):
        self.state = (seed * 2654435761 + 0x5DEECE) & 0x7FFFFFFF

    def below(self, n):
        """A number in 0..n-1."""
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def mix_seed(*parts):
    """One seed from several small numbers (game seed, ply, ...), identical everywhere."""
    h = 0x12345
    for p in parts:
        h = ((h ^ (p & 0x3FFFFFFF)) * 16777619) & 0x3FFFFFFF
    return h


class Result:
    """What a search found: the move, its score for the side to move, the principal variation.

    `score` is for the side to move (the engine's units; docs/engine.md), WIN + margin for a
    win by `margin` and -WIN + margin for a loss once the search sees it (`proven`). `depth`
    is the last completed iteration, `nodes` the positions visited.
    """

    def __init__(self, move, score, pv, depth, nodes, proven):
        self.move = move
        self.score = score
        self.pv = pv
        self.depth = depth
        self.nodes = nodes
        self.proven = proven

    def __repr__(self):
        return "Result(move=%r, score=%d, pv=%r, depth=%d, nodes=%d%s)" % (
            self.move, self.score, self.pv, self.depth, self.nodes,
            ", proven" if self.proven else "")


class Scaffold:
    """A resumable iterative-deepening alpha-beta search, less its walk of the tree.

    An engine's Search subclasses it: its __init__ calls Scaffold.__init__ with the root
    moves (which answers at once when there is none, or for "random": `done()`), then either
    `_greedy` or `_stacks` with its own state; it provides `_run(stop)` (walk from
    `_resume(stop)` until `stop` nodes, the end of the budget or of the iteration, then
    `_pause` or `_iteration_done`), `_root_moves(root)` (an iteration starts from these
    moves) and `_greedy_value(cell)`, and may change `_deeper`. Class attributes: RESULT,
    the Result class; NOISY_SCORE, whether a reported score keeps the root noise.
    """

    RESULT = Result
    NOISY_SCORE = False

    if _TYPE_CHECKING:   # an engine's own parts, for type checkers; a Pico never runs this
        def _run(self, stop): ...

        def _root_moves(self, root): ...

        def _greedy_value(self, cell): ...

    def __init__(self, level, seed, clock, time_ms, limit, root, rng):
        """`limit`: the node budget; `root`: the moves to choose from; `rng`: the seeded
        numbers (the random player's choice)."""
        if level not in PLAYERS:
            raise ValueError("unknown level %r (use 1-5, random or greedy)" % (level,))
        self.level = level
        self.seed = seed
        self._clock = clock
        self._deadline = clock() + time_ms if clock is not None and time_ms is not None else None
        self._limit = limit
        self._nodes = 0
        self._state = _IDLE
        self._result = None
        self._root = root
        if not root:
            self._finish(self.RESULT(None, 0, [], 0, 0, False))
        elif level == RANDOM:
            move = root[rng.below(len(root))]
            self._finish(self.RESULT(move, 0, [move], 0, 0, False))

    # --- players without search -------------------------------------------------------

    def _finish(self, result):
        self._result = result
        self._state = _DONE

    def _greedy(self, rng):
        """The move with the best value right after it (`_greedy_value`); the seed breaks
        ties."""
        best = -_INF
        choice = []
        for c in self._root:
            v = self._greedy_value(c)
            if v > best:
                best = v
                choice = [c]
            elif v == best:
                choice.append(c)
        move = choice[rng.below(len(choice))]
        self._nodes = len(self._root)
        self._finish(self.RESULT(move, best, [move], 1, self._nodes, False))

    # --- the public face --------------------------------------------------------------

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
        return self.RESULT(move, 0, [] if move is None else [move], 0, self._nodes, False)

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

    @classmethod
    def choose_move(cls, board, level=5, seed=0, nodes=None):
        """The move `level` plays in `board` (a cell), or None when the game is over."""
        # cls is an engine's Search(board, level, seed, nodes, ..., analyse=False)
        return cls(board, level, seed, nodes).run().move  # type: ignore[call-arg]

    @classmethod
    def analyse(cls, board, level=5, seed=0, nodes=None):
        """A Result for the side to move in `board` (a forced move is searched too)."""
        return cls(board, level, seed, nodes, analyse=True).run()  # type: ignore[call-arg]

    # --- the per-ply stacks -----------------------------------------------------------

    def _stacks(self, plies, max_depth, noise):
        """The stacks of a search at most `max_depth` plies deep, allocated once; `plies`,
        the empty cells, bounds every line; `noise` is the root noise per cell."""
        self._plies = plies
        self._max_depth = max_depth
        self._noise = noise
        m = max_depth + 1
        self._mi = bytearray(m + 1)             # index of ply p's move being searched
        self._made = bytearray(m + 1)           # the cell placed at ply p
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
        self._follow = bytearray(m + 1)         # 1 while ply p follows the previous line
        self._killer = bytearray(2 * m + 2)     # two moves a ply that refuted a sibling
        for i in range(2 * m + 2):
            self._killer[i] = _NO_CELL
        # The stacks both walks use, as one tuple a walk unpacks at the start of a slice.
        self._stack = (self._mi, self._made, self._alpha, self._beta, self._best, self._pvlen,
                       self._follow, self._prev_pv)
        self._depth = 0
        self._completed = 0                     # the last complete iteration's depth
        self._ply = 0
        self._value = 0
        self._root_done = 0
        self._iter_nodes = [0, 0]               # nodes of the last two complete iterations
        self._iter_start = 0

    # --- iterative deepening ----------------------------------------------------------

    def _next_iteration(self):
        if self._nodes >= self._limit or self._out_of_time():
            return False
        r = self._result
        if self._depth >= self._max_depth or (r is not None and r.proven):
            return False
        self._depth = self._deeper()
        # Root moves: the previous best first, then the engine's order.
        root = self._root
        if r is not None and r.move in root:
            root.remove(r.move)
            root.insert(0, r.move)
        self._root_moves(root)
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

    def _deeper(self):
        """The depth of the next iteration: one ply more."""
        return self._depth + 1

    def _out_of_time(self):
        return self._deadline is not None and self._clock() >= self._deadline

    def _iteration_done(self, nodes, complete):
        """Record the root's best move of this iteration after `nodes` positions. A walk
        back at the root calls it: the iteration is complete; `_pause` calls it when the
        budget ends the search in the middle of one."""
        self._nodes = nodes
        if complete:
            self._ply = 0
            self._state = _IDLE
        if not self._root_done:
            return
        n = self._pvlen[0]
        pv = list(self._pv[0:n])
        score = self._best[0]
        if not self.NOISY_SCORE:
            score -= self._noise[pv[0]]
        # Every line reached the end of the game, or a finished game is in sight.
        proven = self._depth >= self._plies or score >= _PROVEN or score <= -_PROVEN
        # An unfinished iteration searched the previous best move first, so its best so far
        # is at least as well founded as the previous iteration's.
        if complete:
            self._completed = self._depth
        self._result = self.RESULT(pv[0], score, pv, self._completed, self._nodes,
                                   proven and complete)
        for i in range(n):
            self._prev_pv[i] = pv[i]
        self._prev_len = n
        if complete:
            self._iter_nodes[0] = self._iter_nodes[1]
            self._iter_nodes[1] = self._nodes - self._iter_start

    # --- what the walks share (`_run`: per slice, per iteration, per improvement) ------

    def _resume(self, stop):
        """Where the walk stopped: (ply, state, value, nodes, stop), `stop` capped by the
        budget and, under a time budget, by the next clock reading. The clock is read before
        every 64th node (then the search ends after that node if time is up), here and not
        in the walk, so the walk need not test for it at every node."""
        nodes = self._nodes
        if stop > self._limit:
            stop = self._limit
        if self._deadline is not None:
            if nodes & 63 == 63 and nodes < stop and self._out_of_time():
                self._limit = stop = nodes + 1
            check = (nodes + 1) | 63
            if stop > check:
                stop = check
        return self._ply, self._state, self._value, nodes, stop

    def _pause(self, ply, value, nodes):
        """The walk stopped before entering a position: kept for the next slice; out of
        budget in the middle of an iteration, the search ends with what the root has so
        far."""
        self._ply = ply
        self._state = _ENTER
        self._value = value
        self._nodes = nodes
        if nodes >= self._limit:
            self._iteration_done(nodes, False)
            self._state = _DONE

    def _root_window(self, cell, a, b):
        """The window (a, b) of a root move's search, shifted by its noise."""
        noise = self._noise[cell]
        return a - noise, b - noise

    def _root_value(self, cell, value):
        """A root move's search returned `value`: add its noise back, and keep it if it is
        the best so far."""
        value += self._noise[cell]
        self._root_done = self._mi[0]
        if value > self._best[0]:
            self._improved(0, cell, value)

    def _improved(self, ply, cell, value):
        """The move `cell` at `ply` raised its best value to `value` (so alpha too, if it
        was lower): this move, then the child's line, is the principal variation from
        `ply`; if it refutes the position, it becomes ply's first killer."""
        self._best[ply] = value
        if value > self._alpha[ply]:
            self._alpha[ply] = value
        pv = self._pv
        pvoff = self._pvoff
        pvlen = self._pvlen
        row = pvoff[ply] - ply
        pv[row + ply] = cell
        n = pvlen[ply + 1]
        child = pvoff[ply + 1] - ply - 1
        for j in range(ply + 1, n):
            pv[row + j] = pv[child + j]
        pvlen[ply] = n if n > ply + 1 else ply + 1
        if value >= self._beta[ply]:
            killer = self._killer
            k = ply * 2
            if killer[k] != cell:
                killer[k + 1] = killer[k]
                killer[k] = cell
