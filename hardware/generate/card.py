"""The quick-reference card: one printable A4 page for the players (`make hardware`).

    .venv/bin/python -m hardware.generate           # writes hardware/generated/quick-reference.pdf
    .venv/bin/python -m hardware.generate.card --data my-card.toml --out /tmp/card.pdf

What the card says is data, in one place: hardware/card.toml (every LED pattern of
docs/board.md as the hex's colours in turn, the settings hexes' values in words, the gestures
and the scoring rule). The colours are the firmware's own: the palette of
firmware/lib/gameboard/palette.py by name, and each settings hex's colour for each value as the
firmware's controller and painter (gameboard/painter.py) paint it before the first placement.

The PDF is written with ReportLab in its invariant mode (no dates, fixed document id) and the
standard Helvetica fonts (not embedded), so the output is the same byte for byte on every run.
"""

import argparse
import io
import math
import sys
import tomllib
from pathlib import Path

from gameboard import archive, palette
from gameboard.controller import Controller
from gameboard.layout import hex_layout
from gameboard.referee import PLAY
from gameboard.settings import BRIGHTNESS_LEVELS, CHOICES, NAMES, Settings

from hardware.generate import HARDWARE

DATA = HARDWARE / "card.toml"
NAME = "quick-reference.pdf"

PT_PER_MM = 72.0 / 25.4
PAGE = (210.0, 297.0)        # A4, mm
MARGIN = 12.0
GAP = 6.0                    # between the two columns
UNLIT = (52, 52, 56)         # how a dark LED's hex is printed: not black, a hex all the same
INK = (24, 24, 24)
MUTED = (90, 90, 90)
STRIP_MS = 2000              # every pattern's timeline shows this much time, to one scale
SMALL = 7.0                  # the smallest type on the card, in points: read at arm's length
GAMMA = 2.6                  # the LED output's (gameboard/leds.py): palette values are perceptual
# The settings hexes' keys, as docs/board.md's diagram prints them.
KEYS = {"rules": "R", "penalty": "P", "hints": "H", "brightness": "B", "palette": "C",
        "computer": "K", "level": "V"}


class CardError(Exception):
    """card.toml says something the card cannot draw; the message names the entry."""


# --- the data --------------------------------------------------------------------------------

def load(path=DATA):
    """card.toml, read and checked: every colour a palette colour, every time positive, a
    word for every value of every setting."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CardError("cannot read %s: %s" % (path, exc))
    for key in ("title", "subtitle", "led", "settings", "gesture", "score"):
        if key not in data:
            raise CardError("%s has no %r" % (Path(path).name, key))
    for i, led in enumerate(data["led"], 1):
        where = "led %d (%s)" % (i, str(led.get("text", ""))[:40])
        if not isinstance(led.get("text"), str):
            raise CardError("%s: no text" % where)
        for field in ("show", "with"):
            if field in led or field == "show":
                _check_steps(led.get(field), "%s: %s" % (where, field))
        rows = led.get("rows", [])
        if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
            raise CardError("%s: rows must list docs/board.md's table rows it draws" % where)
        if "for_ms" in led and not (isinstance(led["for_ms"], int) and led["for_ms"] > 0):
            raise CardError("%s: for_ms must be a positive number of milliseconds" % where)
    settings = data["settings"]
    for i, name in enumerate(NAMES):
        words = settings.get(name)
        if not isinstance(words, list) or len(words) != len(CHOICES[i]):
            raise CardError("settings.%s must name its %d values, in the board's order (%s)" % (
                name, len(CHOICES[i]), ", ".join(str(c) for c in CHOICES[i])))
        if name not in settings.get("names", {}):
            raise CardError("settings.names has no %s" % name)
    example = data["score"].get("example")
    if example:
        number = example.get("number")
        if not (isinstance(number, int) and 0 <= number <= 999 and
                isinstance(example.get("caption"), str)):
            raise CardError("score.example: a number 0-999 and its caption, not %r" % (number,))
    for i, gesture in enumerate(data["gesture"], 1):
        if not (isinstance(gesture.get("do"), str) and isinstance(gesture.get("does"), str)):
            raise CardError("gesture %d needs `do` and `does`" % i)
    return data


def _check_steps(steps, where):
    if not isinstance(steps, list) or not steps:
        raise CardError("%s: a list of [colour, ms]" % where)
    for step in steps:
        if (not isinstance(step, list) or len(step) != 2 or not isinstance(step[1], int) or
                step[1] <= 0):
            raise CardError("%s: %r is not [colour, ms]" % (where, step))
        colour(step[0], where)


def colour(name, where="card.toml"):
    """The standard palette's colour `name` (DARK, LIGHT, ..., OFF) as (r, g, b); "#rrggbb" for
    one the painter paints outside the palette (the light check)."""
    if isinstance(name, str) and len(name) == 7 and name[0] == "#":
        try:
            return tuple(int(name[i:i + 2], 16) for i in (1, 3, 5))
        except ValueError:
            pass
    index = getattr(palette, name, None) if isinstance(name, str) and name.isupper() else None
    if not isinstance(index, int):
        raise CardError("%s: %r is no colour of gameboard/palette.py" % (where, name))
    return palette.rgb(palette.STANDARD, index)


def setting_colours():
    """{setting: [(r, g, b) of each value]}: the colour the firmware's painter gives each
    settings hex for each of its values, on the empty board before the first placement.
    Brightness is shown by the hex's own brightness, which the LED output applies after the
    painter: scaled here as the eye sees it."""
    layout = hex_layout()
    out = {}
    for i, name in enumerate(NAMES):
        cell = layout.setting_cells[i]
        shades = []
        for value in CHOICES[i]:
            settings = Settings(**{name: value}) if name != "penalty" else Settings(penalty=value)
            board = Controller(settings, 0, layout)
            board.referee.enter(PLAY, 0)      # the light check over, no placement yet
            board.compose(0)
            rgb = palette.rgb(palette.STANDARD, board.view.colours[cell])
            if name == "brightness":
                k = (BRIGHTNESS_LEVELS[value] / 255.0) ** (1 / GAMMA)
                rgb = tuple(round(v * k) for v in rgb)
            shades.append(rgb)
        out[name] = shades
    return out


# --- drawing ---------------------------------------------------------------------------------

class Sheet:
    """A ReportLab canvas in millimetres from the page's top left corner."""

    def __init__(self, canvas):
        self.c = canvas

    def pt(self, x, y):
        return x * PT_PER_MM, (PAGE[1] - y) * PT_PER_MM

    def fill(self, rgb):
        self.c.setFillColorRGB(*(v / 255.0 for v in rgb))

    def stroke(self, rgb, width_mm):
        self.c.setStrokeColorRGB(*(v / 255.0 for v in rgb))
        self.c.setLineWidth(width_mm * PT_PER_MM)

    def hexagon(self, cx, cy, r, rgb, outline=INK):
        """A hex, flat sides left and right as on the board, filled `rgb`."""
        path = self.c.beginPath()
        for i in range(6):
            a = math.radians(60 * i + 30)
            x, y = self.pt(cx + r * math.cos(a), cy + r * math.sin(a))
            if i:
                path.lineTo(x, y)
            else:
                path.moveTo(x, y)
        path.close()
        self.fill(rgb)
        self.stroke(outline, 0.25)
        self.c.drawPath(path, stroke=1, fill=1)

    def disk(self, cx, cy, r):
        """A disk on a hex: its edge, the LED's light showing through its face."""
        self.stroke(INK, 0.45)
        x, y = self.pt(cx, cy)
        self.c.circle(x, y, r * PT_PER_MM, stroke=1, fill=0)

    def rect(self, x, y, w, h, rgb=None, outline=None):
        """A rectangle filled `rgb`, edged `outline` (either may be None)."""
        if rgb:
            self.fill(rgb)
        if outline:
            self.stroke(outline, 0.15)
        px, py = self.pt(x, y + h)
        self.c.rect(px, py, w * PT_PER_MM, h * PT_PER_MM, stroke=1 if outline else 0,
                    fill=1 if rgb else 0)

    def text(self, x, y, text, size, bold=False, rgb=INK, centre=False):
        self.fill(rgb)
        self.c.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        px, py = self.pt(x, y)
        if centre:
            self.c.drawCentredString(px, py, text)
        else:
            self.c.drawString(px, py, text)

    def width(self, text, size, bold=False):
        """The width of `text` in mm."""
        from reportlab.pdfbase.pdfmetrics import stringWidth
        return stringWidth(text, "Helvetica-Bold" if bold else "Helvetica", size) / PT_PER_MM

    def para(self, x, y, text, size, width, bold=False, rgb=INK, leading=1.22):
        """`text` wrapped to `width` mm from baseline y; returns the y below its last line."""
        from reportlab.lib.utils import simpleSplit
        font = "Helvetica-Bold" if bold else "Helvetica"
        step = size * leading / PT_PER_MM
        for line in simpleSplit(text, font, size, width * PT_PER_MM):
            self.text(x, y, line, size, bold, rgb)
            y += step
        return y - step


def strip(sheet, x, y, w, h, steps, for_ms=None):
    """The pattern's colours over STRIP_MS, left to right, to one scale for every pattern:
    repeated, or once for `for_ms` and unlit after it (light grey). Returns its timing in
    words."""
    last = STRIP_MS if for_ms is None else min(for_ms, STRIP_MS)
    t = 0
    while t < last:
        for name, ms in steps:
            end = min(t + ms, last) if len(steps) > 1 else last
            sheet.rect(x + w * t / STRIP_MS, y, w * (end - t) / STRIP_MS, h, _lit(colour(name)))
            t = end
            if t >= last:
                break
    if last < STRIP_MS:
        sheet.rect(x + w * last / STRIP_MS, y, w * (STRIP_MS - last) / STRIP_MS, h,
                   (222, 222, 222))
    sheet.rect(x, y, w, h, outline=MUTED)
    if for_ms is not None:
        return "%s s, once" % _seconds(for_ms)
    if len(steps) == 1:
        return "steady"
    return "repeats every %s s" % _seconds(sum(ms for _, ms in steps))


def _seconds(ms):
    return ("%.2f" % (ms / 1000.0)).rstrip("0").rstrip(".")


def _lit(rgb):
    """A palette colour as printed: a dark LED is an unlit hex, not black paper."""
    return UNLIT if rgb == (0, 0, 0) else rgb


def draw_leds(sheet, data, x, y, width):
    y = heading(sheet, x, y, "What the LEDs say")
    r = 3.4
    for led in data["led"]:
        top = y
        first = led["show"][0][0]
        sheet.hexagon(x + r, top + r, r, _lit(colour(first)))
        if led.get("disk"):
            sheet.disk(x + r, top + r, r * 0.62)
        if "with" in led:
            sheet.hexagon(x + 3 * r + 1.2, top + r, r, _lit(colour(led["with"][0][0])))
            if led.get("with_disk"):
                sheet.disk(x + 3 * r + 1.2, top + r, r * 0.62)
        timing = strip(sheet, x, top + 2 * r + 1.2, 4 * r + 1.2, 1.6, led["show"],
                       led.get("for_ms"))
        text_x = x + 4 * r + 4.5
        below = sheet.para(text_x, top + 2.6, "%s (%s)" % (led["text"], timing), 7.4,
                           width - (text_x - x), leading=1.18)
        y = max(below + 2.4, top + 2 * r + 5.0)
    return y


def draw_settings(sheet, data, x, y, width):
    y = heading(sheet, x, y, "The settings hexes")
    settings = data["settings"]
    y = sheet.para(x, y + 0.6, settings["intro"], 7.6, width) + 5.0
    layout = hex_layout()
    # Rows B and A of the board, dark's side at the bottom, the settings hexes keyed.
    r = 3.4
    w = math.sqrt(3) * r
    cell_of = {layout.setting_cells[i]: name for i, name in enumerate(NAMES)}
    from iago import hexgrid
    for row, count, dy in (("B", 6, 0.0), ("A", 5, 1.5 * r)):
        for k in range(count):
            cell = hexgrid.parse_cell("%s%d" % (row, k + 1))
            cx = x + 2 * w + w * k + (w / 2 if row == "A" else 0)
            cy = y + r + dy
            name = cell_of.get(cell)
            sheet.hexagon(cx, cy, r, (235, 235, 235) if name is None else (200, 200, 200))
            label = KEYS[name] if name else ""
            sheet.text(cx, cy + 1.0, label, 7.5, bold=True, centre=True)
            sheet.text(cx, cy + r + 2.8 if row == "A" else cy - r - 0.9,
                       "%s%d" % (row, k + 1), SMALL, rgb=MUTED, centre=True)
    sheet.text(x + 2 * w + 6.5 * w + 2, y + 1.5 * r + r + 0.5, "dark's side of the board", SMALL,
               rgb=MUTED)
    y += 4 * r + 6.5
    shades = setting_colours()
    for i, name in enumerate(NAMES):
        cell = hexgrid.cell_name(layout.setting_cells[i])
        sheet.text(x, y + 1.0, KEYS[name], 7.5, bold=True)
        sheet.text(x + 3.5, y + 1.0, "%s  %s" % (cell, settings["names"][name]), 7.2)
        sr = 1.9
        cx = x + 4.5
        for word, rgb in zip(settings[name], shades[name]):
            sheet.hexagon(cx, y + 4.6, sr, _lit(rgb))
            sheet.text(cx + sr + 1.0, y + 5.6, word, SMALL)
            cx += sr * 2 + 4.0 + sheet.width(word, SMALL)
        y += 8.6
    return y


def draw_gestures(sheet, data, x, y, width):
    y = heading(sheet, x, y, "What the hands tell the board")
    for gesture in data["gesture"]:
        y = sheet.para(x, y + 0.6, gesture["do"], 7.6, width, bold=True) + 3.1
        y = sheet.para(x + 2.0, y, gesture["does"], 7.3, width - 2.0) + 3.8
    return y


def draw_score(sheet, data, x, y, width):
    y = heading(sheet, x, y, "The score")
    for line in data["score"]["lines"]:
        y = sheet.para(x, y + 0.6, line, 7.6, width) + 3.7
    example = data["score"].get("example")
    if example:
        # The number's digit screens as the firmware draws them, in dark's colour, the
        # score's marks green.
        layout = hex_layout()
        r = 1.45
        step = 17 * r
        for k, digit in enumerate(str(example["number"])):
            cells = archive.draw(layout, int(digit), 2)
            bottom = mini_board(sheet, x + k * step, y, r, cells)
        sheet.para(x, bottom + 1.5, example["caption"], SMALL, width, rgb=MUTED)
        y = bottom + 4.5
    return y


def mini_board(sheet, x, y, r, cells):
    """The 61 hexes, row I at the top: a digit (1 in `cells`) in dark's colour, a mark (2)
    green; returns the y below."""
    from iago import hexgrid
    w = math.sqrt(3) * r
    shade = (UNLIT, palette.rgb(palette.STANDARD, palette.DARK),
             palette.rgb(palette.STANDARD, palette.WIN))
    for cell in range(hexgrid.CELLS):
        row, num = hexgrid.ROW_OF[cell], hexgrid.NUMBER_OF[cell]
        cx = x + w / 2 + w * (num - 1 - row / 2.0) + 2 * w
        cy = y + r + (8 - row) * 1.5 * r
        sheet.hexagon(cx, cy, r, shade[cells[cell]], outline=(120, 120, 120))
    return y + 2 * r + 8 * 1.5 * r + 1.0


def draw_cues(sheet, x, y, width):
    """The cues that share a look, with the difference measured between them (docs/board.md,
    "Telling the cues apart"): the smallest at any brightness, standard / colour-blind."""
    from hardware.generate.seen import cues
    y = heading(sheet, x, y, "Telling the cues apart")
    y = sheet.para(x, y + 0.6, "A cue steady in a colour is never shown by another for as long "
                   "as a glance (0.2 s); cues of one rhythm differ in colour by CIEDE2000 %g "
                   "or more (the smallest at any brightness, standard / colour-blind):"
                   % cues.MIN_DELTA_E, 7.3, width) + 3.4
    measured, lit = cues.measure()
    for name, (standard, blind, other) in cues.closest(measured, lit):
        sheet.text(x + 2.0, y, "%s / %s" % (name, other) if other != name else
                   "%s, two faces" % name, SMALL)
        sheet.text(x + width - 14.0, y, "%.0f / %.0f" % (standard, blind), SMALL, bold=True)
        y += 3.4
    y = sheet.para(x, y + 0.4, "Every other two cues lit at once differ in rhythm or by a "
                   "disk on one of them: docs/board.md has the table.", SMALL, width, rgb=MUTED)
    return y + 1.0


def draw_palettes(sheet, x, y):
    """The colour-blind palette beside the standard one: the same meanings, other colours."""
    title = "Colour-blind palette (setting C):"
    sheet.text(x, y, title, SMALL, bold=True)
    names = (("DARK", "dark"), ("LIGHT", "light"), ("DARK_CAPTIVE", "dark captive"),
             ("LIGHT_CAPTIVE", "light captive"), ("ERROR", "refused"), ("WIN", "winner"))
    cx = x + sheet.width(title, SMALL, bold=True) + 4.0
    for name, word in names:
        for pal, dx in ((palette.STANDARD, 0.0), (palette.COLOUR_BLIND, 3.8)):
            sheet.hexagon(cx + dx, y - 1.0, 1.8, palette.rgb(pal, getattr(palette, name)))
        sheet.text(cx + 6.4, y, word, SMALL)
        cx += 6.4 + sheet.width(word, SMALL) + 4.5


def heading(sheet, x, y, text):
    sheet.text(x, y + 4.0, text, 10.5, bold=True)
    return y + 7.5


def card_pdf(data):
    """The card as PDF bytes: the same bytes for the same data, run after run."""
    from reportlab.pdfgen.canvas import Canvas
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(PAGE[0] * PT_PER_MM, PAGE[1] * PT_PER_MM), invariant=1,
                    pageCompression=0)
    canvas.setTitle(data["title"])
    canvas.setAuthor("Iago board project")
    canvas.setSubject("The LEDs, the settings hexes, the gestures and the score at a glance")
    canvas.setCreator("python -m hardware.generate (make hardware) from hardware/card.toml")
    sheet = Sheet(canvas)
    column = (PAGE[0] - 2 * MARGIN - GAP) / 2
    sheet.text(MARGIN, MARGIN + 5.0, data["title"], 16, bold=True)
    top = sheet.para(MARGIN, MARGIN + 11.0, data["subtitle"], 8.0, PAGE[0] - 2 * MARGIN,
                     rgb=MUTED) + 3.0
    left = draw_leds(sheet, data, MARGIN, top, column)
    left = draw_cues(sheet, MARGIN, left + 1.5, column)
    right_x = MARGIN + column + GAP
    right = draw_settings(sheet, data, right_x, top, column)
    right = draw_gestures(sheet, data, right_x, right + 1.5, column)
    right = draw_score(sheet, data, right_x, right + 1.5, column)
    bottom = PAGE[1] - MARGIN
    if max(left, right) > bottom - 8.0:
        raise CardError("the card's %s column runs %.1f mm past the page: shorten "
                        "hardware/card.toml" % ("left" if left > right else "right",
                                                max(left, right) - (bottom - 8.0)))
    draw_palettes(sheet, MARGIN, bottom - 2.5)
    sheet.text(PAGE[0] - MARGIN - 46.0, bottom + 3.0,
               "make hardware, from hardware/card.toml", SMALL, rgb=MUTED)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m hardware.generate.card",
        description="Write a quick-reference card from a card.toml and the firmware's palette "
                    "(python -m hardware.generate writes hardware/generated/%s)." % NAME)
    parser.add_argument("--out", required=True, help="where to write it")
    parser.add_argument("--data", default=str(DATA), help="the card's words and patterns")
    args = parser.parse_args(argv)
    try:
        pdf = card_pdf(load(args.data))
    except CardError as exc:
        sys.stderr.write("python -m hardware.generate.card: %s\n" % exc)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pdf)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
