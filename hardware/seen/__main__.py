"""python -m hardware.seen [--check]: docs/score-full-board.png, the score on a full board as
a player sees it, and the table of cues for docs/board.md (printed; --check compares both with
the committed files)."""

import argparse
import io
import sys

from PIL import Image

from hardware.seen import cues, fullboard
from hardware.stack.design import ROOT

PICTURE = ROOT / "docs" / "score-full-board.png"
BOARD_MD = ROOT / "docs" / "board.md"
# The example: dark 36 inner x 3 outer = 108 (light 1 x 18 = 18), its score's three digits.
EXAMPLE = "LL111/LDDDLL/LDDDDDL/LDDDDDDL/LDDDDDDDL/LDDDDDDL/LDDDDDL/LDDDDL/DDDLL D"


def score_picture():
    """PNG bytes: dark's score of EXAMPLE, its three digit screens side by side."""
    board = fullboard.finished(EXAMPLE)
    game = board.game
    assert game.area_counts(1) == (36, 3), game.area_counts(1)
    shown = [s for s in fullboard.screens(board)[1:] if s.side == 1][-3:]
    panels = [fullboard.picture(board, s.middle(), scale=1.2) for s in shown]
    width, height = panels[0].size
    sheet = Image.new("RGB", (3 * width, height), fullboard.WALL)
    for i, panel in enumerate(panels):
        sheet.paste(panel, (i * width, 0))
    out = io.BytesIO()
    sheet.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _same(picture):
    """The committed picture shows the same pixels (the PNG's bytes may differ by zlib)."""
    if not PICTURE.is_file():
        return False
    with Image.open(PICTURE) as old, Image.open(io.BytesIO(picture)) as new:
        return old.size == new.size and old.tobytes() == new.convert(old.mode).tobytes()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hardware.seen", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the picture or docs/board.md's table "
                        "is not what the firmware gives")
    args = parser.parse_args(argv)
    picture = score_picture()
    table = cues.table()
    current = _same(picture)
    if args.check:
        behind = []
        if not current:
            behind.append(PICTURE.name + " (run make hardware)")
        if table not in BOARD_MD.read_text():
            behind.append("docs/board.md's cue table (paste the table below)")
        if behind:
            print("not up to date: %s\n%s" % (", ".join(behind), table), file=sys.stderr)
            return 1
        print("%s and the cue table are up to date" % PICTURE.name)
        return 0
    if current:
        print("%s is up to date" % PICTURE.name)
    else:
        PICTURE.write_bytes(picture)
        print("wrote %s" % PICTURE.name)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
