"""Per-switch deferred debouncing of the reed matrix, allocation-free.

A switch's debounced state changes only once its raw state has differed from the debounced
state at every scan for `debounce_ms`; a scan that sees it back at the debounced state starts
the wait over. So a disk slid past a hex, a bounce or a glitch shorter than `debounce_ms`
produces no event, and an event comes `debounce_ms` after the contact settled (QMK calls this
sym_defer_pk).

Switches are addressed by crossing = row * 8 + col, the matrix positions of the board map;
`BoardMap.cell_of_crossing` turns one into a hex. Raw and debounced states are one byte of
column bits a row line, bit set = switch closed: bytearray(8) for the usual 8 row lines, up to
16 for a larger matrix (`rows`).

An event is one small int, `crossing | kind`: CLOSED or OPENED, a debounced change; and,
from a Debouncer made with `contacts=True`, CONTACT, the first scan that sees a switch close
(its debounce has only begun), and LOST, such a contact gone again before its debounce ended
(a bounce, a disk slid past). So every kind of switch news travels in one queue, as in Peter
Hinch's switch arrays: the board lights a disk at its first contact (gameboard/app.py).
`event & CROSSING` is the crossing, `event & KIND` the kind. Events wait in a fixed ring,
`EventQueue`, that never allocates; when it is full, a debounced change is held back (its
switch stays pending) and a contact's news waits too, all reported on a later update, so
`state` and the events never disagree.
"""

import array


from gameboard import elapsed

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

ROWS = const(8)            # row lines of the usual matrix (the default)
CROSSING = const(0x7F)     # event bits: the crossing (16 row lines of 8 columns at most)
KIND = const(0x180)        # event bits: what happened
OPENED = const(0)          # the switch opened (debounced)
CLOSED = const(0x80)       # the switch closed (debounced)
CONTACT = const(0x100)     # its contacts closed, not yet debounced
LOST = const(0x180)        # a contact opened again before its debounce ended


class EventQueue:
    """Switch events, oldest first, in a ring of `capacity` (like CircuitPython's
    keypad.EventQueue). `overflowed` tells that a change had to wait for room; `clear()`
    resets it."""

    def __init__(self, capacity=64):
        self._ring = array.array("H", bytes(2 * capacity))
        self.capacity = capacity
        self._head = 0
        self.count = 0
        self.overflowed = False

    def __len__(self):
        return self.count

    def put(self, event):
        """Queue an event (0-511); False (and `overflowed` set) when the ring is full."""
        if self.count == self.capacity:
            self.overflowed = True
            return False
        i = self._head + self.count
        if i >= self.capacity:
            i -= self.capacity
        self._ring[i] = event
        self.count += 1
        return True

    def get(self):
        """The oldest event, or -1 if there is none."""
        if not self.count:
            return -1
        event = self._ring[self._head]
        self._head += 1
        if self._head == self.capacity:
            self._head = 0
        self.count -= 1
        return event

    def clear(self):
        self._head = 0
        self.count = 0
        self.overflowed = False


def _lowest_bits():
    table = bytearray(256)
    for v in range(1, 256):
        c = 0
        while not (v >> c) & 1:
            c += 1
        table[v] = c
    return bytes(table)


_LOWEST_BIT = _lowest_bits()   # byte -> index of its lowest set bit


def debounce(raw, state, pending, since, now, debounce_ms, events, touched=None):
    """One scan's debouncing; returns the number of debounced changes queued.

    raw      bytearray(rows): the switches as scanned now
    state    bytearray(rows): the debounced switches, updated in place
    pending  bytearray(rows): switches whose raw state differs from `state`, being timed
    since    list of rows * 8 ints: when each pending switch was first seen differing
    events   EventQueue the changes go to
    touched  bytearray(rows) or None: the closings whose CONTACT was queued and whose end
             (CLOSED or LOST) is still to come; None: no contact events
    """
    queued = 0
    for r in range(len(state)):
        differ = raw[r] ^ state[r]
        timing = pending[r]
        if not (differ | timing | (touched[r] if touched is not None else 0)):
            continue
        started = differ & ~timing
        timing = differ            # a switch back at its debounced state stops timing
        todo = differ
        while todo:                # only the switches that differ
            c = _LOWEST_BIT[todo]
            bit = 1 << c
            todo ^= bit
            i = (r << 3) + c
            if started & bit:
                since[i] = now
            elif elapsed(now, since[i]) >= debounce_ms:
                if events.put((i | CLOSED) if raw[r] & bit else i):
                    state[r] ^= bit
                    timing ^= bit
                    queued += 1
        pending[r] = timing
        if touched is not None:
            _contacts(r, timing & ~state[r], state[r], touched, events)
    return queued


def _contacts(r, closing, closed, touched, events):
    """Row `r`'s contact news: CONTACT for a closing not yet told, LOST for a told one that
    is neither closing nor closed any more (one that is closed was told by CLOSED)."""
    told = touched[r] & ~closed
    news = closing ^ told
    while news:
        c = _LOWEST_BIT[news]
        bit = 1 << c
        news ^= bit
        if events.put((r << 3) + c | (CONTACT if closing & bit else LOST)):
            told ^= bit
    touched[r] = told


class Debouncer:
    """Debounces the reed matrix: `update(raw, now_ms)` after every scan, then drain `events`.
    `contacts`: queue CONTACT and LOST too (a matrix with diodes, whose closings are real)."""

    def __init__(self, debounce_ms, capacity=64, rows=ROWS, contacts=False):
        if debounce_ms < 1:
            raise ValueError("debounce_ms must be at least 1")
        self.debounce_ms = debounce_ms
        self.state = bytearray(rows)
        self.pending = bytearray(rows)
        self.idle = bytes(rows)     # no switch pending
        self.touched = bytearray(rows) if contacts else None    # see debounce()
        self.since = [0] * (rows * 8)
        self.events = EventQueue(capacity)

    def update(self, raw_rows, now_ms):
        """Take one scan (bytearray(rows), 1 = closed) made at `now_ms`; returns events queued."""
        # The usual scan: nothing differs, nothing is being timed and no contact's end is
        # still to tell (three compares in C).
        if (raw_rows == self.state and self.pending == self.idle and
                (self.touched is None or self.touched == self.idle)):
            return 0
        return debounce(raw_rows, self.state, self.pending, self.since, now_ms,
                        self.debounce_ms, self.events, self.touched)

    def busy(self):
        """True while some switch is being timed (its raw state differs from its debounced one)."""
        return self.pending != self.idle

    def ghostly(self, crossing):
        """Without diodes, three closed switches at the corners of a rectangle make the fourth
        read closed: is this closure such a fourth corner?"""
        state = self.state
        row = crossing >> 3
        bit = 1 << (crossing & 7)
        others = state[row] & ~bit
        if not others:
            return False
        for r in range(len(state)):
            if r != row and state[r] & bit and state[r] & others:
                return True
        return False
