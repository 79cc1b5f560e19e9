"""Deferred per-switch debouncing, driven by tables of switch activity and a fake clock.

Each scenario gives the raw contact of some switches over time (changes at given
milliseconds) and the events that must come out. It runs at scan periods of 1, 2 and 5 ms:
an event is due at the first scan at least debounce_ms after the first scan that saw the
contact in its final state, so at most one scan period either side of settle + debounce_ms.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameboard.debounce import CLOSED, CROSSING, Debouncer, EventQueue, debounce, elapsed

DEBOUNCE_MS = 10
WRAP = 1 << 30
RATES = [1, 2, 5]


def contact(changes, t):
    """The raw contact at time t of a switch whose contact changes at the given (t, closed)."""
    closed = False
    for when, value in changes:
        if when <= t:
            closed = value
    return closed


def is_closed(deb, crossing):
    """The debounced state of one switch, read from the debouncer's state rows."""
    return bool((deb.state[crossing >> 3] >> (crossing & 7)) & 1)


def run(switches, until, period, start=0, debouncer=None):
    """Scan every `period` ms from `start` to `until` (times relative to start, ticks wrapped);
    returns [(t, crossing, closed)] with t relative to start."""
    deb = debouncer or Debouncer(DEBOUNCE_MS)
    raw = bytearray(8)
    events = []
    for t in range(0, until + 1, period):
        for r in range(8):
            raw[r] = 0
        for crossing, changes in switches.items():
            if contact(changes, t):
                raw[crossing >> 3] |= 1 << (crossing & 7)
        deb.update(raw, (start + t) % WRAP)
        while True:
            event = deb.events.get()
            if event < 0:
                break
            events.append((t, event & CROSSING, bool(event & CLOSED)))
    return events, deb


# (name, {crossing: [(t, closed), ...]}, [(crossing, closed, settled_at), ...]) -- with debounce
# 10 ms an event comes at settled_at + 10 (1 ms scans), within a scan period of it otherwise.
SCENARIOS = [
    ("clean press", {0: [(100, True)]}, [(0, True, 100)]),
    ("clean press and release", {9: [(100, True), (300, False)]},
     [(9, True, 100), (9, False, 300)]),
    ("bounce of 3 ms", {0: [(100, True), (103, False)]}, []),
    ("bounce of 9 ms", {0: [(100, True), (109, False)]}, []),
    ("chattering press", {5: [(100, True), (101, False), (102, True), (104, False), (105, True)]},
     [(5, True, 105)]),
    ("chattering release", {5: [(0, True), (200, False), (201, True), (203, False)]},
     [(5, True, 0), (5, False, 203)]),
    ("dropout while held", {5: [(0, True), (150, False), (153, True)]}, [(5, True, 0)]),
    ("disk slid across hexes", {0: [(100, True), (106, False)], 1: [(104, True), (112, False)],
                                2: [(110, True)]}, [(2, True, 110)]),
    ("several at once, in crossing order", {63: [(50, True)], 0: [(50, True)], 17: [(50, True)]},
     [(0, True, 50), (17, True, 50), (63, True, 50)]),
    ("contact held 1 ms past debounce_ms", {3: [(100, True), (111, False)]},
     [(3, True, 100), (3, False, 111)]),
]


@pytest.mark.parametrize("period", RATES, ids=["%dms" % p for p in RATES])
@pytest.mark.parametrize("switches, expected", [s[1:] for s in SCENARIOS],
                         ids=[s[0] for s in SCENARIOS])
def test_scenarios(switches, expected, period):
    events, deb = run(switches, 500, period)
    assert [(c, closed) for _, c, closed in events] == [(c, closed) for c, closed, _ in expected]
    for (t, _, _), (_, _, settled) in zip(events, expected):
        if period == 1:
            assert t == settled + DEBOUNCE_MS
        else:
            assert settled + DEBOUNCE_MS - period <= t <= settled + DEBOUNCE_MS + period
    # The debounced state ends where the raw contacts end.
    for crossing, changes in switches.items():
        assert is_closed(deb, crossing) == contact(changes, 500)


@pytest.mark.parametrize("period", RATES, ids=["%dms" % p for p in RATES])
def test_clean_press_exact_times(period):
    """A clean press and release at 100 and 300 ms: one event each, exactly when due."""
    events, _ = run({20: [(100, True), (300, False)]}, 400, period)
    due = [100 + DEBOUNCE_MS, 300 + DEBOUNCE_MS]   # multiples of every rate here
    assert events == [(due[0], 20, True), (due[1], 20, False)]


@pytest.mark.parametrize("period", RATES, ids=["%dms" % p for p in RATES])
@pytest.mark.parametrize("before_wrap", [1, 5, 8, 10, 12])
def test_tick_wrap_around(period, before_wrap):
    """Ticks wrap at 2**30: a press that straddles the wrap is debounced as any other."""
    start = WRAP - 100 - before_wrap   # the contact closes `before_wrap` ms before the wrap
    events, _ = run({7: [(100, True), (200, False)]}, 300, period, start=start)
    assert [(c, closed) for _, c, closed in events] == [(7, True), (7, False)]
    assert abs(events[0][0] - 110) <= period and abs(events[1][0] - 210) <= period
    # The same presses without the wrap give the same events at the same times.
    assert events == run({7: [(100, True), (200, False)]}, 300, period)[0]


def test_elapsed_wraps():
    assert elapsed(3, WRAP - 7) == 10
    assert elapsed(10, 0) == 10
    assert elapsed(0, 0) == 0


def test_pure_core_with_tables():
    """debounce() on plain buffers: start timing, keep timing, commit, and stop on a bounce back."""
    state, pending, since = bytearray(8), bytearray(8), [0] * 64
    queue = EventQueue(8)
    raw = bytearray(8)
    raw[2] = 0b101
    table = [
        # (now, raw row 2, queued, state row 2, pending row 2)
        (0, 0b101, 0, 0b000, 0b101),
        (9, 0b101, 0, 0b000, 0b101),
        (10, 0b001, 1, 0b001, 0b000),   # switch 16 commits; switch 18 bounced back
        (12, 0b000, 0, 0b001, 0b001),   # switch 16 starts to open
        (21, 0b001, 0, 0b001, 0b000),   # back closed before 10 ms: no event
    ]
    for now, row, queued, st_row, pend_row in table:
        raw[2] = row
        assert debounce(raw, state, pending, since, now, DEBOUNCE_MS, queue) == queued
        assert (state[2], pending[2]) == (st_row, pend_row), now
    assert queue.get() == 16 | CLOSED and queue.get() == -1


def test_full_queue_holds_changes_back_without_losing_any():
    deb = Debouncer(DEBOUNCE_MS, capacity=2)
    raw = bytearray(8)
    raw[0] = 0b11111
    deb.update(raw, 0)
    assert deb.update(raw, 10) == 2
    assert deb.events.overflowed and len(deb.events) == 2
    assert deb.state[0] == 0b00011 and deb.busy()   # only what was queued changed
    got = [deb.events.get(), deb.events.get(), deb.events.get()]
    assert got == [0 | CLOSED, 1 | CLOSED, -1]
    assert deb.update(raw, 11) == 2                 # the rest come as room frees up
    deb.events.clear()
    assert not deb.events.overflowed and len(deb.events) == 0
    assert deb.update(raw, 12) == 1 and deb.state[0] == 0b11111 and not deb.busy()


def test_event_queue_ring():
    queue = EventQueue(3)
    for round_ in range(5):       # wraps around its ring several times
        assert queue.put(round_) and queue.put(100 + round_)
        assert len(queue) == 2
        assert queue.get() == round_ and queue.get() == 100 + round_ and queue.get() == -1
    assert queue.put(1) and queue.put(2) and queue.put(3) and not queue.put(4)
    assert queue.overflowed and [queue.get() for _ in range(4)] == [1, 2, 3, -1]


def test_rejects_non_positive_debounce():
    with pytest.raises(ValueError):
        Debouncer(0)


def reference_events(samples, debounce_ms):
    """A plain per-switch model: [(t, raw64)] -> [(t, crossing, closed)]."""
    state = [False] * 64
    since = [None] * 64
    out = []
    for t, raw in samples:
        for i in range(64):
            closed = bool(raw >> i & 1)
            if closed == state[i]:
                since[i] = None
            elif since[i] is None:
                since[i] = t
            elif t - since[i] >= debounce_ms:
                state[i] = closed
                since[i] = None
                out.append((t, i, closed))
    return out


@settings(max_examples=60)
@given(st.integers(1, 30), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_matches_a_plain_model_on_random_chatter(debounce_ms, period, seed):
    rng = random.Random(seed)
    switches = rng.sample(range(64), 4)
    raw = 0
    samples = []
    for k in range(300):
        for i in switches:
            if rng.random() < 0.15:
                raw ^= 1 << i
        samples.append((k * period, raw))
    deb = Debouncer(debounce_ms)
    rows = bytearray(8)
    got = []
    start = WRAP - 400      # across a wrap, too
    for t, value in samples:
        for r in range(8):
            rows[r] = (value >> (8 * r)) & 0xFF
        deb.update(rows, (start + t) % WRAP)
        while (event := deb.events.get()) >= 0:
            got.append((t, event & CROSSING, bool(event & CLOSED)))
    assert got == reference_events(samples, debounce_ms)


def test_a_matrix_of_sixteen_row_lines_reports_every_crossing():
    """A board with more than 64 switches (a 9x9 square board) scans up to 16 row lines of 8
    columns: crossings up to 127 still fit an event byte beside its CLOSED bit."""
    deb = Debouncer(DEBOUNCE_MS, rows=16)
    raw = bytearray(16)
    for crossing in (64, 80, 127):
        raw[crossing >> 3] |= 1 << (crossing & 7)
    deb.update(raw, 0)
    assert deb.busy() and deb.update(raw, DEBOUNCE_MS) == 3
    got = []
    while (event := deb.events.get()) >= 0:
        got.append((event & CROSSING, bool(event & CLOSED)))
    assert got == [(64, True), (80, True), (127, True)]
    assert is_closed(deb, 127) and not deb.busy()
    raw[15] = 0
    deb.update(raw, 100)
    deb.update(raw, 100 + DEBOUNCE_MS)
    assert deb.events.get() == 127 and not is_closed(deb, 127)
