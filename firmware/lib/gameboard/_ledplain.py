"""The LED loops in plain Python: the reference for the viper kernels of _ledkernel.py, and
what leds.py and the controller use where those cannot be compiled (CPython, a MicroPython
without a native emitter). A Pico never imports this module, so its code takes no heap there.

Same contracts as the kernels: nothing is allocated, and the sums fit a small int (61 LEDs x
4 channels x 255).
"""


def render_wire(frame, level, dest, out):
    """out[dest[i]] = level[frame[i]] for every frame byte; returns the sum of those values."""
    total = 0
    i = 0
    for x in frame:
        v = level[x]
        out[dest[i]] = v
        total += v
        i += 1
    return total


def scale_wire(out, scale):
    """out[i] = out[i] * scale >> 12 for every byte; returns the sum of the results."""
    shown = 0
    for i in range(len(out)):
        v = (out[i] * scale) >> 12
        out[i] = v
        shown += v
    return shown


def paint(colours, palette_rgb, frame):
    """frame[3i:3i+3] = palette_rgb[3k:3k+3] where k = colours[i] (on a Pico the kernel saves
    about a millisecond a frame)."""
    j = 0
    for k in colours:
        k *= 3
        frame[j] = palette_rgb[k]
        frame[j + 1] = palette_rgb[k + 1]
        frame[j + 2] = palette_rgb[k + 2]
        j += 3
