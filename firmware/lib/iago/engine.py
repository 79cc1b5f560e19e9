"""The computer opponent: iterative-deepening alpha-beta search in resumable slices.

    >>> import iago
    >>> from iago import engine
    >>> board = iago.Board()
    >>> cell = engine.choose_move(board, level=3, seed=1)
    >>> cell in board.legal_moves
    True

`Search(board, level, seed)` thinks on its own copy of the position. `step(max_nodes)` searches
at most that many more nodes and returns True once the search is finished, so a caller can
think between the ticks of a scan loop; `best()` and `result()` give the move at any time.
Players: levels 1-5 (node budgets in LEVELS), "random" and "greedy" (best immediate score).
Everything is deterministic for a given seed and node budget, on CPython and MicroPython
alike: no `random` module, no hashing, no floats. docs/engine.md explains the design.
"""

from iago import hexgrid
from iago import searchcore
from iago.searchcore import Lcg, mix_seed  # noqa: F401  (re-exported: engine.Lcg, engine.mix_seed)
from iago.rules import (CAPTIVE, COUNT, FORCED_CAPTURE, MOVES, RELEASE_ON, SCRATCH_SIZE,
                        generate)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

RANDOM = "random"
GREEDY = "greedy"

# Level -> (node budget, depth limit, root noise in evaluation units, LOGIT a logit). A node
# is one position visited by the search (one placement made). Nodes, not time, make a level,
# so a level plays the same moves on every machine; `make bench` gives nodes/s for the Pico
# estimate. The board caps level 5 lower to keep a move within 2 s on a Pico
# (gameboard.layout.BOARD_NODES); 4,000 nodes is what beats random play 99% of the time
# (docs/engine.md: 2,000 gave 98.75% over 800 games, 4,000 99.3% over 1,000).
LEVELS = {
    1: (40, 1, 16),
    2: (80, 2, 6),
    3: (250, 64, 0),
    4: (700, 64, 0),
    5: (4000, 64, 0),
}
PLAYERS = (RANDOM, GREEDY, 1, 2, 3, 4, 5)

WIN = const(100000)       # a finished game is worth WIN + margin to its winner
_INF = const(1000000)
_CELLS = const(61)
_NO_CELL = const(255)
_CENTRE = hexgrid.CENTRE
_NB = hexgrid.NEIGHBOURS
_IS_OUTER = hexgrid.IS_OUTER
_OOC = hexgrid.OUTER_OR_CENTRE

# States of the resumable search.
_ENTER = const(0)    # a node has been reached and is not counted yet
_NEXT = const(1)     # try the next move of the node at `ply`
_RETURN = const(2)   # the node at `ply` has its value
_IDLE = const(3)     # between iterations
_DONE = const(4)


def _cell_classes():
    """The class of each cell for the evaluation: 0 a corner of the rim (never flipped once
    face up), 1 another rim cell, 2 an inner cell next to the rim, 3 an inner cell further
    in, 4 the centre."""
    cls = bytearray(_CELLS)
    for c in range(_CELLS):
        if _IS_OUTER[c]:
            open_lines = 0
            for d in range(3):
                if _NB[c * 6 + d] != _NO_CELL and _NB[c * 6 + d + 3] != _NO_CELL:
                    open_lines += 1
            cls[c] = 1 if open_lines else 0
        elif c == _CENTRE:
            cls[c] = 4
        else:
            cls[c] = 3
            for d in range(6):
                x = _NB[c * 6 + d]
                if x != _NO_CELL and _IS_OUTER[x]:
                    cls[c] = 2
    return bytes(cls)


CLASSES = _cell_classes()


class Result(searchcore.Result):
    """A search's Result (iago.searchcore); `score` while the end is out of sight is the side
    to move's estimated winning chances in LOGIT units a logit (0 is even)."""

    def __repr__(self):
        return "Result(move=%s, score=%d, pv=%s, depth=%d, nodes=%d%s)" % (
            "None" if self.move is None else hexgrid.cell_name(self.move), self.score,
            " ".join(hexgrid.cell_name(c) for c in self.pv), self.depth, self.nodes,
            ", proven" if self.proven else "")


def _final(ev, cells, side, count):
    """The value of a finished game for `side`: WIN + margin if it wins (the centre breaks a
    tie), -WIN + margin if it loses."""
    margin = _margin(ev, side, count)
    if margin:
        return (WIN if margin > 0 else -WIN) + margin
    v = cells[_CENTRE]
    if v & CAPTIVE:
        won = (v & 3) != side
    else:
        won = v == side
    return WIN if won else -WIN


def _play(cells, cell, side, release, fl, fpos, ev):
    """Place `side` on `cell`: flip into cells, append the flipped cells to fl from fpos,
    update the counters in ev; returns the new end of fl.

    ev[side * 8 + k] (sides are 1 and 2; ev[0:8] is unused): k=0-4 face-up disks of `side`
    in each cell class (CLASSES), 5 captives of its hidden colour, 6 face-up disks in the
    inner area, 7 in the outer area.
    """
    nb = _NB
    opp = side ^ 3
    start = fpos
    base = cell * 6
    for d in range(6):
        x = nb[base + d]
        if x == _NO_CELL:
            continue
        v = cells[x]
        if v == opp:
            y = nb[x * 6 + d]
            while y != _NO_CELL and cells[y] == opp:
                y = nb[y * 6 + d]
            if y != _NO_CELL and cells[y] == side:
                while x != y:
                    fl[fpos] = x
                    fpos += 1
                    x = nb[x * 6 + d]
        elif v & 4 and release:
            y = nb[x * 6 + d]
            while y != _NO_CELL and cells[y] & 4:
                y = nb[y * 6 + d]
            if y != _NO_CELL and cells[y] == side and (_OOC[cell] or _OOC[y]):
                while x != y:
                    fl[fpos] = x
                    fpos += 1
                    x = nb[x * 6 + d]
    cls = CLASSES
    io = _IS_OUTER
    for i in range(start, fpos):
        x = fl[i]
        v = cells[x]
        if v & 4:                 # a release: the captive shows its colour again
            h = (v & 3) * 8
            ev[h + cls[x]] += 1
            ev[h + 6 + io[x]] += 1
            ev[h + 5] -= 1
        else:                     # a capture of an opponent disk
            h = v * 8
            ev[h + cls[x]] -= 1
            ev[h + 6 + io[x]] -= 1
            ev[h + 5] += 1
        cells[x] = v ^ 4
    h = side * 8
    ev[h + cls[cell]] += 1
    ev[h + 6 + io[cell]] += 1
    cells[cell] = side
    return fpos


def _unplay(cells, cell, fl, start, end, ev):
    """Take back the placement on `cell` whose flips are fl[start:end]."""
    cls = CLASSES
    io = _IS_OUTER
    h = cells[cell] * 8
    ev[h + cls[cell]] -= 1
    ev[h + 6 + io[cell]] -= 1
    cells[cell] = 0
    for i in range(start, end):
        x = fl[i]
        v = cells[x]
        if v & 4:                 # was captured: face up again for its owner
            h = (v & 3) * 8
            ev[h + cls[x]] += 1
            ev[h + 6 + io[x]] += 1
            ev[h + 5] -= 1
        else:                     # was released: a captive again
            h = v * 8
            ev[h + cls[x]] -= 1
            ev[h + 6 + io[x]] -= 1
            ev[h + 5] += 1
        cells[x] = v ^ 4


def _counters(cells):
    ev = [0] * 24
    for c in range(_CELLS):
        v = cells[c]
        if v & 4:
            ev[(v & 3) * 8 + 5] += 1
        elif v:
            ev[v * 8 + CLASSES[c]] += 1
            ev[v * 8 + 6 + _IS_OUTER[c]] += 1
    return ev


# Evaluation weights at anchors of the number of empty inner cells (37 at the start), linear
# in between: for the product score margin (the count margin under count scoring), the
# face-up disk margins per cell class (corner, rim, inner next to the rim, inner, centre)
# and the captive margin. Fitted by logistic regression to the results of 3,000 engine games
# (docs/engine.md), so a value is the side to move's winning chances: 400 here (25 in
# evaluate's result, LOGIT) is one logit, odds multiplied by e.
_ANCHORS = (
    (37, (0, 195, 96, 95, 175, 11, -33)),
    (28, (7, 203, 64, 51, 105, 166, 17)),
    (22, (7, 296, 64, 64, 115, 125, 46)),
    (16, (7, 328, 100, 91, 125, 127, 70)),
    (10, (13, 260, 99, 92, 101, 136, 50)),
    (5, (20, 191, 99, 75, 84, 148, 23)),
    (1, (26, 174, 125, 85, 95, 130, 21)),
    (0, (26, 174, 125, 85, 95, 130, 21)),
)
LOGIT = 25


def _eval_table():
    table = [0] * (38 * 7)
    for a in range(len(_ANCHORS) - 1):
        hi, whi = _ANCHORS[a]
        lo, wlo = _ANCHORS[a + 1]
        for e in range(lo, hi + 1):
            for k in range(7):
                table[e * 7 + k] = (wlo[k] * (hi - e) + whi[k] * (e - lo)) // (hi - lo)
    return table


EVAL_TABLE = _eval_table()


def evaluate(ev, side, empty, count):
    """Static value of a position for `side` (to move): its winning chances in LOGIT units
    per logit, from the product (or count) margin and the disks per cell class (EVAL_TABLE).

    `empty` is the number of empty inner cells (37 at the start, 0 at the end).
    """
    h = side * 8
    o = (side ^ 3) * 8
    if count:
        margin = ev[h + 6] + ev[h + 7] - ev[o + 6] - ev[o + 7]
    else:
        margin = (ev[h + 6] or 1) * (ev[h + 7] or 1) - (ev[o + 6] or 1) * (ev[o + 7] or 1)
    w = EVAL_TABLE
    t = empty * 7
    return (margin * w[t] + (ev[h] - ev[o]) * w[t + 1] + (ev[h + 1] - ev[o + 1]) * w[t + 2] +
            (ev[h + 2] - ev[o + 2]) * w[t + 3] + (ev[h + 3] - ev[o + 3]) * w[t + 4] +
            (ev[h + 4] - ev[o + 4]) * w[t + 5] + (ev[h + 5] - ev[o + 5]) * w[t + 6]) >> 4


class Search:
    """A resumable search of `board` (which it copies) for the side to move.

    level: 1-5, "random" or "greedy". seed: decides among equal moves (and the noise of the
    low levels). nodes: overrides the level's node budget. clock and time_ms: a callable
    returning milliseconds and a time budget; the search also stops when it runs out (then
    the result depends on the machine's speed). max_depth: overrides the level's depth limit.
    A single legal move is played without thinking, unless `analyse` asks for its score and
    line.
    """

    def __init__(self, board, level=5, seed=0, nodes=None, clock=None, time_ms=None,
                 max_depth=None, analyse=False):
        if level not in PLAYERS:
            raise ValueError("unknown level %r (use 1-5, random or greedy)" % (level,))
        self.level = level
        self.seed = seed
        self._rng = Lcg(seed)
        rules = board.rules
        self._count = rules.scoring == COUNT
        self._release = rules.release
        self._mode = (RELEASE_ON if rules.release else 0) | (
            FORCED_CAPTURE if rules.forced_capture else 0)
        self._cells = bytearray(board._cells)
        self._side = board.turn
        self._empty0 = board._empty_inner
        self._clock = clock
        self._deadline = None
        if clock is not None and time_ms is not None:
            self._deadline = clock() + time_ms
        if isinstance(level, int):
            budget, depth_limit, noise = LEVELS[level]
        else:
            budget, depth_limit, noise = 0, 0, 0
        self._limit = budget if nodes is None else nodes
        self._nodes = 0
        self._state = _IDLE
        self._result = None
        root = candidate_moves(board)
        self._root = root
        if not root:
            self._finish(Result(None, 0, [], 0, 0, False))
            return
        if level == RANDOM:
            move = root[self._rng.below(len(root))]
            self._finish(Result(move, 0, [move], 0, 0, False))
            return
        self._ev = _counters(self._cells)
        self._fl = bytearray(64)                  # flipped cells, a run per ply (grows)
        if level == GREEDY:
            self._greedy()
            return
        if len(root) == 1 and not analyse:
            self._single()
            return
        # No line is longer than the number of empty cells: that bounds the depth.
        plies = 0
        for c in range(_CELLS):
            if self._cells[c] == 0:
                plies += 1
        self._plies = plies
        if max_depth is not None:
            depth_limit = max_depth
        self._max_depth = depth_limit if depth_limit < plies else plies
        m = self._max_depth + 1
        # Root noise for the low levels, fixed per move for the whole search.
        self._bonus = [0] * _CELLS
        if noise:
            for c in root:
                self._bonus[c] = self._rng.below(2 * noise + 1) - noise
        else:
            # Ties between equal moves are broken by the seed: a shuffle of the root order.
            for i in range(len(root) - 1, 0, -1):
                j = self._rng.below(i + 1)
                root[i], root[j] = root[j], root[i]
        self._scratch = bytearray(SCRATCH_SIZE)
        self._mv = bytearray(128)                 # the ordered moves of each ply (grows)
        self._mbase = [0] * (m + 1)               # ply p's moves: mv[mbase[p]:mbase[p + 1]]
        self._mi = bytearray(m + 1)               # index of ply p's move being searched
        self._made = bytearray(m + 1)             # the cell placed at ply p
        self._fstart = [0] * (m + 1)              # ply p's flips: fl[fstart[p]:fstart[p + 1]]
        self._alpha = [0] * (m + 1)
        self._beta = [0] * (m + 1)
        self._best = [0] * (m + 1)
        # Triangular PV table: row p (the line from ply p) starts at pvoff[p].
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
            self._killer[i] = _NO_CELL
        self._depth = 0
        self._ply = 0
        self._value = 0
        self._root_done = 0

    # --- players without search -------------------------------------------------------

    def _finish(self, result):
        self._result = result
        self._state = _DONE

    def _greedy(self):
        """The move with the best score margin right after it; the seed breaks ties."""
        cells = self._cells
        fl = self._fl
        ev = self._ev
        side = self._side
        best = -_INF
        choice = []
        for c in self._root:
            end = _play(cells, c, side, self._release, fl, 0, ev)
            v = _margin(ev, side, self._count)
            _unplay(cells, c, fl, 0, end, ev)
            if v > best:
                best = v
                choice = [c]
            elif v == best:
                choice.append(c)
        move = choice[self._rng.below(len(choice))]
        self._nodes = len(self._root)
        self._finish(Result(move, best, [move], 1, self._nodes, False))

    def _single(self):
        """One legal move: no need to think. Its score is the static value after it."""
        c = self._root[0]
        cells = self._cells
        end = _play(cells, c, self._side, self._release, self._fl, 0, self._ev)
        empty = self._empty0 - (0 if _IS_OUTER[c] else 1)
        if empty == 0:
            value = _final(self._ev, cells, self._side, self._count)
        else:
            value = -evaluate(self._ev, self._side ^ 3, empty, self._count)
        _unplay(cells, c, self._fl, 0, end, self._ev)
        self._nodes = 1
        self._finish(Result(c, value, [c], 1, 1, empty == 0))

    # --- the public face --------------------------------------------------------------

    def done(self):
        return self._state == _DONE

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

    def nodes(self):
        """Positions visited so far."""
        return self._nodes

    def step(self, max_nodes=256):
        """Search up to `max_nodes` more nodes; True once the search is finished."""
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
        return self._result

    # --- iterative deepening ----------------------------------------------------------

    def _next_iteration(self):
        if self._nodes >= self._limit or self._out_of_time():
            return False
        if self._depth >= self._max_depth:
            return False
        r = self._result
        if r is not None and r.proven:
            return False
        self._depth += 1
        # Root moves: the previous best first, then the seed-shuffled order.
        root = self._root
        if r is not None and r.move in root:
            root.remove(r.move)
            root.insert(0, r.move)
        mv = self._mv
        for i in range(len(root)):
            mv[i] = root[i]
        self._mbase[0] = 0
        self._mbase[1] = len(root)
        self._mi[0] = 0
        self._alpha[0] = -_INF
        self._beta[0] = _INF
        self._best[0] = -_INF
        self._pvlen[0] = 0
        self._fstart[0] = 0
        self._ply = 0
        self._root_done = 0
        self._follow[0] = 1 if self._prev_len else 0
        self._state = _NEXT
        return True

    def _out_of_time(self):
        return self._deadline is not None and self._clock() >= self._deadline

    def _iteration_done(self, complete):
        """Record the root's best move of this iteration (complete or not)."""
        if not self._root_done:
            return
        pvlen = self._pvlen[0]
        pv = list(self._pv[0:pvlen])
        score = self._best[0]
        # Every line reached the end of the game, or a forced result was found.
        proven = self._depth >= self._plies or score >= WIN - 1000 or score <= -WIN + 1000
        # An unfinished iteration searched the previous best move first, so its best so far
        # is at least as well founded as the previous iteration's.
        self._result = Result(pv[0], score, pv, self._depth if complete else self._depth - 1,
                              self._nodes, proven and complete)
        for i in range(pvlen):
            self._prev_pv[i] = pv[i]
        self._prev_len = pvlen

    def _run(self, stop):
        """The search loop: walk the tree with explicit stacks until `stop` nodes, the end
        of the budget or the end of the iteration."""
        cells = self._cells
        scratch = self._scratch
        mv = self._mv
        mbase = self._mbase
        mi = self._mi
        made = self._made
        fl = self._fl
        fstart = self._fstart
        alpha = self._alpha
        beta = self._beta
        best = self._best
        pv = self._pv
        pvoff = self._pvoff
        pvlen = self._pvlen
        ev = self._ev
        bonus = self._bonus
        killer = self._killer
        follow = self._follow
        prev_pv = self._prev_pv
        release = self._release
        count = self._count
        mode = self._mode
        depth = self._depth
        ply = self._ply
        state = self._state
        value = self._value
        nodes = self._nodes
        limit = self._limit
        if stop > limit:
            stop = limit
        side = self._side if ply % 2 == 0 else self._side ^ 3
        empty = self._empty0
        for p in range(ply):
            if not _IS_OUTER[made[p]]:
                empty -= 1
        while True:
            if state == _ENTER:
                if nodes >= stop:
                    break
                nodes += 1
                if nodes & 63 == 0 and self._deadline is not None and self._out_of_time():
                    self._limit = limit = stop = nodes
                pvlen[ply] = ply
                if empty == 0:
                    value = _final(ev, cells, side, count)
                    state = _RETURN
                elif ply >= depth:
                    value = evaluate(ev, side, empty, count)
                    state = _RETURN
                else:
                    n = generate(cells, scratch, mode | side)
                    base = mbase[ply]
                    if base + n > len(mv):
                        mv.extend(bytearray(n + 64))
                    if n > 1:
                        self._order(base, n, ply)
                    else:
                        mv[base] = scratch[MOVES]
                    mbase[ply + 1] = base + n
                    mi[ply] = 0
                    best[ply] = -_INF
                    state = _NEXT
            elif state == _NEXT:
                i = mbase[ply] + mi[ply]
                b = best[ply]
                if i < mbase[ply + 1] and b < beta[ply]:
                    cell = mv[i]
                    mi[ply] += 1
                    made[ply] = cell
                    a = alpha[ply]
                    if b > a:
                        a = b
                    bb = beta[ply]
                    if ply == 0:
                        a -= bonus[cell]
                        bb -= bonus[cell]
                    f = fstart[ply]
                    if f + 48 > len(fl):
                        fl.extend(bytearray(64))
                    fstart[ply + 1] = _play(cells, cell, side, release, fl, f, ev)
                    if not _IS_OUTER[cell]:
                        empty -= 1
                    follow[ply + 1] = 1 if follow[ply] and cell == prev_pv[ply] else 0
                    side ^= 3
                    ply += 1
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
                ply -= 1
                side ^= 3
                cell = made[ply]
                _unplay(cells, cell, fl, fstart[ply], fstart[ply + 1], ev)
                if not _IS_OUTER[cell]:
                    empty += 1
                value = -value
                if ply == 0:
                    value += bonus[cell]
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
            # Out of budget in the middle of an iteration: keep what the root has so far.
            self._iteration_done(False)
            self._state = _DONE

    def _order(self, base, n, ply):
        """Copy the generated moves to mv[base:base + n]: the previous iteration's line
        first, then the two killers, then cell order. (Sorting by a history table saved
        about 5% of the nodes but cost four times the time on a Pico.)"""
        mv = self._mv
        mv[base:base + n] = memoryview(self._scratch)[MOVES:MOVES + n]
        end = base + n
        front = base
        killer = self._killer
        for c in (self._prev_pv[ply] if self._follow[ply] and ply < self._prev_len else _NO_CELL,
                  killer[ply * 2], killer[ply * 2 + 1]):
            if c != _NO_CELL:
                i = mv.find(bytes((c,)), front, end)   # (no int argument on a Pico)
                if i >= 0:
                    mv[i] = mv[front]
                    mv[front] = c
                    front += 1


def _margin(ev, side, count):
    h = side * 8 + 6
    o = (side ^ 3) * 8 + 6
    if count:
        return ev[h] + ev[h + 1] - ev[o] - ev[o + 1]
    return (ev[h] or 1) * (ev[h + 1] or 1) - (ev[o] or 1) * (ev[o + 1] or 1)


def candidate_moves(board):
    """The placements the engine considers: the legal moves, except that under the penalty
    option a miss (which hands the opponent a free placement) is never chosen."""
    if board.is_game_over():
        return []
    if board.rules.penalty and not board.has_free_placement():
        scratch = bytearray(SCRATCH_SIZE)
        mode = board.turn | FORCED_CAPTURE | (RELEASE_ON if board.rules.release else 0)
        n = generate(board._cells, scratch, mode)
        return list(scratch[MOVES:MOVES + n])
    return list(board._legal())


def choose_move(board, level=5, seed=0, nodes=None):
    """The move `level` plays in `board` (a cell), or None when the game is over."""
    return Search(board, level, seed, nodes).run().move


def analyse(board, level=5, seed=0, nodes=None):
    """A Result for the side to move in `board` (a forced move is searched too)."""
    return Search(board, level, seed, nodes, analyse=True).run()
