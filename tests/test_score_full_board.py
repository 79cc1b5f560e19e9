"""The score read back from the board as a player sees it at the end of a game: a disk on every
hex, only the lit ring round each showing (hardware/generate/seen/fullboard.py draws it from the
firmware's own frames at the stack's geometry). Issue: the digits were drawn on hexes the disks
cover; with the board full, a new player could not make out 30 or 108.

The reader is simple and looks at the pictures only. It turns a picture round for light's
numbers, as light's player sees them, keeps the pixels nearer (CIEDE2000) to the side's digit
colour than to anything else a player knows (an unlit window, the walls, the disks' faces, the
green of the marks, the other side's colour), averages them over 7 x 5 patches of the middle
of the board, and takes the digit whose picture on an empty board (whole hexes lit, no disk)
correlates best, by a margin over the next. It groups the digits into numbers by the time
between them (0.2 s within a number, 0.7 s after it) and names each number by its marks (the
order, which the card gives, must agree). Every screen of several finished games is read, for
both palettes at every brightness.
"""

import functools
from pathlib import Path

import numpy as np
import pytest
from coloraide import Color

import iago
from gameboard import archive, palette
from gameboard.settings import BRIGHTNESS_LEVELS, Settings
from hardware.generate.seen import fullboard
from hardware.generate.stack.design import Design
from test_board_score import position

ROOT = Path(__file__).resolve().parent.parent

DESIGN = Design.load()
PITCH = DESIGN.board.pitch
SCALE = 1.0                 # px a mm: the narrowest ring is still 3 px wide
# A lit ring must differ from an unlit window and from a disk's face by CIEDE2000 10, the
# project's figure for a difference seen at a glance (tests/test_captive_colour.py).
SEEN_DE = 10.0
MIN_MATCH = 0.9             # the picture's correlation with its digit's
MIN_MARGIN = 0.1            # ... and how far the next digit's stays below it
PATCHES = (7, 5)            # rows, columns
# Finished games: (position, rules, dark's numbers, light's numbers).
GAMES = [
    (position(20, 6, 0), "standard", (20, 6, 120), (17, 0, 17)),
    (position(30, 9, 5), "standard", (30, 9, 270), (7, 5, 35)),
    ("LLDDD/LdLDDl/LdLLDDl/LLldlDLD/1DLdLdLDD/LLddLlDl/1LdlLDD/1dDDDl/1L2D L", "standard",
     (12, 7, 84), (12, 7, 84)),                         # docs/rules.md's tie at 84
    (position(36, 4, 18), "standard", (36, 4, 144), (1, 18, 18)),
    (position(20, 6, 0), "simple", (26,), (17,)),
]
MARKS = {"inner": ("E2", "E8"), "outer": ("E1", "E9", "C1", "G9"), "score": ("A3", "I7")}


def box(px, x0, y0, x1, y1):
    """The pixel box of board coordinates (mm) x0..x1, y0..y1."""
    (a, b), (c, d) = px(x0, y1), px(x1, y0)
    return int(round(a)), int(round(b)), int(round(c)), int(round(d))


def keyed(picture, colour, others, where):
    """1 where a pixel of `picture` inside the box `where` is nearer (CIEDE2000) to `colour`
    than to each of `others`, else 0."""
    arr = np.asarray(picture.crop(where)).astype(np.int32)
    codes = arr[:, :, 0] << 16 | arr[:, :, 1] << 8 | arr[:, :, 2]
    found, which = np.unique(codes, return_inverse=True)
    near = np.array([_nearest((int(v) >> 16, int(v) >> 8 & 255, int(v) & 255), colour,
                              tuple(others)) for v in found], dtype=float)
    return near[which.ravel()].reshape(codes.shape)


@functools.lru_cache(maxsize=None)
def _nearest(rgb, colour, others):
    here = Color("srgb", [v / 255 for v in rgb])
    distances = [here.delta_e(Color("srgb", [v / 255 for v in c]), method="2000")
                 for c in (colour,) + others]
    return distances[0] == min(distances)


def patches(mask):
    rows, cols = PATCHES
    h, w = mask.shape
    return np.array([[mask[r * h // rows:(r + 1) * h // rows,
                           c * w // cols:(c + 1) * w // cols].mean()
                      for c in range(cols)] for r in range(rows)])


def correlation(a, b):
    a, b = (a - a.mean()).ravel(), (b - b.mean()).ravel()
    if not a.any() or not b.any():
        return 0.0
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


@functools.lru_cache(maxsize=None)
def reader_for(side, pal, brightness):
    return Reader(side, pal, brightness)


class Reader:
    """Reads one side's digits and marks at one palette and brightness. It knows the colours
    a player expects: the side's disk colour for a digit, green for a mark, and how an unlit
    window, the walls and the disks' faces look."""

    def __init__(self, side, pal, brightness):
        self.side = side
        colours = palette.PALETTES[pal]
        self.colour = fullboard.seen(side, False, brightness, colours)
        self.mark = fullboard.seen(side, True, brightness, colours)
        other = fullboard.seen(side ^ 3, False, brightness, colours)
        things = [fullboard.UNLIT, fullboard.WALL] + list(fullboard.FACES.values())
        self.not_digit = things + [self.mark, other]
        self.not_mark = things + [self.colour, other]
        _, self.px = fullboard.frame_size(DESIGN, SCALE)
        half = 3.5 * 1.5 * PITCH / 3 ** 0.5
        self.box = box(self.px, -3 * PITCH, -half, 3 * PITCH, half)
        layout = fullboard.hex_layout()
        self.templates = {}
        lit = fullboard.wire(side, False, brightness, colours)
        for d in range(10):
            cells = archive.draw(layout, d, 2)
            wires = [lit if cells[c] == 1 else (0, 0, 0) for c in range(layout.cells)]
            empty = fullboard.draw(wires, {}, DESIGN, SCALE)
            self.templates[d] = patches(keyed(empty, self.colour, self.not_digit, self.box))

    def upright(self, picture):
        return picture.rotate(180) if self.side == iago.LIGHT else picture

    def digit(self, picture):
        """(the digit, its correlation, its margin over the next best), or (None, 0, 0) when
        nothing in the middle of the board is lit in the side's colour."""
        mask = keyed(self.upright(picture), self.colour, self.not_digit, self.box)
        if mask.sum() < 0.01 * mask.size:
            return None, 0.0, 0.0
        seen = patches(mask)
        scores = sorted(((correlation(seen, t), d) for d, t in self.templates.items()),
                        reverse=True)
        return scores[0][1], scores[0][0], scores[0][0] - scores[1][0]

    def marks(self, picture):
        """The names of MARKS whose hexes all glow green (the outer ring's, which take in the
        score's rows A and I: outer alone)."""
        picture = self.upright(picture)
        layout = fullboard.hex_layout()
        out = []
        for what, cells in MARKS.items():
            lit = True
            for name in cells:
                cx, cy = fullboard.hex_centre(layout.parse_cell(name), PITCH)
                # The ring right of the disk: past its edge, pushed aside, to the window's.
                inside = DESIGN.disk.diameter / 2 + DESIGN.play() + 0.5
                outside = DESIGN.window_across_flats() / 2 - 0.5
                where = box(self.px, cx + inside, cy - 2, cx + outside, cy + 2)
                lit = lit and keyed(picture, self.mark, self.not_mark, where).mean() > 0.5
            if lit:
                out.append(what)
        if "outer" in out:          # the outer ring's hexes take in rows A and I too
            out.remove("score")
        return out


def read_game(text, rules, pal, brightness):
    """{side: [(number, marks seen)]} read from pictures of every screen, and the weakest
    digit read: (its correlation, its margin)."""
    view = fullboard.finished(text, rules, Settings(palette=pal))
    readers = {side: reader_for(side, pal, brightness) for side in (iago.DARK, iago.LIGHT)}
    out = {iago.DARK: [], iago.LIGHT: []}
    digits = ""
    worst = (1.0, 1.0)
    for screen in fullboard.screens(view)[1:]:
        reader = readers[screen.side]
        d, best, margin = reader.digit(fullboard.picture(view, screen.middle(), brightness,
                                                         DESIGN, SCALE))
        assert d is not None, ("no digit seen", screen.index)
        worst = min(worst[0], best), min(worst[1], margin)
        digits += str(d)
        gap = fullboard.picture(view, screen.gap(), brightness, DESIGN, SCALE)
        assert reader.digit(gap)[0] is None, ("a digit lit in the gap", screen.index)
        if screen.ms >= 1000:                   # 0.7 s of marks alone: the number ends
            out[screen.side].append((int(digits), reader.marks(gap)))
            digits = ""
    return out, worst


@pytest.mark.parametrize("pal", [0, 1], ids=["standard", "colour-blind"])
@pytest.mark.parametrize("brightness", BRIGHTNESS_LEVELS)
def test_every_number_reads_back_from_a_full_board(pal, brightness):
    for text, rules, dark, light in GAMES:
        got, (best, margin) = read_game(text, rules, pal, brightness)
        names = ("inner", "outer", "score") if rules == "standard" else ("score",)
        for side, numbers in ((iago.DARK, dark), (iago.LIGHT, light)):
            assert [n for n, _ in got[side]] == list(numbers), (text, side, got)
            assert [seen for _, seen in got[side]] == [[name] for name in names], got[side]
        assert best >= MIN_MATCH and margin >= MIN_MARGIN, (text, best, margin)


def test_the_ten_digits_differ_as_much_on_an_empty_board():
    """The margins above against the digits' own: on an empty board, with whole hexes lit,
    no two of the ten correlate above 1 - MIN_MARGIN... nor does any pair come closer than
    the full board's worst (8 and 9 differ in three hexes)."""
    reader = Reader(iago.DARK, 0, BRIGHTNESS_LEVELS[2])
    closest = max(correlation(reader.templates[a], reader.templates[b])
                  for a in range(10) for b in range(a + 1, 10))
    assert closest <= 1 - MIN_MARGIN, closest


def test_digits_and_marks_stand_apart_from_what_is_unlit():
    """A lit ring differs from an unlit window and from every disk face by at least SEEN_DE
    (CIEDE2000), for both palettes at every brightness: a player sees it, and the reader
    never takes a face for a ring."""
    for level in BRIGHTNESS_LEVELS:
        for pal in (0, 1):
            for side in (iago.DARK, iago.LIGHT):
                for mark in (False, True):
                    ring = Color("srgb", [v / 255 for v in fullboard.seen(
                        side, mark, level, palette.PALETTES[pal])])
                    for thing in [fullboard.UNLIT] + list(fullboard.FACES.values()):
                        de = ring.delta_e(Color("srgb", [v / 255 for v in thing]),
                                          method="2000")
                        assert de >= SEEN_DE, (level, pal, side, mark, thing, de)

