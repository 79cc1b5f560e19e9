"""CircuitPython's `keypad` (KeyMatrix, Event, EventQueue) on the simulated circuit.

As CircuitPython 9 documents and implements it (shared-module/keypad): a scanner claims its
pins; a KeyMatrix with `columns_to_anodes=True` keeps columns and idle rows as inputs with
pull-ups and, every `interval` seconds in the background, drives each row low in turn
(push-pull) and reads the columns at once, a low column being a pressed key. Key numbers run
`row * len(column_pins) + column`. A key changing state makes an Event (key_number, pressed,
timestamp = supervisor.ticks_ms() at that scan) once it has held its new state for
`debounce_threshold` scans (1: at the first); the queue holds `max_events` and past that drops
events and sets `overflowed` until `clear()`. Keys already pressed when the scanner is made
are not reported until `reset()`, which makes every held key report a press at the next scan.

The background scans run on the virtual clock: after every sleep of the firmware and before
it reads the queue, the scans that fell due since are made, each seeing the switches as they
are (the simulator changes switches only between the firmware's steps). A stretch longer than
ten intervals without the firmware sleeping or reading is scanned once at its end, as a Pico
runs no background task while code holds it (a flash erase).
"""

from host_sim.fakes import machine as _machine
from host_sim.fakes import microcontroller as _mc
from host_sim.fakes import mptime as _mptime
from host_sim.fakes import supervisor as _supervisor

_scanners = []


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = bool(pressed)
        self.timestamp = _supervisor.ticks_ms() if timestamp is None else timestamp

    @property
    def released(self):
        return not self.pressed

    def __eq__(self, other):
        return (isinstance(other, Event) and other.key_number == self.key_number and
                other.pressed == self.pressed)

    def __hash__(self):
        return hash((self.key_number, self.pressed))

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self.key_number,
                                             "pressed" if self.pressed else "released")


class EventQueue:
    def __init__(self, max_events, scanner):
        self._max = max_events
        self._events = []
        self._scanner = scanner
        self.overflowed = False

    def _put(self, key_number, pressed, timestamp):
        if len(self._events) >= self._max:
            self.overflowed = True
            return
        self._events.append((key_number, pressed, timestamp))

    def get(self):
        self._scanner._catch_up()
        if not self._events:
            return None
        return Event(*self._events.pop(0))

    def get_into(self, event):
        self._scanner._catch_up()
        if not self._events:
            return False
        event.key_number, event.pressed, event.timestamp = self._events.pop(0)
        return True

    def clear(self):
        self._events.clear()
        self.overflowed = False

    def __len__(self):
        self._scanner._catch_up()
        return len(self._events)

    def __bool__(self):
        return len(self) > 0


class KeyMatrix:
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        if not 0 < interval <= 100:
            raise ValueError("interval must be 0.001-100")
        if not 1 <= max_events <= 64 * 1024:
            raise ValueError("max_events must be 1-65536")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        pins = list(row_pins) + list(column_pins)
        for i, pin in enumerate(pins):
            try:
                _mc.claim(pin)
            except Exception:
                for done in pins[:i]:
                    _mc.release(done)
                raise
        self._rows = tuple(p.gpio for p in row_pins)
        self._cols = tuple(p.gpio for p in column_pins)
        self._pins = pins
        self._anodes = columns_to_anodes
        self._interval_us = max(1000, int(round(interval * 1000)) * 1000)   # whole ms ticks
        self._threshold = debounce_threshold
        self._circuit = _machine.circuit()
        self.key_count = len(self._rows) * len(self._cols)
        self._pressed = [False] * self.key_count
        self._counter = [0] * self.key_count
        self.events = EventQueue(max_events, self)
        self._deinited = False
        idle = _machine.PULL_UP if columns_to_anodes else _machine.PULL_DOWN
        for gpio in self._rows + self._cols:
            self._circuit._configure(gpio, _machine.IN, idle, None)
        _scanners.append(self)
        self._scan(report=False)          # keys held now are not reported until reset()
        self._next_us = _mptime.clock().us + self._interval_us

    def deinit(self):
        if not self._deinited:
            self._deinited = True
            for pin in self._pins:
                self._circuit._configure(pin.gpio, _machine.IN, 0, None)
                _mc.release(pin)
            if self in _scanners:
                _scanners.remove(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    @property
    def row_count(self):
        return len(self._rows)

    @property
    def column_count(self):
        return len(self._cols)

    def key_number_to_row_column(self, key_number):
        if not 0 <= key_number < self.key_count:
            raise ValueError("key_number out of range")
        return divmod(key_number, len(self._cols))

    def row_column_to_key_number(self, row, column):
        if not (0 <= row < len(self._rows) and 0 <= column < len(self._cols)):
            raise ValueError("row or column out of range")
        return row * len(self._cols) + column

    def reset(self):
        self._catch_up()
        for k in range(self.key_count):
            self._pressed[k] = False
            self._counter[k] = 0

    # --- the background scan ------------------------------------------------------------

    def _catch_up(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. "
                             "Create a new object.")
        now = _mptime.clock().us
        if self._next_us > now:
            return
        step = self._interval_us
        if now - self._next_us > 10 * step:
            self._next_us += (now - self._next_us) // step * step
        while self._next_us <= now:
            self._scan(timestamp=(self._next_us // 1000 + _supervisor._START) &
                       _supervisor.TICKS_MAX)
            self._next_us += step

    def _scan(self, report=True, timestamp=0):
        circuit = self._circuit
        idle = _machine.PULL_UP if self._anodes else _machine.PULL_DOWN
        cols = len(self._cols)
        for r, row in enumerate(self._rows):
            circuit._configure(row, _machine.OUT, 0, 0 if self._anodes else 1)
            levels = circuit.gpio_in()
            for c, col in enumerate(self._cols):
                k = r * cols + c
                current = bool((levels >> col) & 1) != self._anodes
                if report:
                    self._debounce(k, current, timestamp)
                else:
                    self._pressed[k] = current
                    self._counter[k] = self._threshold if current else 0
            circuit._configure(row, _machine.IN, idle, None)

    def _debounce(self, k, current, timestamp):
        # An integrating counter: the documented "in that state debounce_threshold times on
        # average".
        n = self._counter[k]
        n = min(n + 1, self._threshold) if current else max(n - 1, 0)
        self._counter[k] = n
        if current and n == self._threshold and not self._pressed[k]:
            self._pressed[k] = True
            self.events._put(k, True, timestamp)
        elif not current and n == 0 and self._pressed[k]:
            self._pressed[k] = False
            self.events._put(k, False, timestamp)


def background(clock=None):
    """The port's background task: a sleep hook of the simulator's clock."""
    for scanner in list(_scanners):
        scanner._catch_up()


def boot():
    """A start of the simulated Pico: every scanner is gone."""
    _scanners.clear()
