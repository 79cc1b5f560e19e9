"""An LED's colour as the eye sees it, and the difference between two (CIEDE2000).

A wire value is the LED's PWM duty, proportional to the light it gives (the firmware has
applied gamma and brightness already): linear light. The LED's primaries are taken as sRGB's
(those of WS2812-type LEDs are close) and all three at full duty as the white the eye adapts
to, so wire/255 is linear sRGB, converted to sRGB for the eye. A dim brightness setting then
counts as a dark colour, which understates what a player sees, whose eye adapts to a dim
board: the cautious reading. The page draws the same wire colour with the 1/2.2 exponent
(host_sim/web/static/app.js), read back as sRGB; a difference is the smaller of the two
readings, so a pair must stand apart on the LEDs and on the page.
"""

from coloraide import Color

from gameboard import palette
from gameboard.boardmap import load
from gameboard.leds import LedOutput
from gameboard.settings import BRIGHTNESS_LEVELS

from hardware.generate import BOARD_MAP as DEFAULT_MAP
PALETTES = (("standard", palette.STANDARD), ("colour-blind", palette.COLOUR_BLIND))
# Red-green colour blindness, which the colour-blind palette is made for (palette.py).
DEFICIENCIES = ("protan", "deutan")


def as_emitted(colour):
    """A wire colour (r, g, b) as light: linear sRGB."""
    return Color("srgb-linear", [v / 255 for v in colour])


def as_page_draws(colour):
    """A wire colour as the page puts it on screen, read back as sRGB."""
    return Color("srgb", [round(255 * (v / 255) ** (1 / 2.2)) / 255 for v in colour])


def delta_e(a, b, deficiency=None):
    """The smaller CIEDE2000 of the two readings of wire colours `a` and `b`; with
    `deficiency` ("protan", "deutan") as a player with that colour blindness sees them."""
    out = None
    for view in (as_emitted, as_page_draws):
        x, y = view(a), view(b)
        if deficiency:
            x, y = x.filter(deficiency), y.filter(deficiency)
        de = x.delta_e(y, method="2000")
        out = de if out is None else min(out, de)
    return out


def srgb(colour):
    """A wire colour as the eye sees it, as 8-bit sRGB (r, g, b)."""
    c = as_emitted(colour).convert("srgb").clip()
    return tuple(int(round(255 * v)) for v in c.coords())


def wire_colours(pal, brightness, bmap=None):
    """The wire colour of every colour of palette `pal` at `brightness` (0-255), one hex lit
    at a time (no current cap), through the firmware's LED pipeline."""
    out = LedOutput(bmap or load(str(DEFAULT_MAP)), brightness=brightness)
    return [tuple(out.level(v) for v in pal[3 * k:3 * k + 3]) for k in range(len(pal) // 3)]


def readings():
    """Every way the board is read: (palette name, palette, brightness, deficiency or None)
    for both palettes at each brightness setting; the colour-blind palette also as a player
    with red-green colour blindness sees it."""
    for name, pal in PALETTES:
        for level in BRIGHTNESS_LEVELS:
            yield name, pal, level, None
            if pal is palette.COLOUR_BLIND:
                for deficiency in DEFICIENCIES:
                    yield name, pal, level, deficiency
