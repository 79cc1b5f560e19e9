"""MicroPython's `neopixel` module (micropython-lib) on a simulated circuit, for CPython.

Same interface as the real one: `buf` holds the bytes in the LEDs' own colour order (ORDER
maps R, G, B, W to byte offsets, GRB(W) as WS2812 and SK6812 want), and `write()` sends them.
Here `write()` hands a copy of `buf` to the pin's circuit, which keeps the last frame per pin
(`Circuit.led_buffers`, decoded by `Circuit.led_colours()`), counts the writes and lets the
time a real bitstream takes pass on its clock.
"""

from host_sim.fakes.machine import Pin


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        if not isinstance(pin, Pin):
            raise TypeError("NeoPixel needs a machine.Pin, not %r" % (pin,))
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.pin.init(pin.OUT)
        # 1: 800 kHz, 0: 400 kHz, or a tuple of high/low times in ns.
        self.timing = (((400, 850, 800, 450) if timing else (800, 1700, 1600, 900))
                       if isinstance(timing, int) else timing)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for k in range(self.bpp):
            self.buf[offset + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.writes += 1
        self.pin.circuit._bitstream(self.pin.gpio, self.buf)
