"""Viper kernels of the LED loops for MicroPython; _ledplain.py keeps the plain code as the
reference, and the tests cross-check the two.

Same contracts as the plain render_wire, scale_wire and paint: nothing is allocated,
and the sums fit a small int (61 LEDs x 4 channels x 255).
"""

import micropython


@micropython.viper
def render_wire(frame, level, dest, out) -> int:
    """out[dest[i]] = level[frame[i]] for every frame byte; returns the sum of those values."""
    n = int(len(frame))
    f = ptr8(frame)
    lv = ptr8(level)
    d = ptr16(dest)
    o = ptr8(out)
    total = 0
    i = 0
    while i < n:
        v = lv[f[i]]
        o[d[i]] = v
        total += v
        i += 1
    return total


@micropython.viper
def scale_wire(out, scale: int) -> int:
    """out[i] = out[i] * scale >> 12 for every byte; returns the sum of the results."""
    n = int(len(out))
    o = ptr8(out)
    shown = 0
    i = 0
    while i < n:
        v = (o[i] * scale) >> 12
        o[i] = v
        shown += v
        i += 1
    return shown


@micropython.viper
def paint(colours, palette, frame):
    """frame[3i:3i+3] = palette[3k:3k+3] where k = colours[i], for every cell."""
    n = int(len(colours))
    c = ptr8(colours)
    p = ptr8(palette)
    f = ptr8(frame)
    i = 0
    j = 0
    while i < n:
        k = c[i] * 3
        f[j] = p[k]
        f[j + 1] = p[k + 1]
        f[j + 2] = p[k + 2]
        i += 1
        j += 3
