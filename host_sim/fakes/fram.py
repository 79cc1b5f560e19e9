"""An I2C FRAM on the simulated circuit, and the two runtimes' I2C classes that reach it.

`FramChip` is an MB85RC256V-like part (32 KB, 16-bit addresses, at 0x50 on the board map's
I2C pins): writes land byte by byte with no erase and no delay, its contents outlive power
cuts and reflashing (the SimBoard keeps the chip), and the bus takes 9 clock periods a byte at
the speed the firmware asked for, charged to the circuit's virtual clock. Tests break it:
`failing` makes every transfer fail as a dead bus does (OSError EIO), `cut_after(n)` cuts the
power once n more bytes have been written (FramPowerCut).

`I2C` is MicroPython's machine.I2C (ports/rp2/machine_i2c.c: id 0 or 1 and that block's
pins), `BusioI2C` CircuitPython's busio.I2C (pins checked and claimed, the bus locked around
each transfer); gameboard/hw.py and cphw.py drive them as on a Pico.
"""

import errno

ADDRESS = 0x50
SIZE = 32768
SDA_PINS = ((0, 4, 8, 12, 16, 20), (2, 6, 10, 14, 18, 26))     # by I2C block
SCL_PINS = ((1, 5, 9, 13, 17, 21), (3, 7, 11, 15, 19, 27))


class FramPowerCut(BaseException):
    """The power went while the FRAM was written (not an Exception: nothing catches it)."""


class FramChip:
    def __init__(self, sda=18, scl=19, size=SIZE, address=ADDRESS, clock=None):
        self.sda = sda
        self.scl = scl
        self.address = address
        self.data = bytearray(size)
        self.clock = clock
        self.failing = False
        self.cut = None           # bytes still written before the power goes (cut_after)
        self.writes = 0
        self.bytes_written = 0

    def cut_after(self, count):
        """Cut the power once `count` more bytes are written (None: never)."""
        self.cut = count

    def answers(self, sda, scl, address):
        return address == self.address and (sda, scl) == (self.sda, self.scl)

    def _bus(self, count, hz):
        if self.failing:
            raise OSError(errno.EIO, "no acknowledgement from 0x%02x" % self.address)
        if self.clock is not None:
            self.clock.advance_us(max(1, 9 * count * 1000000 // hz))

    def read(self, at, buf, hz):
        self._bus(len(buf) + 3, hz)
        for i in range(len(buf)):
            buf[i] = self.data[(at + i) % len(self.data)]

    def write(self, at, data, hz):
        self._bus(0, hz)
        self.writes += 1
        for i, byte in enumerate(bytes(data)):
            if self.cut is not None:
                if self.cut <= 0:
                    self.cut = None
                    raise FramPowerCut()
                self.cut -= 1
            self.data[(at + i) % len(self.data)] = byte
            self.bytes_written += 1
        self._bus(len(data) + 3, hz)


def _chip(circuit, sda, scl, address):
    chip = getattr(circuit, "fram", None)
    if chip is None or not chip.answers(sda, scl, address):
        raise OSError(errno.EIO, "no acknowledgement from 0x%02x" % address)
    return chip


class I2C:
    """machine.I2C of the rp2 port, with the calls gameboard/hw.py makes."""

    def __init__(self, id, *, scl=None, sda=None, freq=400000, timeout=50000):
        from host_sim.fakes import machine
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % id)
        self.sda = sda.gpio if sda is not None else SDA_PINS[id][0]
        self.scl = scl.gpio if scl is not None else SCL_PINS[id][0]
        if self.sda not in SDA_PINS[id]:
            raise ValueError("bad SDA pin")
        if self.scl not in SCL_PINS[id]:
            raise ValueError("bad SCL pin")
        self.freq = freq
        self.circuit = machine.circuit()

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        _chip(self.circuit, self.sda, self.scl, addr).read(memaddr, buf, self.freq)

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        _chip(self.circuit, self.sda, self.scl, addr).write(memaddr, buf, self.freq)

    def scan(self):
        chip = getattr(self.circuit, "fram", None)
        return [chip.address] if chip is not None and not chip.failing and chip.answers(
            self.sda, self.scl, chip.address) else []


class BusioI2C:
    """busio.I2C of CircuitPython, with the calls gameboard/cphw.py makes."""

    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        from host_sim.fakes import machine, microcontroller
        block = next((b for b in (0, 1) if sda.gpio in SDA_PINS[b]), None)
        if block is None or scl.gpio not in SCL_PINS[block]:
            raise ValueError("Invalid pins")
        microcontroller.claim(sda)
        microcontroller.claim(scl)
        self.sda, self.scl = sda.gpio, scl.gpio
        self.frequency = frequency
        self.circuit = machine.circuit()
        self.locked = False

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def _chip(self, address):
        if not self.locked:
            raise RuntimeError("Function requires lock")
        return _chip(self.circuit, self.sda, self.scl, address)

    def writeto(self, address, buffer, *, start=0, end=None):
        data = bytes(buffer)[start:end]
        self._chip(address).write((data[0] << 8) | data[1], data[2:], self.frequency)

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        at = bytes(buffer_out)[out_start:out_end]
        view = memoryview(buffer_in)[in_start:in_end]
        self._chip(address).read((at[0] << 8) | at[1], view, self.frequency)
