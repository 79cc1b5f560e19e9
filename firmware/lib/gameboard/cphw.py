"""The Pico's hardware on CircuitPython, and the only module there that imports board,
busio, digitalio, keypad, microcontroller, supervisor, usb_cdc or neopixel.

The same interface as gameboard/hw.py (MicroPython's), so everything above it runs unchanged;
gameboard.start.hardware() picks this one when sys.implementation.name is "circuitpython".
What differs underneath:
- the reed matrix is scanned in C by keypad.KeyMatrix in the background; scan() turns its
  events into the same raw bits, and the firmware's own debounce and first-contact lighting
  work on them as on MicroPython (keypad's debounce is left off);
- the LEDs go through adafruit-circuitpython-neopixel (its C pixel buffer on a Pico);
- a ticks clock with MicroPython's contract (supervisor.ticks_ms wraps at 2**29);
- the host link is usb_cdc.data (boot.py enables it), else the console;
- the game in progress is kept in microcontroller.nvm (gameboard/cpsaves.py), not on the
  FAT drive, when the board has no FRAM (gameboard/framsaves.py); the FRAM is driven through
  busio.I2C by a few lines here, not adafruit-circuitpython-fram, whose writes are one I2C
  transaction a byte (docs/benchmarks.md, "The game on the FRAM").
The simulator runs this file on the fakes of host_sim/fakes with the real Adafruit library.
"""

import json
import time

import board
import busio
import digitalio
import keypad
import microcontroller
import neopixel
import supervisor
import usb_cdc

from gameboard import elapsed     # also the wrap at 2**30 of ticks: elapsed(t, 0)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_HALF = const(0x20000000)        # 2**29: supervisor.ticks_ms's period
WDT_MAX_MS = const(8388)         # the RP2040 watchdog's longest timeout
# keypad scans every 2 ms (the loop's period): a contact is seen at most 2 ms before the loop
# looks; scanning 64 switches in C costs the Pico a few percent.
_SCAN_S = 0.002
# The share (percent) of MicroPython's search budget the computer gets here (applied by
# gameboard/start.py): without viper a node costs 2.2 times as much (docs/benchmarks.md,
# "CircuitPython"), so level 5 searches 40% of its positions to answer within 2 s, and a
# tick 40% as many.
SEARCH_SHARE = const(40)
# Sleeps of 0-4 ms as floats made once (the loop sleeps 1-2 ms a step).
_SLEEPS = (0.0, 0.001, 0.002, 0.003, 0.004)


class Clock:
    """time.ticks_ms/ticks_us/ticks_diff/sleep_ms as on MicroPython, which the firmware's
    pure code assumes (ticks wrap at 2**30). supervisor.ticks_ms() wraps at 2**29: each
    wrap seen flips the extra bit, so ticks_ms() must be read at least once every 6 days
    (the loop reads it every step)."""

    def __init__(self):
        self._last = supervisor.ticks_ms()
        self._high = 0

    def ticks_ms(self):
        t = supervisor.ticks_ms()
        if t < self._last:
            self._high ^= _HALF
        self._last = t
        return t | self._high

    def ticks_us(self):
        # Only for the host link's `stats` timing: CircuitPython has no microsecond ticks,
        # and monotonic_ns() (30 us steps on 9.x) makes a long integer.
        return elapsed(time.monotonic_ns() // 1000, 0)

    def ticks_diff(self, ticks1, ticks2):
        return elapsed(ticks1 + _HALF, ticks2) - _HALF

    def ticks_add(self, ticks, delta):
        return elapsed(ticks + delta, 0)

    def sleep_ms(self, ms):
        if ms <= 0:
            return
        time.sleep(_SLEEPS[ms] if ms < len(_SLEEPS) else ms / 1000)


clock = Clock()


def _pin(gpio):
    return getattr(board, "GP%d" % gpio)


class ReedMatrix:
    """The reed switches, scanned by keypad.KeyMatrix: rows driven low one at a time
    (columns_to_anodes: each diode's anode at its column, as on the MicroPython board),
    columns read with pull-ups. scan() fills the same raw bits as hw.ReedMatrix."""

    def __init__(self, row_pins, col_pins):
        self.cols = len(col_pins)
        self.keys = keypad.KeyMatrix(tuple(_pin(p) for p in row_pins),
                                     tuple(_pin(p) for p in col_pins),
                                     columns_to_anodes=True, interval=_SCAN_S)
        self.keys.reset()           # disks already down at power-on are reported too
        self.state = bytearray(len(row_pins))
        self.event = keypad.Event()
        self.resync = False

    def scan(self, into):
        """Fill `into` (a bytearray of the board map's `lines`) with the closed switches:
        bit c of byte r is the switch at row line r and column line c. Allocates nothing."""
        keys = self.keys
        events = keys.events
        state = self.state
        if events.overflowed:
            # Events were dropped: the bits may be wrong. keypad re-reports every held key
            # after reset(); until then the last bits stand.
            events.clear()
            keys.reset()
            self.resync = True
        else:
            if self.resync:
                self.resync = False
                for r in range(len(state)):
                    state[r] = 0
            event = self.event
            cols = self.cols
            while events.get_into(event):
                k = event.key_number
                r = k // cols
                bit = 1 << (k - r * cols)
                if event.pressed:
                    state[r] |= bit
                else:
                    state[r] &= ~bit
        for r in range(len(state)):
            into[r] = state[r]
        r = len(state)
        while r < len(into):
            into[r] = 0
            r += 1


class Pixels:
    """The LED chain, through adafruit-circuitpython-neopixel. The wire bytes come in chain
    and colour order (gameboard/leds.py has applied gamma and brightness), so the NeoPixel
    object keeps them as they are: "RGB"/"RGBW" order (none reordered), brightness 1.0. Only
    the pixels that changed since the last show are set: as one packed int (a small int, no
    allocation) on a 3-byte chain; as a tuple on an RGBW chain, where a packed int with equal
    red, green and blue would be sent as white."""

    def __init__(self, pin, count, bpp=3):
        self.np = neopixel.NeoPixel(_pin(pin), count, bpp=bpp, brightness=1.0,
                                    auto_write=False, pixel_order="RGB" if bpp == 3 else "RGBW")
        self.count = count
        self.bpp = bpp
        self.sent = bytearray(count * bpp)     # what the NeoPixel object holds

    def show(self, wire):
        """Send `wire` (bytes in chain and colour order, count * bpp long) to the LEDs."""
        sent = self.sent
        if len(wire) != len(sent):
            raise ValueError("the LED chain takes %d bytes, not %d" % (len(sent), len(wire)))
        if wire != sent:
            np = self.np
            bpp = self.bpp
            o = 0
            for i in range(self.count):
                changed = False
                for k in range(bpp):
                    if wire[o + k] != sent[o + k]:
                        sent[o + k] = wire[o + k]
                        changed = True
                if changed:
                    if bpp == 3:
                        np[i] = (wire[o] << 16) | (wire[o + 1] << 8) | wire[o + 2]
                    else:
                        np[i] = (wire[o], wire[o + 1], wire[o + 2], wire[o + 3])
                o += bpp
        self.np.show()


class Buttons:
    """Push buttons between a GPIO and ground, read with pull-ups. A None pin is a button
    the board lacks: its bit stays 0."""

    def __init__(self, pins):
        self.pins = tuple(None if p is None else _button(p) for p in pins)

    def pressed(self):
        """Bit i set while button i (in the order given) is held down."""
        bits = 0
        bit = 1
        for pin in self.pins:
            if pin is not None and not pin.value:
                bits |= bit
            bit <<= 1
        return bits


def _button(gpio):
    pin = digitalio.DigitalInOut(_pin(gpio))
    pin.switch_to_input(pull=digitalio.Pull.UP)
    return pin


class Watchdog:
    """microcontroller.watchdog in RESET mode: resets the Pico unless fed within `timeout_ms`
    (at most 8388)."""

    def __init__(self, timeout_ms):
        global _watchdog
        from watchdog import WatchDogMode
        wdt = microcontroller.watchdog
        if wdt is None:
            raise RuntimeError("this CircuitPython has no watchdog")
        wdt.timeout = min(timeout_ms, WDT_MAX_MS) / 1000
        wdt.mode = WatchDogMode.RESET
        self.wdt = wdt
        self.feed = wdt.feed
        _watchdog = wdt


_watchdog = None


class UsbSerial:
    """The host link on usb_cdc.data (the second USB serial port, which boot.py enables), or
    on the console if there is none. read() never blocks and allocates nothing when no byte
    waits; Ctrl-C on the console still reaches the REPL."""

    def __init__(self):
        port = usb_cdc.data
        if port is None:
            port = usb_cdc.console
        self.port = port
        if port is not None:
            port.timeout = 0
        self._buf = bytearray(64)
        self._view = memoryview(self._buf)

    def read(self):
        """The bytes waiting now (a view valid until the next call), or None."""
        port = self.port
        if port is None or not port.in_waiting:
            return None
        n = port.readinto(self._buf)
        return self._view[:n] if n else None

    def write(self, text):
        if self.port is not None:
            self.port.write(text.encode())


class Fram:
    """The FRAM on busio.I2C (gameboard/framsaves.py's byte device; hw.Fram on MicroPython):
    an address and the data in one transaction, as the MB85RC256V takes them."""

    def __init__(self, i2c, address=0x50):
        self.i2c = i2c
        self.address = address
        self.at = bytearray(2)

    def read_into(self, at, buf):
        self.at[0] = at >> 8
        self.at[1] = at & 0xFF
        i2c = self.i2c
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto_then_readfrom(self.address, self.at, buf)
        finally:
            i2c.unlock()

    def write(self, at, data):
        message = bytearray(len(data) + 2)
        message[0] = at >> 8
        message[1] = at & 0xFF
        message[2:] = data
        i2c = self.i2c
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto(self.address, message)
        finally:
            i2c.unlock()


def fram(wiring):
    """The board map's FRAM ({"sda": gpio, "scl": gpio}, or {} for none) if one answers a
    read, else None (as hw.fram; busio.I2C raises RuntimeError without pull-ups)."""
    if not wiring:
        return None
    try:
        device = Fram(busio.I2C(_pin(wiring["scl"]), _pin(wiring["sda"]), frequency=1000000))
        device.read_into(0, bytearray(1))
        return device
    except (OSError, RuntimeError, ValueError):
        return None


def saves(root):
    """The saves: the game in progress in microcontroller.nvm (gameboard/cpsaves.py)."""
    from gameboard.cpsaves import NvmSaves
    return NvmSaves(root, microcontroller.nvm)


def restart():
    """Reset the Pico: code.py then starts again from the saved game."""
    microcontroller.reset()


def soft_restart():
    """Run code.py again with an empty heap (supervisor.reload); the USB link stays up."""
    supervisor.reload()
    while True:             # the reload comes at the VM's next check
        time.sleep(0.01)


def restarted():
    """True if this start follows microcontroller.reset() or the watchdog (the last run
    crashed or hung), False after a power-on. A reload keeps the reason of the last reset,
    as MicroPython's soft reset keeps its cause."""
    reason = microcontroller.cpu.reset_reason
    return reason in (microcontroller.ResetReason.WATCHDOG, microcontroller.ResetReason.SOFTWARE)


def fault(message):
    """As hw.fault: repeat `message` as an error event every 2 s on the host link and blink the
    Pico's LED quickly, feeding a running watchdog. Never returns."""
    # getattr: the stubs' generic `board` has no LED; the Pico's does
    led = digitalio.DigitalInOut(getattr(board, "LED"))  # noqa: B009
    led.switch_to_output()
    line = json.dumps({"v": 2, "event": "error", "error": message}) + "\n"
    link = UsbSerial()
    while True:
        link.write(line)
        if link.port is not usb_cdc.console:
            print(line, end="")      # and to whoever watches the REPL
        for _ in range(20):
            led.value = not led.value
            if _watchdog is not None:
                _watchdog.feed()
            time.sleep(0.1)
