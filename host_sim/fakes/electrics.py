"""The simulated board's electrics: the Pico's GPIO pads and the reed switch matrix between
them, as levels a read sees (host_sim/fakes/machine.py's Circuit is built on them).

The reed matrix is modelled electrically. A switch joins a row line to a column line. With a
diode in series (anode at the column) current flows only from the column into the row, so a
column is pulled low exactly by a closed switch to a row driven low. Without diodes a closed
switch conducts both ways: the lines joined through closed switches form one net, and three
closed switches at the corners of a rectangle let a driven row pull the fourth corner's
column low -- a ghost press.
"""

IN = 0
OUT = 1
OPEN_DRAIN = 2
ALT = 3
PULL_UP = 1
PULL_DOWN = 2

GPIO_COUNT = 30
UNCONFIGURED = None


class Pad:
    __slots__ = ("mode", "pull", "out")

    def __init__(self):
        self.mode = UNCONFIGURED
        self.pull = PULL_DOWN     # RP2040 pads come out of reset with the pull-down on
        self.out = 0


def _settle(drives, pulls):
    """The level of a net from what drives it and what pulls it."""
    if 0 in drives:
        return 0
    if 1 in drives:
        return 1
    ups = pulls.count(1)
    downs = pulls.count(0)
    if ups or downs:
        return 1 if ups >= downs else 0
    return 0


class Electrics:
    """The levels of a circuit's pads: `_pads` (a Pad a GPIO), `_line` ({GPIO: (0 for a row
    or 1 for a column, its index)}), `row_pins`, `col_pins`, `switches`, `diodes`, `grounded`
    (GPIOs a held button connects to ground) and `contention` (reads that found a pad driven
    high against a low), all set by the circuit, which also gives it `_register_reads` ({})."""

    def _drive(self, gpio):
        """What the pad itself does: 0 or 1 driven, or None (high impedance)."""
        p = self._pads[gpio]
        if p.mode == OUT:
            return p.out
        if p.mode == OPEN_DRAIN and not p.out:
            return 0
        return None

    def _own(self, gpio):
        """(driven level or None, pulled level or None) of one pad with what is wired to it
        alone (a button)."""
        drive = self._drive(gpio)
        if gpio in self.grounded:
            if drive == 1:
                self.contention += 1
            drive = 0
        pull = self._pads[gpio].pull
        pulled = None
        if pull == PULL_UP:
            pulled = 1
        elif pull == PULL_DOWN:
            pulled = 0
        elif pull == PULL_UP | PULL_DOWN:
            pulled = 1    # both on: a divider near mid-rail, which the pad reads as high
        return drive, pulled

    def level(self, gpio):
        """The logic level a read of `gpio` sees (a floating pad reads 0)."""
        line = self._line.get(gpio)
        if line is None:
            drive, pulled = self._own(gpio)
            return _settle((drive,), (pulled,))
        if self.diodes:
            return self._level_with_diodes(gpio, line)
        return self._level_of_net(self._net(line))

    def gpio_in(self):
        """The SIO GPIO_IN register (what machine.mem32 reads): bit n = the level of GPn.
        The same levels as `level` pad by pad, worked out once for the whole matrix."""
        # A scan reads the register millions of times in a fuzzer's run, in few distinct
        # states: each is worked out once (its level and the contention it counts).
        state = (bytes(self.switches), frozenset(self.grounded),
                 tuple([(pad.mode, pad.pull, pad.out) for pad in self._pads]))
        known = self._register_reads.get(state)
        if known is None:
            before = self.contention
            value = self._gpio_in()
            known = (value, self.contention - before)
            self.contention = before
            if len(self._register_reads) >= 4096:
                self._register_reads.clear()
            self._register_reads[state] = known
        self.contention += known[1]
        return known[0]

    def _gpio_in(self):
        if not self.diodes:
            return sum(self.level(gpio) << gpio for gpio in range(GPIO_COUNT))
        own = [self._own(gpio) for gpio in range(GPIO_COUNT)]
        low = 0            # the columns a closed switch joins to a row driven low
        for row, pin in enumerate(self.row_pins):
            if own[pin][0] == 0:
                low |= self.switches[row]
        value = 0
        for gpio in range(GPIO_COUNT):
            drive, pulled = own[gpio]
            line = self._line.get(gpio)
            if line is not None:
                kind, index = line
                if kind == 1 and (low >> index) & 1:
                    if drive == 1:
                        self.contention += 1
                    continue
                if kind == 0 and drive is None and pulled is None:
                    bits = self.switches[index]
                    for col, pin in enumerate(self.col_pins):
                        d, p = own[pin]
                        if (bits >> col) & 1 and (d if d is not None else p) == 1:
                            drive = 1
                            break
            if drive is None:
                drive = pulled
            if drive:
                value |= 1 << gpio
        return value

    def _level_with_diodes(self, gpio, line):
        kind, index = line
        drive, pulled = self._own(gpio)
        if kind == 1:
            # A column is pulled low through the diode of a closed switch to a low row.
            for row in range(len(self.row_pins)):
                if (self.switches[row] >> index) & 1 and self._own(self.row_pins[row])[0] == 0:
                    if drive == 1:
                        self.contention += 1
                    return 0
            return _settle((drive,), (pulled,))
        # A released row follows a high column through the diode, never a low one.
        if drive is None and pulled is None:
            bits = self.switches[index]
            for col in range(len(self.col_pins)):
                if (bits >> col) & 1:
                    d, p = self._own(self.col_pins[col])
                    if (d if d is not None else p) == 1:
                        return 1
        return _settle((drive,), (pulled,))

    def _net(self, start):
        """The matrix lines joined to `start` through closed switches (no diodes)."""
        seen = {start}
        todo = [start]
        while todo:
            kind, index = todo.pop()
            if kind == 0:
                neighbours = [(1, c) for c in range(len(self.col_pins))
                              if (self.switches[index] >> c) & 1]
            else:
                neighbours = [(0, r) for r in range(len(self.row_pins))
                              if (self.switches[r] >> index) & 1]
            for node in neighbours:
                if node not in seen:
                    seen.add(node)
                    todo.append(node)
        return seen

    def _level_of_net(self, net):
        drives = []
        pulls = []
        for kind, index in net:
            gpio = (self.row_pins if kind == 0 else self.col_pins)[index]
            drive, pulled = self._own(gpio)
            drives.append(drive)
            pulls.append(pulled)
        if 0 in drives and 1 in drives:
            self.contention += 1
        return _settle(drives, pulls)
