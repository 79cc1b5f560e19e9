"""CircuitPython's `microcontroller` module for the rp2040 port, on a simulated circuit.

What the firmware uses, as CircuitPython 9 documents it: `Pin` (one object per GPIO, made by
the port, never by code: board.GPn is microcontroller.pin.GPIOn), `pin`, `watchdog` (a
WatchDogTimer: `timeout` in seconds up to 8.388 on the RP2040, started by setting `mode`, fed
by `feed()`), `reset()`, `cpu.reset_reason` and `nvm`.

`nvm` is the RP2040's one 4 KB flash sector as CircuitPython writes it
(ports/raspberrypi/common-hal/nvm/ByteArray.c): a write whose bytes on the flash are all 0xFF
is programmed page by page (256 bytes) without an erase; any other write copies the sector,
erases it and programs all 16 pages again. `Nvm.tear_after(n)` makes the power go after the
nth flash operation from now (an erase or one page programmed): the operation in progress is
left half done (an erase leaves some bytes erased and some not, a page some bytes programmed),
and the write raises `PowerCut`.
"""

from host_sim.fakes import machine as _machine

SECTOR = 4096
PAGE = 256
WDT_MAX_S = 8.388     # the RP2040 watchdog's longest timeout
ERASE_US = 45_000     # a 4 KB sector erase on the Pico's W25Q16 (typical)
PAGE_US = 700         # one 256-byte page programmed (typical)


class PowerCut(BaseException):
    """The power went in the middle of a flash write (not an Exception: nothing catches it)."""


class Pin:
    """A GPIO as CircuitPython names it; only the port makes them."""

    def __init__(self, gpio, _token=None):
        if _token is not _PORT:
            raise TypeError("cannot create 'Pin' instances")
        self.gpio = gpio

    def __repr__(self):
        return "microcontroller.pin.GPIO%d" % self.gpio

    def __hash__(self):
        return hash(self.gpio)


_PORT = object()


class _Pins:
    pass


pin = _Pins()
for _n in range(_machine.GPIO_COUNT):
    setattr(pin, "GPIO%d" % _n, Pin(_n, _PORT))


class ResetReason:
    POWER_ON = "POWER_ON"
    BROWNOUT = "BROWNOUT"
    SOFTWARE = "SOFTWARE"
    DEEP_SLEEP_ALARM = "DEEP_SLEEP_ALARM"
    RESET_PIN = "RESET_PIN"
    WATCHDOG = "WATCHDOG"
    UNKNOWN = "UNKNOWN"
    RESCUE_DEBUG = "RESCUE_DEBUG"


class RunMode:
    NORMAL = "NORMAL"
    SAFE_MODE = "SAFE_MODE"
    UF2 = "UF2"
    BOOTLOADER = "BOOTLOADER"


class _Processor:
    @property
    def reset_reason(self):
        # The simulated circuit keeps MicroPython's cause codes: machine.WDT_RESET is the
        # watchdog, and microcontroller.reset() reboots through it (a SOFTWARE reason here).
        cause = _machine.circuit().reset_cause
        if cause == _machine.WDT_RESET:
            return _state.get("reason", ResetReason.WATCHDOG)
        return ResetReason.POWER_ON

    @property
    def frequency(self):
        return _machine.circuit().freq_hz


cpu = _Processor()
_state = {}


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass


class WatchDogTimer:
    """microcontroller.watchdog: `timeout` (s) first, then `mode` starts it."""

    def __init__(self):
        self._timeout = 0.0
        self._mode = None

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        if value <= 0:
            raise ValueError("timeout must be > 0")
        if value > WDT_MAX_S:
            raise ValueError("timeout must be <= %s" % WDT_MAX_S)
        self._timeout = float(value)
        if self._mode is not None:
            _machine.circuit()._watchdog_start(int(self._timeout * 1000))

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, value):
        if value not in (WatchDogMode.RAISE, WatchDogMode.RESET):
            raise TypeError("mode must be a WatchDogMode")
        if self._timeout <= 0:
            raise ValueError("timeout must be set before mode")
        if value == WatchDogMode.RAISE:
            raise NotImplementedError("the simulator models WatchDogMode.RESET only")
        self._mode = value
        _state.pop("reason", None)
        _machine.circuit()._watchdog_start(int(self._timeout * 1000))

    def feed(self):
        if self._mode is None:
            raise ValueError("WatchDogTimer is not initialized")
        _machine.circuit()._watchdog_feed()

    def deinit(self):
        # On the RP2040 a started watchdog cannot be stopped in RESET mode.
        if self._mode == WatchDogMode.RESET:
            raise RuntimeError("WatchDogTimer cannot be deinitialized in RESET mode")
        self._mode = None


watchdog = WatchDogTimer()


def reset():
    """Reboot at once; reset_reason then says SOFTWARE."""
    _state["reason"] = ResetReason.SOFTWARE
    raise _machine.MachineReset(_machine.WDT_RESET, "microcontroller.reset()")


def on_next_reset(run_mode):
    _state["next"] = run_mode


def boot(power_on):
    """The simulated Pico starts: the watchdog is off again; a power-on forgets why the last
    reset came."""
    global watchdog
    if power_on:
        _state.clear()
    watchdog = WatchDogTimer()
    _claimed.clear()


# GPIOs in use by a DigitalInOut or a KeyMatrix, until deinit() or the next start.
_claimed = set()


def claim(pin_obj):
    if not isinstance(pin_obj, Pin):
        raise TypeError("pin must be a Pin, not %r" % (pin_obj,))
    if pin_obj.gpio in _claimed:
        raise ValueError("%s in use" % ("GP%d" % pin_obj.gpio))
    _claimed.add(pin_obj.gpio)


def release(pin_obj):
    _claimed.discard(pin_obj.gpio)


class Nvm:
    """microcontroller.nvm: SECTOR bytes of flash (module note)."""

    def __init__(self, size=SECTOR, clock=None):
        self.flash = bytearray(b"\xff" * size)
        self.clock = clock
        self.erases = 0
        self.pages = 0
        self._tear = 0
        self.rng = None          # random.Random for the bits a torn operation leaves
        self.fail = None         # an exception every write raises (a flash that errs)

    def __len__(self):
        return len(self.flash)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self.flash[index])
        return self.flash[index]

    def __setitem__(self, index, value):
        if self.fail is not None:
            raise self.fail
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self.flash))
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            value = bytes(value)
            if len(value) != stop - start:
                raise ValueError("array/bytes required on right side")
        else:
            if index < 0:
                index += len(self.flash)
            if not 0 <= index < len(self.flash):
                raise IndexError("bytearray index out of range")
            if not 0 <= value <= 255:
                raise ValueError("value must fit in 1 byte(s)")
            start, stop, value = index, index + 1, bytes((value,))
        if all(b == 0xFF for b in self.flash[start:stop]):
            page = start - start % PAGE
            while page < stop:
                image = bytearray(self.flash[page:page + PAGE])
                lo = max(start, page)
                hi = min(stop, page + PAGE)
                image[lo - page:hi - page] = value[lo - start:hi - start]
                self._program(page, image)
                page += PAGE
        else:
            image = bytearray(self.flash)
            image[start:stop] = value
            self._erase()
            for page in range(0, len(image), PAGE):
                self._program(page, image[page:page + PAGE])

    def tear_after(self, operations, rng=None):
        """The power goes during the `operations`-th flash operation from now (0: never)."""
        self._tear = operations
        if rng is not None:
            self.rng = rng

    def _step(self, us):
        if self.clock is not None:
            self.clock.advance_us(us)
        if self._tear:
            self._tear -= 1
            return not self._tear
        return False

    def _erase(self):
        torn = self._step(ERASE_US)
        self.erases += 1
        if torn:
            for i in range(len(self.flash)):
                if self._coin():
                    self.flash[i] = 0xFF
            raise PowerCut()
        self.flash[:] = b"\xff" * len(self.flash)

    def _program(self, address, image):
        torn = self._step(PAGE_US)
        self.pages += 1
        for i, byte in enumerate(image):
            if torn and self._coin():
                continue            # this byte's bits never came
            self.flash[address + i] &= byte     # NOR flash: programming only clears bits
        if torn:
            raise PowerCut()

    def _coin(self):
        if self.rng is None:
            import random
            self.rng = random.Random(0)
        return self.rng.random() < 0.5


nvm = Nvm()


def use_nvm(new):
    """Make `new` the module's nvm (the simulator keeps one per board); returns the old one."""
    global nvm
    old = nvm
    nvm = new
    return old
