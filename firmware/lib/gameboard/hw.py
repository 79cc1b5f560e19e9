"""The Pico's hardware, and the only module that imports machine.

Everything here is thin: pins come from the board map, and what the values mean is decided
in debounce.py, leds.py and the controller. The simulator runs this same file on fakes of
machine and time (host_sim/fakes).
"""

import json
import sys
import time

import machine

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# After a row line goes low, a column's pull-up (about 50 kOhm) must discharge the wiring
# through the closed switch, and a column released by the previous row must charge back up:
# microseconds for a board's worth of wire and diodes. 10 us a row keeps a scan near 0.3 ms.
# Private consts are inlined: no global and no interned name on a Pico.
_SETTLE_US = const(10)
# machine.WDT's longest timeout: 8388 ms on the RP2040 (its watchdog counts down twice a
# microsecond), and in MicroPython 1.24-1.28 on the RP2350 too (ports/rp2/machine_wdt.c).
_WDT_MAX_MS = const(8388)
_WATCHDOG_ENABLE = const(0x40000000)       # WATCHDOG CTRL's ENABLE bit (bit 30 on both chips)

# The registers the firmware uses by address, per chip: SIO GPIO_IN (the levels of the GPIOs,
# one bit each) and WATCHDOG CTRL through its atomic bit-clear alias (base + 0x3000). From the
# chips' register lists as the Pico SDK's generated headers give them (src/<chip>/
# hardware_regs/include/hardware/regs/addressmap.h, sio.h, watchdog.h):
#   RP2040: SIO_BASE 0xd0000000, GPIO_IN +0x004; WATCHDOG_BASE 0x40058000, CTRL +0x000
#   RP2350: SIO_BASE 0xd0000000, GPIO_IN +0x004; WATCHDOG_BASE 0x400d8000, CTRL +0x000
# A chip not in the table gets no register access: pins read one by one, no watchdog stop.
_REGISTERS = {"RP2040": (0xD0000004, 0x4005B000), "RP2350": (0xD0000004, 0x400DB000)}


def chip_of(name):
    """The chip in a runtime's machine name: MicroPython's sys.implementation._machine is
    "<board> with <chip>" ("Raspberry Pi Pico2 with RP2350", "... with RP2350-RISCV", whose
    peripherals sit at the same addresses). "RP2040", "RP2350", or None for another."""
    mcu = name.split(" with ")[-1]
    for known in ("RP2040", "RP2350"):
        if mcu.startswith(known):
            return known
    return None


def chip():
    """This Pico's chip (chip_of). The simulator's machine module names the chip it
    simulates (MicroPython's own has no such function)."""
    simulated = getattr(machine, "simulated_machine", None)
    return chip_of(simulated() if simulated else getattr(sys.implementation, "_machine", ""))


def registers():
    """(GPIO_IN, WATCHDOG CTRL's bit-clear alias) of this chip, or None."""
    return _REGISTERS.get(chip())


class ReedMatrix:
    """The reed switches: row lines driven low one at a time, column lines read with pull-ups.

    Idle rows are released (open drain, not driven high), so two closed switches on one
    column never short a low row to a high one. Columns on consecutive GPIOs (as in the
    default board map) are read in one register read (SIO GPIO_IN, on a chip in the table),
    about 9 us a row on a Pico against 65 us for eight pin reads.
    """

    def __init__(self, row_pins, col_pins):
        Pin = machine.Pin
        self.rows = tuple(Pin(p, Pin.OPEN_DRAIN, value=1) for p in row_pins)
        self.cols = tuple(Pin(p, Pin.IN, Pin.PULL_UP) for p in col_pins)
        first = col_pins[0]
        consecutive = tuple(col_pins) == tuple(range(first, first + len(col_pins)))
        known = registers()
        self.shift = first if consecutive and known is not None else -1
        self.gpio_in = known[0] if known is not None else 0
        self._mask = (1 << len(col_pins)) - 1
        self.mem32 = machine.mem32

    def scan(self, into):
        """Fill `into` (a bytearray of the board map's `lines`, 8 for the usual matrix) with
        the closed switches: bit c of byte r is the switch at row line r and column line c;
        bytes past the row lines are 0. Allocates nothing."""
        shift = self.shift
        mask = self._mask
        mem32 = self.mem32
        gpio_in = self.gpio_in
        r = 0
        for row in self.rows:
            row(0)
            time.sleep_us(_SETTLE_US)
            if shift >= 0:
                bits = ~(mem32[gpio_in] >> shift) & mask
            else:
                bits = 0
                bit = 1
                for col in self.cols:
                    if not col():
                        bits |= bit
                    bit <<= 1
            row(1)
            into[r] = bits
            r += 1
        while r < len(into):
            into[r] = 0
            r += 1


class Pixels:
    """The LED chain on one GPIO."""

    def __init__(self, pin, count, bpp=3):
        self.pin = machine.Pin(pin, machine.Pin.OUT)
        self.size = count * bpp

    def show(self, wire):
        """Send `wire` (bytes in chain and colour order, count * bpp long) to the LEDs.

        Straight through machine.bitstream, as MicroPython's neopixel module sends its own
        buffer: no copy, and neither that module nor its buffer in the heap (about 0.5 KB)."""
        if len(wire) != self.size:
            raise ValueError("the LED chain takes %d bytes, not %d" % (self.size, len(wire)))
        # WS2812 at 800 kHz: high and low times (ns) of a 0 bit, then of a 1 bit.
        machine.bitstream(self.pin, 0, (400, 850, 800, 450), wire)


class Fram:
    """The FRAM on I2C (gameboard/framsaves.py's byte device): an MB85RC256V-like part,
    16-bit addresses, writes that land byte by byte with no delay."""

    def __init__(self, i2c, address=0x50):
        self.i2c = i2c
        self.address = address

    def read_into(self, at, buf):
        self.i2c.readfrom_mem_into(self.address, at, buf, addrsize=16)

    def write(self, at, data):
        self.i2c.writeto_mem(self.address, at, data, addrsize=16)


def fram(wiring):
    """The board map's FRAM (`wiring`: {"sda": gpio, "scl": gpio}, or {} for none) if one
    answers a read, else None. A read, not I2C.scan(), whose zero-length writes are
    bit-banged; 1 MHz, which the MB85RC256V takes."""
    if not wiring:
        return None
    Pin = machine.Pin
    try:
        device = Fram(machine.I2C((wiring["sda"] >> 1) & 1, sda=Pin(wiring["sda"]),
                                  scl=Pin(wiring["scl"]), freq=1000000))
        device.read_into(0, bytearray(1))
        return device
    except (OSError, ValueError):      # no answer; a port that refuses those pins
        return None


class Buttons:
    """Push buttons between a GPIO and ground, read with pull-ups. A None pin is a button
    the board lacks: its bit stays 0."""

    def __init__(self, pins):
        Pin = machine.Pin
        self.pins = tuple(None if p is None else Pin(p, Pin.IN, Pin.PULL_UP) for p in pins)

    def pressed(self):
        """Bit i set while button i (in the order given) is held down."""
        bits = 0
        bit = 1
        for pin in self.pins:
            if pin is not None and not pin.value():
                bits |= bit
            bit <<= 1
        return bits


class Watchdog:
    """The chip's watchdog: resets the Pico unless fed within `timeout_ms` (at most 8388)."""

    def __init__(self, timeout_ms):
        global watchdog
        self.wdt = machine.WDT(timeout=min(timeout_ms, _WDT_MAX_MS))
        self.feed = self.wdt.feed
        watchdog = self

    def stop(self):
        """Stop it once Ctrl-C has given the board to the REPL (make deploy, make repl):
        running on, it would reset the Pico 4 s later, in the middle of mpremote's copy.
        machine.WDT has no stop; the chip's WATCHDOG CTRL register has (its ENABLE bit). On a
        chip not in the table it runs on: True if it was stopped."""
        known = registers()
        if known is None:
            return False
        machine.mem32[known[1]] = _WATCHDOG_ENABLE
        return True


# The running watchdog, if any: fault() feeds it, the REPL taking over stops it.
watchdog = None


def restart():
    """Reset the Pico: main.py then starts again from the saved game."""
    machine.reset()


def soft_restart():
    """Restart MicroPython with an empty heap and run main.py again; the USB link stays up."""
    machine.soft_reset()


def restarted():
    """True if this start follows machine.reset() or the watchdog (the last run crashed or
    hung), False after a power-on."""
    return machine.reset_cause() == machine.WDT_RESET


def fault(message):
    """Stop on a fault the board cannot run with (a broken board map, or a firmware that fails
    at every start): repeat `message` on the host link as an error event every 2 s and blink
    the Pico's LED quickly. Never returns: the Pico stays here, with the REPL reachable
    (Ctrl-C), until it is mended and powered again. A watchdog already running is fed, so it
    cannot turn the fault into a boot loop."""
    led = machine.Pin("LED", machine.Pin.OUT)
    line = json.dumps({"v": 2, "event": "error", "error": message})
    try:
        while True:
            print(line)
            for _ in range(20):
                led.toggle()
                if watchdog is not None:
                    watchdog.feed()
                time.sleep_ms(100)
    except KeyboardInterrupt:
        if watchdog is not None:
            watchdog.stop()
        raise
