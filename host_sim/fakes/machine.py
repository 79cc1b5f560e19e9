"""MicroPython's `machine` module for the rp2 port, on a simulated circuit, for CPython.

A `Circuit` is the board's electrics as the simulator sees them: the Pico's GPIO pads, the
reed switch matrix (with or without its diodes), push buttons, the LED chain and the
watchdog. `Pin` objects are handles on the pads of the circuit installed when they were made
(`use()`, normally through `install()`); reading a pin works out its electrical level.

The reed matrix is modelled electrically (electrics.py).

Pin semantics follow ports/rp2/machine_pin.c: mode None keeps the mode; pull is set on every
init (None: no pull); OPEN_DRAIN drives low for 0 and releases for 1; value() reads the pad.
-1 is accepted for "not given", as in the documented signature. A pad never configured since
reset has the RP2040's reset pull-down.
"""

from host_sim.fakes.electrics import (  # noqa: F401 (machine's names, as on a Pico)
    ALT, GPIO_COUNT, IN, OPEN_DRAIN, OUT, PULL_DOWN, PULL_UP, Electrics, Pad)

PWRON_RESET = 1
WDT_RESET = 3

NAMED_PINS = {"LED": 25}        # the Pico's on-board LED
WDT_MAX_MS = 8388
BITSTREAM_US_PER_BYTE = 10      # WS2812 at 800 kbit/s: 1.25 us a bit; bitstream() blocks meanwhile
_MODE_NAMES = {IN: "IN", OUT: "OUT", OPEN_DRAIN: "OPEN_DRAIN"}


from host_sim.fakes.fram import I2C  # noqa: E402,F401 (machine.I2C)


class MachineReset(BaseException):
    """The Pico resets (machine.reset() or the watchdog). Not an Exception: firmware code
    cannot catch it, as nothing survives a real reset. `cause` is what reset_cause() will say."""

    def __init__(self, cause, why=""):
        super().__init__(why or ("watchdog reset" if cause == WDT_RESET else "reset"))
        self.cause = cause


class SoftReset(SystemExit):
    """machine.soft_reset(): MicroPython raises SystemExit and restarts the interpreter."""


class Circuit(Electrics):
    """The simulated board's electrics. Build it with `for_board(boardmap)` or by hand.

    row_pins, col_pins   GPIOs of the matrix lines (positions = the board map's row/col)
    diodes               a diode in series with every switch (the real board has them)
    switches             bytearray(8), or one byte a row line where there are more:
                         bit c of byte r = the switch at row r, col c is closed
    chip                 the Pico's chip, "RP2040" (a Pico) or "RP2350" (a Pico 2): its
                         registers, and the name simulated_machine() gives it
    """

    def __init__(self, row_pins=(), col_pins=(), diodes=True, clock=None, boardmap=None):
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self.diodes = diodes
        self.clock = clock
        self.boardmap = boardmap
        self.switches = bytearray(max(8, len(self.row_pins)))
        self.grounded = set()          # GPIOs a held button connects to ground
        self.led_buffers = {}          # GPIO -> the bytes of the last bitstream sent on it
        self.led_writes = 0
        self.contention = 0            # reads that found a pad driven high against a low
        self._register_reads = {}      # gpio_in's levels, by the state they were read in
        self.reset_cause = PWRON_RESET
        self.chip = "RP2040"
        self.freq_hz = 125_000_000
        self.unique_id = bytes((0xE6, 0x61, 0x38, 0x04, 0x03, 0x2B, 0x6D, 0x2F))
        self.watchdog_timeout_ms = None
        self.watchdog_fed_us = 0
        self.watchdog_resets = 0
        self.fram = None               # an I2C FRAM (host_sim/fakes/fram.FramChip), if fitted
        self._pads = [Pad() for _ in range(GPIO_COUNT)]
        self._line = {}
        for i, gpio in enumerate(self.row_pins):
            self._line[gpio] = (0, i)
        for i, gpio in enumerate(self.col_pins):
            self._line[gpio] = (1, i)

    @classmethod
    def for_board(cls, boardmap, diodes=True, clock=None):
        return cls(boardmap.row_pins, boardmap.col_pins, diodes, clock, boardmap)

    # --- the world acting on the board ---------------------------------------------------

    def set_switch(self, row, col, closed=True):
        if closed:
            self.switches[row] |= 1 << col
        else:
            self.switches[row] &= ~(1 << col) & 0xFF

    def set_cell(self, cell, closed=True):
        """A disk on (closed) or off the hex `cell` (needs the board map)."""
        crossing = self.boardmap.crossing_of_cell[cell]
        self.set_switch(crossing >> 3, crossing & 7, closed)

    def set_cells(self, cells):
        """Exactly the hexes in `cells` have disks."""
        self.switches[:] = bytes(len(self.switches))
        for cell in cells:
            self.set_cell(cell)

    def press(self, gpio, down=True):
        """Hold (or let go of) a push button between `gpio` and ground."""
        if down:
            self.grounded.add(gpio)
        else:
            self.grounded.discard(gpio)

    def reset(self, cause=PWRON_RESET):
        """The Pico restarts: pads back to their reset state, watchdog off. The LEDs keep
        their colours (they latch while powered) unless the cause is a power-on."""
        self._pads = [Pad() for _ in range(GPIO_COUNT)]
        self.watchdog_timeout_ms = None
        self.reset_cause = cause
        if cause == PWRON_RESET:
            self.led_buffers.clear()

    # --- what the simulator reads back ----------------------------------------------------

    def pad(self, gpio):
        """(mode, pull, out) of a pad; mode None = never configured since reset."""
        p = self._pads[gpio]
        return p.mode, p.pull, p.out

    def led_colours(self, gpio=None):
        """The colours the LED chain shows, decoded with the board map: a list of (r, g, b)
        in cell order ((0, 0, 0) for every hex before anything was sent)."""
        bmap = self.boardmap
        data = self.led_buffers.get(bmap.led_pin if gpio is None else gpio)
        count = len(bmap.led_of_cell)
        if data is None:
            return [(0, 0, 0)] * count
        bpp = bmap.bpp
        r, g, b = bmap.colour_order[:3]
        colours = []
        for cell in range(count):
            o = bmap.led_of_cell[cell] * bpp
            colours.append((data[o + r], data[o + g], data[o + b]))
        return colours

    def led_current_ma(self, gpio=None):
        """The chain's draw as the board map estimates it, for the last bytes sent."""
        bmap = self.boardmap
        data = self.led_buffers.get(bmap.led_pin if gpio is None else gpio, b"")
        count = len(bmap.led_of_cell)
        return bmap.led_idle_ma * count + sum(data) * bmap.led_ma_per_channel / 255

    def watchdog_expired(self):
        if self.watchdog_timeout_ms is None or self.clock is None:
            return False
        return self.clock.us - self.watchdog_fed_us > self.watchdog_timeout_ms * 1000

    def check_watchdog(self, clock=None):
        """Raise MachineReset(WDT_RESET) if the watchdog went unfed too long (a sleep hook)."""
        if self.watchdog_expired():
            self.watchdog_resets += 1
            self.watchdog_timeout_ms = None
            raise MachineReset(WDT_RESET, "watchdog not fed for %d ms" % (
                (self.clock.us - self.watchdog_fed_us) // 1000))

    # --- called by the fakes ---------------------------------------------------------------

    def _configure(self, gpio, mode, pull, value):
        p = self._pads[gpio]
        if value is not None:
            p.out = 1 if value else 0
        if mode is not None:
            if mode not in _MODE_NAMES:
                raise ValueError("invalid pin af: %d" % mode)
            if mode == OPEN_DRAIN and value is None:
                p.out = 1
            p.mode = mode
        p.pull = pull or 0

    def _write(self, gpio, value):
        p = self._pads[gpio]
        p.out = 1 if value else 0   # an unconfigured pad keeps the latch and stays an input

    def _bitstream(self, gpio, data):
        self.led_buffers[gpio] = bytes(data)
        self.led_writes += 1
        if self.clock is not None:
            self.clock.advance_us(len(data) * BITSTREAM_US_PER_BYTE)

    def _watchdog_start(self, timeout_ms):
        self.watchdog_timeout_ms = timeout_ms
        self._watchdog_feed()

    def _watchdog_feed(self):
        self.watchdog_fed_us = self.clock.us if self.clock is not None else 0


_circuit = None


def use(circuit):
    """Make `circuit` the one new Pins belong to; returns the previous one."""
    global _circuit
    previous = _circuit
    _circuit = circuit
    return previous


def circuit():
    """The circuit in use (a bare one is made on first need)."""
    global _circuit
    if _circuit is None:
        _circuit = Circuit()
    return _circuit


def _not_given(arg):
    return arg is None or arg == -1


class Pin:
    IN = IN
    OUT = OUT
    OPEN_DRAIN = OPEN_DRAIN
    ALT = ALT
    PULL_UP = PULL_UP
    PULL_DOWN = PULL_DOWN
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=None, pull=None, *, value=None, alt=None):
        if isinstance(id, Pin):
            gpio = id.gpio
        elif isinstance(id, str):
            if id not in NAMED_PINS:
                raise ValueError('unknown named pin "%s"' % id)
            gpio = NAMED_PINS[id]
        elif isinstance(id, int) and not isinstance(id, bool) and 0 <= id < GPIO_COUNT:
            gpio = id
        else:
            raise ValueError("invalid pin")
        self.gpio = gpio
        self.circuit = circuit()
        if not (_not_given(mode) and _not_given(pull) and value is None):
            self.init(mode, pull, value=value)

    def init(self, mode=None, pull=None, *, value=None, alt=None):
        self.circuit._configure(self.gpio, None if _not_given(mode) else mode,
                                None if _not_given(pull) else pull, value)

    def value(self, x=None):
        if x is None:
            return self.circuit.level(self.gpio)
        self.circuit._write(self.gpio, x)
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.circuit._write(self.gpio, 1)

    def off(self):
        self.circuit._write(self.gpio, 0)

    high = on
    low = off

    def toggle(self):
        self.circuit._write(self.gpio, not self.circuit.pad(self.gpio)[2])

    def __eq__(self, other):
        return isinstance(other, Pin) and other.gpio == self.gpio and other.circuit is self.circuit

    def __hash__(self):
        return hash(self.gpio)

    def __repr__(self):
        mode, pull, _ = self.circuit.pad(self.gpio)
        text = "Pin(GPIO%d, mode=%s" % (self.gpio, _MODE_NAMES.get(mode, "IN"))
        if pull == PULL_UP:
            text += ", pull=PULL_UP"
        elif pull == PULL_DOWN:
            text += ", pull=PULL_DOWN"
        elif pull == PULL_UP | PULL_DOWN:
            text += ", pull=PULL_UP|PULL_DOWN"
        return text + ")"


class WDT:
    """The watchdog: once started it cannot be stopped; unfed past `timeout` ms it resets."""

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%d) doesn't exist" % id)
        if timeout > WDT_MAX_MS:
            raise ValueError("timeout exceeds %d" % WDT_MAX_MS)
        self.circuit = circuit()
        self.circuit._watchdog_start(timeout)

    def feed(self):
        self.circuit._watchdog_feed()


# The registers machine.mem32 reaches on each chip, as far as the firmware uses them (the Pico
# SDK's src/rp2040 and src/rp2350 hardware_regs headers): SIO GPIO_IN, and WATCHDOG CTRL's
# atomic bit-clear alias (the watchdog's base + 0x3000). Written out here apart from
# gameboard/hw.py's table, so a wrong address there meets no register.
SIO_GPIO_IN = {"RP2040": 0xD0000004, "RP2350": 0xD0000004}
WATCHDOG_CTRL_CLEAR = {"RP2040": 0x40058000 + 0x3000, "RP2350": 0x400D8000 + 0x3000}
WATCHDOG_ENABLE = 1 << 30


class _Memory:
    """machine.mem32 as far as the firmware uses it, on the circuit's chip: the SIO GPIO_IN
    register read, the watchdog's ENABLE bit cleared."""

    def __getitem__(self, address):
        board = circuit()
        if address == SIO_GPIO_IN.get(board.chip):
            return board.gpio_in()
        raise NotImplementedError("the simulated %s has no register at 0x%08x"
                                  % (board.chip, address))

    def __setitem__(self, address, value):
        board = circuit()
        if address == WATCHDOG_CTRL_CLEAR.get(board.chip) and value == WATCHDOG_ENABLE:
            board.watchdog_timeout_ms = None      # stopped
            return
        raise NotImplementedError("the simulated %s has no register at 0x%08x"
                                  % (board.chip, address))


mem32 = _Memory()


def simulated_machine():
    """The simulated board's name as MicroPython gives a real one in
    sys.implementation._machine, "<board> with <chip>": the firmware reads its chip there
    (gameboard.hw.chip), and from this function when it runs on these fakes."""
    return "Simulated Pico with %s" % circuit().chip


def bitstream(pin, encoding, timing, buf):
    circuit()._bitstream(Pin(pin).gpio, buf)


def reset():
    # On rp2 machine.reset() reboots through the watchdog, so reset_cause() then says WDT.
    raise MachineReset(WDT_RESET, "machine.reset()")


def soft_reset():
    raise SoftReset()


def reset_cause():
    return circuit().reset_cause


def unique_id():
    return circuit().unique_id


def freq(hz=None):
    if hz is None:
        return circuit().freq_hz
    circuit().freq_hz = hz
    return None


def idle():
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
