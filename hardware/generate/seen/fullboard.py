"""The board at the end of a game as a player sees it: a disk on every hex, so that only the
ring of light round each disk shows (the stack's geometry: hardware/design.toml,
hardware/generate/stack/light.py), at each screen of the score (docs/board.md, "The score at
the end").

The LEDs are the firmware's own: its controller holds the finished game and the painter
(gameboard/painter.py) composes its frame at an instant, the LED pipeline
(gameboard/leds.py) takes it to the wire at a brightness setting, and each LED's light is
read as the eye sees it (hardware/generate/seen/eye.py), added to the unlit plate's own grey, on its
hex's window (the hex less half a wall each side).
The disks lie on top, opaque, each pushed to the edge of its pocket (the narrowest ring on one
side), in a fixed direction per hex; the room is dim: the unlit plate and the walls are dark
grey, as the card prints an unlit hex.
"""

import functools
import math

from coloraide import Color
from PIL import Image, ImageDraw

import iago
from gameboard import archive, palette
from gameboard.controller import Controller
from gameboard.layout import hex_layout
from gameboard.leds import LedOutput
from gameboard.referee import OVER
from gameboard.settings import BRIGHTNESS_LEVELS, Settings

from hardware.generate.seen import eye
from hardware.generate.stack.design import Design, hex_centre, hex_corners

WALL = (28, 28, 30)              # the grid's walls and the frame, unlit
UNLIT = (52, 52, 56)             # a window whose LED is dark (the card prints it so)
FACES = {iago.DARK: (30, 30, 32), iago.LIGHT: (226, 222, 212), "red": (186, 36, 40)}
SCALE = 2.0                      # pixels a millimetre
MARGIN_MM = 8.0
DIGIT_MS = 700                   # how long each digit of the score is lit (painter.py)


class Screen:
    """One screen of the score: `index` (0 who won), `start_ms` and `ms` from the game's end,
    `side` (iago.DARK or LIGHT; 0 for who won)."""

    def __init__(self, index, start_ms, ms, side):
        self.index = index
        self.start_ms = start_ms
        self.ms = ms
        self.side = side

    def middle(self):
        """The middle of the time its digit shows (the first 0.7 s; then its marks alone),
        or of the whole screen for who won."""
        return self.start_ms + (self.ms // 2 if self.index == 0 else DIGIT_MS // 2)

    def gap(self):
        """An instant when its marks show alone, after its digit."""
        return self.start_ms + (DIGIT_MS + self.ms) // 2


def finished(text, rules="standard", settings=None):
    """The firmware's Controller of the finished game `text` showing its score, as the
    controller and the app leave it at the game's end (phase OVER since 0, archive.score),
    a disk on every hex."""
    layout = hex_layout()
    game = iago.Board(text, iago.Rules.parse(rules))
    if not game.is_game_over():
        raise ValueError("not a finished game: %s" % text)
    board = Controller(settings or Settings(), 0, layout)
    board.restore(game, [])
    for c in range(layout.cells):
        board.referee.present[c] = 1
    board.referee.enter(OVER, 0)
    board.view.winner = game.outcome().winner
    board.show_score(archive.score(game, layout))
    return board


def screens(board):
    """The Screens of the score `board` (finished) shows, in order."""
    result = board.view.result
    out = []
    at = 0
    for k in range(result[0]):
        time = result[3 + k]
        side = 0 if k == 0 else iago.LIGHT if time & 0x80 else iago.DARK
        out.append(Screen(k, at, (time & 0x7F) * 100, side))
        at += (time & 0x7F) * 100
    return out


@functools.lru_cache(maxsize=None)
def _board_map():
    from gameboard.boardmap import load
    return load(str(eye.DEFAULT_MAP))


def wire_frame(board, now, brightness):
    """The wire colour (r, g, b) of every hex of `board` (a Controller) at `now`, through
    the firmware's painter and LED pipeline (gamma, brightness, current cap) on the default
    board map."""
    board.compose(now)
    out = LedOutput(_board_map(), board.frame, brightness)
    out.render()
    return [tuple((out.level(board.frame[3 * c + i]) * out.scale) >> 12 for i in range(3))
            for c in range(len(board.frame) // 3)]


@functools.lru_cache(maxsize=None)
def _lit(wire):
    """A window lit by `wire`: the LED's light added to the unlit plate's grey."""
    base = Color("srgb", [v / 255 for v in UNLIT]).convert("srgb-linear").coords()
    light = [b + v / 255 for b, v in zip(base, wire)]
    srgb = Color("srgb-linear", light).convert("srgb").clip().coords()
    return tuple(int(round(255 * v)) for v in srgb)


def face_of(state):
    """The colour of a disk's face up for a cell state (a captive shows its red side)."""
    if state & iago.CAPTIVE:
        return FACES["red"]
    return FACES[state & 3]


def picture(board, now, brightness=BRIGHTNESS_LEVELS[2], design=None, scale=SCALE, disks=None):
    """The board at `now` as the player on dark's side sees it (row I far away): a PIL image.
    `disks` {cell: (r, g, b) of its face}; default a disk on every hex, the game's face up
    where the game has one, dark and light faces by turns on the hexes it left empty."""
    if disks is None:
        cells = board.game.cell_states
        disks = {c: face_of(cells[c]) if cells[c] else
                 FACES[iago.DARK if c % 2 else iago.LIGHT] for c in range(board.layout.cells)}
    return draw(wire_frame(board, now, brightness), disks, design, scale)


def frame_size(design=None, scale=SCALE):
    """(width, height) in px of a picture, and the mm to px mapping px(x, y) (board
    coordinates: mm from E5, y toward row I)."""
    pitch = (design or Design.load()).board.pitch
    half_w = 4.5 * pitch + MARGIN_MM
    half_h = 4 * 1.5 * pitch / math.sqrt(3) + pitch / math.sqrt(3) + MARGIN_MM

    def px(x, y):
        return ((x + half_w) * scale, (half_h - y) * scale)
    return (int(round(2 * half_w * scale)), int(round(2 * half_h * scale))), px


def draw(wires, disks, design=None, scale=SCALE):
    """The 61 hexes lit by `wires` (a wire colour a cell), the disks of `disks` {cell: face
    colour} on top, each pushed to its pocket's edge toward one of the six corners by turns:
    a PIL image, row I at the top."""
    design = design or Design.load()
    pitch = design.board.pitch
    window = design.window_across_flats()
    radius = design.disk.diameter / 2.0
    play = design.play()
    size, px = frame_size(design, scale)
    image = Image.new("RGB", size, WALL)
    pen = ImageDraw.Draw(image)
    for c in range(len(wires)):
        cx, cy = hex_centre(c, pitch)
        pen.polygon([px(x, y) for x, y in hex_corners(cx, cy, window)], fill=_lit(wires[c]))
        if c in disks:
            turn = math.radians(30 + 60 * (c % 6))
            dx, dy = cx + play * math.cos(turn), cy + play * math.sin(turn)
            (x0, y0), (x1, y1) = px(dx - radius, dy + radius), px(dx + radius, dy - radius)
            pen.ellipse((x0, y0, x1, y1), fill=disks[c])
    return image


def wire(side, mark=False, brightness=BRIGHTNESS_LEVELS[2], pal=palette.STANDARD):
    """The wire colour of `side`'s digits (its disk colour) or, with `mark`, of its marks
    (the win colour), at `brightness`, one LED lit."""
    colour = palette.WIN if mark else palette.DARK if side == iago.DARK else palette.LIGHT
    return eye.wire_colours(pal, brightness)[colour]


def seen(side, mark=False, brightness=BRIGHTNESS_LEVELS[2], pal=palette.STANDARD):
    """The colour (8-bit sRGB) a window lit with `side`'s digits or marks shows."""
    return _lit(wire(side, mark, brightness, pal))
