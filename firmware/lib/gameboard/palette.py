"""Every colour the board shows, in one table per palette (RGB, before gamma and brightness).

The LED output applies gamma 2.6, so these values are perceptual: 255 is full, about 100 a
soft glow (4% of full power), below 60 next to nothing. Glows are therefore around 100.

Disks are lit from below, so a dark disk cannot be shown as black: dark is blue. A captive is
red turned toward its hidden colour, far enough to be told apart at a glance at every
brightness and under the current cap. Gamma 2.6 all but erases a small tint (60 of blue is 2%
of the blue LED's light), so a captive takes 110 of blue or 130 of green, 11% or 17% of that
LED's light (blue turns red's hue further than green does; tests/test_captive_colour.py
measures the pair as the LEDs emit it). The colour-blind palette (after Okabe and Ito) keeps
every pair apart for red-green colour blindness: blue, yellow, vermilion, reddish purple and
bluish green, its blue brighter and its purple lighter than theirs, so that a dark disk and a
dark captive stay apart for a protanope at the dimmest brightness. The cues lit at once are
measured apart by hardware/generate/seen/cues.py (docs/board.md, "Telling the cues apart").
"""

# Indexes into a palette.
DARK = 0
LIGHT = 1
DARK_CAPTIVE = 2
LIGHT_CAPTIVE = 3
ERROR = 4          # a disk where none belongs, an illegal placement
HINT_DARK = 5      # a legal move for dark (hints on); also the turn tint of empty hexes
HINT_LIGHT = 6
OFF = 7
WIN = 8            # the winner's disks at game end, and the marks beside the score's digits
SETTING_ON = 9
SETTING_OFF = 10

# Each palette is flat RGB bytes, colour k at 3k..3k+2, as the LED frame painter reads them
# (bytes rather than a tuple a colour: about 750 B less of a Pico's heap).
STANDARD = bytes((
    0, 40, 255,        # dark: blue
    255, 190, 120,     # light: warm white
    255, 0, 110,       # dark captive: red turned toward blue, a raspberry red
    255, 115, 0,       # light captive: red turned toward orange, an orange red
    255, 0, 0,         # error: full red, blinking fast
    0, 50, 110,        # hint for dark: a blue glow
    110, 90, 60,       # hint for light: a warm glow
    0, 0, 0,
    0, 255, 40,        # win: green
    0, 200, 0,         # a setting that is on
    130, 0, 0,         # a setting that is off: a red glow
))

COLOUR_BLIND = bytes((
    0, 120, 220,       # dark: blue
    240, 228, 66,      # light: yellow
    255, 150, 205,     # dark captive: reddish purple, lighter than dark's blue
    213, 94, 0,        # light captive: vermilion
    255, 255, 255,     # error: white, blinking fast
    0, 55, 85,
    100, 95, 30,
    0, 0, 0,
    0, 158, 115,       # win: bluish green
    86, 180, 233,      # a setting that is on: sky blue
    190, 190, 190,     # a setting that is off: grey
))

PALETTES = (STANDARD, COLOUR_BLIND)


def rgb(pal, colour):
    """Colour `colour` (DARK, LIGHT, ...) of palette `pal` as an (r, g, b) tuple."""
    return tuple(pal[colour * 3:colour * 3 + 3])
