"""CircuitPython's `neopixel_write`: `neopixel_write(digitalinout, buf)` sends the bytes as a
WS2812 bitstream on the pin (800 kHz) and returns when they are sent; here they land in the
circuit's LED buffers (Circuit._bitstream), which lets the time of the bitstream pass."""

from host_sim.fakes.digitalio import DigitalInOut


def neopixel_write(digitalinout, buf):
    if not isinstance(digitalinout, DigitalInOut):
        raise TypeError("digitalinout must be a DigitalInOut")
    digitalinout._check()
    digitalinout._circuit._bitstream(digitalinout._pin.gpio, bytes(memoryview(buf)))
