"""Every colour the board shows, in one table per palette (RGB, before gamma and brightness).

Disks are lit from below, so a dark disk cannot be shown as black: dark is blue. A captive is
red with a tint of its hidden colour, and alternates slowly with that colour so the hidden
side can be read. The colour-blind palette (after Okabe and Ito) keeps every pair apart for
red-green colour blindness: blue, yellow, vermilion and magenta.
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
WIN = 8            # the winner's disks at game end
SETTING_ON = 9
SETTING_OFF = 10

STANDARD = (
    (0, 40, 255),      # dark: blue
    (255, 190, 120),   # light: warm white
    (255, 0, 60),      # dark captive: red, a touch of blue
    (255, 45, 0),      # light captive: red, a touch of warm
    (255, 0, 0),       # error: full red, blinking fast
    (0, 6, 40),        # hint for dark
    (40, 28, 16),      # hint for light
    (0, 0, 0),
    (0, 255, 40),      # win: green
    (0, 200, 0),
    (24, 0, 0),
)

COLOUR_BLIND = (
    (0, 114, 178),     # dark: blue
    (240, 228, 66),    # light: yellow
    (204, 121, 167),   # dark captive: reddish purple
    (213, 94, 0),      # light captive: vermilion
    (255, 255, 255),   # error: white, blinking fast
    (0, 18, 30),
    (36, 34, 10),
    (0, 0, 0),
    (86, 180, 233),    # win: sky blue
    (86, 180, 233),
    (30, 30, 30),
)

PALETTES = (STANDARD, COLOUR_BLIND)
PALETTE_NAMES = ("standard", "colour-blind")
