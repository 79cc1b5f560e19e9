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
from iago.searchcore import (GREEDY, PLAYERS, RANDOM, WIN,  # noqa: F401  (engine.WIN, ...)
                             Lcg, mix_seed)
from iago.rules import CAPTIVE, COUNT, generate

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Level -> (node budget, depth limit, root noise in evaluation units, LOGIT a logit). A node
# is one position visited by the search (one placement made). Nodes, not time, make a level,
# so a level plays the same moves on every machine; `make bench` gives nodes/s for the Pico
# estimate. The board caps level 5 lower to keep a move within 2 s on a Pico
# (the hex Layout's board_nodes, gameboard/layout.py); 4,000 nodes is what beats random play
# 99% of the time
# (docs/engine.md: 2,000 gave 98.75% over 800 games, 4,000 99.3% over 1,000).
LEVELS = {
    1: (40, 1, 16),
    2: (80, 2, 6),
    3: (250, 64, 0),
    4: (700, 64, 0),
    5: (4000, 64, 0),
}

_INF = const(1000000)     # searchcore.INF, a constant in the walk
# The move generators' contract (iago.movegen; tests check that the copies agree).
_MOVES = const(122)
_SCRATCH_SIZE = const(183)
_RELEASE_ON = const(4)
_FORCED_CAPTURE = const(8)
_CELLS = const(61)
_NO_CELL = const(255)
_CENTRE = hexgrid.CENTRE
_NB = hexgrid.NEIGHBOURS
_IS_OUTER = hexgrid.IS_OUTER
_OOC = hexgrid.OUTER_OR_CENTRE

# searchcore's states of the resumable search, as constants in the walk.
_ENTER = const(0)    # a node has been reached and is not counted yet
_NEXT = const(1)     # try the next move of the node at `ply`
_RETURN = const(2)   # the node at `ply` has its value


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


class Search(searchcore.Scaffold):
    """A resumable search of `board` (which it copies) for the side to move.

    level: 1-5, "random" or "greedy". seed: decides among equal moves (and the noise of the
    low levels). nodes: overrides the level's node budget. clock and time_ms: a callable
    returning milliseconds and a time budget; the search also stops when it runs out (then
    the result depends on the machine's speed). max_depth: overrides the level's depth limit.
    A single legal move is played without thinking, unless `analyse` asks for its score and
    line. The public face and iterative deepening are searchcore.Scaffold's.
    """

    RESULT = Result
    NOISY_SCORE = True     # a low level's score is the value it played by, noise and all

    def __init__(self, board, level=5, seed=0, nodes=None, clock=None, time_ms=None,
                 max_depth=None, analyse=False):
        rng = Lcg(seed)
        rules = board.rules
        self._count = rules.scoring == COUNT
        self._release = rules.release
        self._mode = (_RELEASE_ON if rules.release else 0) | (
            _FORCED_CAPTURE if rules.forced_capture else 0)
        self.cell_states = bytearray(board.cell_states)
        self._side = board.turn
        self._empty0 = board._empty_inner
        budget, depth_limit, noise = LEVELS.get(level, (0, 0, 0))   # (Scaffold checks level)
        root = candidate_moves(board)
        searchcore.Scaffold.__init__(self, level, seed, clock, time_ms,
                                     budget if nodes is None else nodes, root, rng)
        if self.done():
            return
        self._ev = _counters(self.cell_states)
        self._fl = bytearray(64)                  # flipped cells, a run per ply (grows)
        if level == GREEDY:
            self._greedy(rng)
            return
        if len(root) == 1 and not analyse:
            self._single()
            return
        # No line is longer than the number of empty cells: that bounds the depth.
        plies = 0
        for c in range(_CELLS):
            if self.cell_states[c] == 0:
                plies += 1
        if max_depth is not None:
            depth_limit = max_depth
        # Root noise for the low levels, fixed per move for the whole search.
        bonus = [0] * _CELLS
        if noise:
            for c in root:
                bonus[c] = rng.below(2 * noise + 1) - noise
        else:
            # Ties between equal moves are broken by the seed: a shuffle of the root order.
            for i in range(len(root) - 1, 0, -1):
                j = rng.below(i + 1)
                root[i], root[j] = root[j], root[i]
        self._stacks(plies, depth_limit if depth_limit < plies else plies, bonus)
        m = self._max_depth + 1
        self._scratch = bytearray(_SCRATCH_SIZE)
        self._mv = bytearray(128)                 # the ordered moves of each ply (grows)
        self._mbase = [0] * (m + 1)               # ply p's moves: mv[mbase[p]:mbase[p + 1]]
        self._fstart = [0] * (m + 1)              # ply p's flips: fl[fstart[p]:fstart[p + 1]]

    # --- players without search -------------------------------------------------------

    def _greedy_value(self, cell):
        """The score margin right after `cell`."""
        cells = self.cell_states
        end = _play(cells, cell, self._side, self._release, self._fl, 0, self._ev)
        v = _margin(self._ev, self._side, self._count)
        _unplay(cells, cell, self._fl, 0, end, self._ev)
        return v

    def _single(self):
        """One legal move: no need to think. Its score is the static value after it."""
        c = self._root[0]
        cells = self.cell_states
        end = _play(cells, c, self._side, self._release, self._fl, 0, self._ev)
        empty = self._empty0 - (0 if _IS_OUTER[c] else 1)
        if empty == 0:
            value = _final(self._ev, cells, self._side, self._count)
        else:
            value = -evaluate(self._ev, self._side ^ 3, empty, self._count)
        _unplay(cells, c, self._fl, 0, end, self._ev)
        self._nodes = 1
        self._finish(Result(c, value, [c], 1, 1, empty == 0))

    # --- the walk ---------------------------------------------------------------------

    def _root_moves(self, root):
        mv = self._mv
        for i in range(len(root)):
            mv[i] = root[i]
        self._mbase[0] = 0
        self._mbase[1] = len(root)
        self._fstart[0] = 0

    def _run(self, stop):
        """The search loop: walk the tree with explicit stacks until `stop` nodes, the end
        of the budget or the end of the iteration."""
        cells = self.cell_states
        scratch = self._scratch
        mv = self._mv
        mbase = self._mbase
        fl = self._fl
        fstart = self._fstart
        ev = self._ev
        release = self._release
        count = self._count
        mode = self._mode
        depth = self._depth
        mi, made, alpha, beta, best, pvlen, follow, prev_pv = self._stack
        improved = self._improved       # (a bound method: looked up once a slice)
        ply, state, value, nodes, stop = self._resume(stop)
        side = self._side if ply % 2 == 0 else self._side ^ 3
        empty = self._empty0
        for p in range(ply):
            if not _IS_OUTER[made[p]]:
                empty -= 1
        while True:
            if state == _ENTER:
                if nodes >= stop:
                    return self._pause(ply, value, nodes)
                nodes += 1
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
                        mv[base] = scratch[_MOVES]
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
                    a = alpha[ply]                 # raised to the best value so far
                    bb = beta[ply]
                    if ply == 0:
                        a, bb = self._root_window(cell, a, bb)
                    f = fstart[ply]
                    if f + 48 > len(fl):
                        fl.extend(bytearray(64))
                    fstart[ply + 1] = _play(cells, cell, side, release, fl, f, ev)
                    if not _IS_OUTER[cell]:
                        empty -= 1
                    follow[ply + 1] = 1 if follow[ply] and cell == prev_pv[ply] else 0
                    side ^= 3
                    ply += 1
                    pvlen[ply] = ply               # the child's line starts empty
                    alpha[ply] = -bb
                    beta[ply] = -a
                    state = _ENTER
                elif ply == 0:             # the root is searched: the iteration is complete
                    return self._iteration_done(nodes, True)
                else:
                    value = b
                    state = _RETURN
            else:  # _RETURN
                ply -= 1
                side ^= 3
                cell = made[ply]
                _unplay(cells, cell, fl, fstart[ply], fstart[ply + 1], ev)
                if not _IS_OUTER[cell]:
                    empty += 1
                value = -value
                if ply == 0:
                    self._root_value(cell, value)
                elif value > best[ply]:
                    improved(ply, cell, value)
                state = _NEXT

    def _order(self, base, n, ply):
        """Copy the generated moves to mv[base:base + n]: the previous iteration's line
        first, then the two killers, then cell order. (Sorting by a history table saved
        about 5% of the nodes but cost four times the time on a Pico.)"""
        mv = self._mv
        mv[base:base + n] = memoryview(self._scratch)[_MOVES:_MOVES + n]
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
        scratch = bytearray(_SCRATCH_SIZE)
        mode = board.turn | _FORCED_CAPTURE | (_RELEASE_ON if board.rules.release else 0)
        n = generate(board.cell_states, scratch, mode)
        return list(scratch[_MOVES:_MOVES + n])
    return list(board._legal())


# The move `level` plays in a board (a cell, None when the game is over); a Result for the
# side to move (a forced move is searched too): searchcore.Scaffold's, on this engine.
choose_move = Search.choose_move
analyse = Search.analyse
