"""hardware/generate/card.py: the committed quick-reference card
(hardware/generated/quick-reference.pdf) is what its data (hardware/card.toml) and the
firmware's palette and painter give, byte for byte; it shows
every pattern of docs/board.md's LED table in the firmware's colours, the settings hexes, the
gestures and the scoring rule; bad data is refused with a reason."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gameboard import palette
from hardware.generate import card

ROOT = Path(__file__).resolve().parent.parent
CARD = ROOT / "hardware" / "generated" / "quick-reference.pdf"
DATA = ROOT / "hardware" / "card.toml"


def pdf_text(pdf):
    """The strings the page draws (its content stream is not compressed), unescaped."""
    shown = re.findall(rb"\((.*?)(?<!\\)\) Tj", pdf)
    return [s.replace(rb"\(", b"(").replace(rb"\)", b")").replace(rb"\\", b"\\").decode("cp1252")
            for s in shown]


def test_the_committed_card_is_what_the_data_and_the_firmware_give():
    fresh = card.card_pdf(card.load())
    assert CARD.read_bytes() == fresh, "run `make hardware` and commit the card"


def test_the_card_is_reproducible_and_names_no_path_of_this_machine(tmp_path):
    out = tmp_path / "card.pdf"
    proc = subprocess.run([sys.executable, "-m", "hardware.generate.card", "--out", str(out)],
                          capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == card.card_pdf(card.load()) == CARD.read_bytes()
    pdf = out.read_bytes()
    assert b"/CreationDate (D:20000101000000" in pdf          # ReportLab's invariant mode
    assert str(ROOT).encode() not in pdf and b"/tmp/" not in pdf and b"/home/" not in pdf
    assert len(re.findall(rb"/Type /Page\b", pdf)) == 1        # one page
    assert re.search(rb"/MediaBox \[ 0 0 595.27\d* 841.88\d* \]", pdf)   # A4


def test_every_pattern_of_the_boards_led_table_is_on_the_card():
    """docs/board.md's table "What the LEDs say", row by row (its first cell), is drawn by an
    entry of card.toml; a new row there needs its entry here."""
    doc = (ROOT / "docs" / "board.md").read_text()
    table = doc.split("## What the LEDs say")[1].split("\n## ")[0]
    rows = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")]
    rows = rows[2:]                                        # the header and its rule
    assert len(rows) >= 10
    drawn = {row for led in card.load()["led"] for row in led.get("rows", ())}
    missing = [row for row in rows if row not in drawn]
    assert not missing, "docs/board.md's LED rows not on the card (card.toml): %s" % missing
    text = " ".join(pdf_text(CARD.read_bytes()))
    for led in card.load()["led"]:
        assert led["text"].split(":")[0][:30] in text, led["text"]


def test_the_patterns_colours_are_the_firmwares_palette():
    data = card.load()
    for led in data["led"]:
        for name, _ms in led["show"] + led.get("with", []):
            if not name.startswith("#"):
                assert card.colour(name) == palette.rgb(palette.STANDARD, getattr(palette, name))
    # The colours are drawn into the page as the fills of its hexes.
    fills = set(re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) rg", CARD.read_bytes()))
    fills = {tuple(round(float(v) * 255) for v in f) for f in fills}
    for name in ("DARK", "LIGHT", "DARK_CAPTIVE", "LIGHT_CAPTIVE", "ERROR", "HINT_DARK",
                 "HINT_LIGHT", "WIN", "SETTING_ON", "SETTING_OFF"):
        assert palette.rgb(palette.STANDARD, getattr(palette, name)) in fills, name
    for name in ("DARK", "LIGHT", "DARK_CAPTIVE", "LIGHT_CAPTIVE"):   # the colour-blind key
        assert palette.rgb(palette.COLOUR_BLIND, getattr(palette, name)) in fills, name


def test_the_settings_hexes_colours_are_the_painters():
    """As docs/board.md's settings table says, worked out by the firmware's painter."""
    shades = card.setting_colours()
    rgb = lambda name: palette.rgb(palette.STANDARD, getattr(palette, name))   # noqa: E731
    assert shades["rules"] == [rgb("SETTING_ON"), rgb("DARK"), rgb("LIGHT"), rgb("DARK_CAPTIVE")]
    assert shades["hints"] == [rgb("SETTING_OFF"), rgb("SETTING_ON")]
    assert shades["computer"] == [rgb("SETTING_OFF"), rgb("DARK"), rgb("LIGHT")]
    # Levels in no legal move's glow (docs/board.md, "Telling the cues apart").
    assert shades["level"] == [rgb("SETTING_OFF"), rgb("DARK_CAPTIVE"), rgb("DARK"), rgb("LIGHT"),
                               rgb("SETTING_ON")]
    assert shades["brightness"][-1] == rgb("LIGHT")                      # full
    assert sum(shades["brightness"][0]) < sum(shades["brightness"][-1])   # dim is dimmer


def test_the_card_has_the_settings_the_gestures_and_the_score():
    data = tomllib.loads(DATA.read_text())
    text = " ".join(pdf_text(CARD.read_bytes()))
    for key, cell in (("R", "A1"), ("P", "A2"), ("H", "A3"), ("B", "A4"), ("C", "A5"),
                      ("K", "B1"), ("V", "B6")):
        assert "(%s) Tj" % key in CARD.read_bytes().decode("cp1252") and cell in text
    for word in ("loose + simple", "colour-blind", "nobody"):
        assert word in text
    gestures = " ".join(g["do"] for g in data["gesture"])
    for what in ("Take back", "New game", "Self-test", "Demo"):
        assert what in gestures and what in text
    assert "counts as 1" in text and "centre decides" in text


def test_no_type_on_the_card_is_smaller_than_7_points():
    """Issue: labels at 4.6-6 pt could not be read at the table."""
    sizes = [float(v) for v in re.findall(rb"/F\d+ ([\d.]+) Tf", CARD.read_bytes())]
    assert sizes and min(sizes) >= 7.0, sorted(set(sizes))


def test_the_card_gives_the_scores_order_and_how_the_cues_differ():
    """Issue: the card did not say the score's order (the winner, then each side's inner,
    outer and score; hundreds first; light's digits upright for light)."""
    text = " ".join(pdf_text(CARD.read_bytes()))
    text = re.sub(r"\s+", " ", text)
    for words in ("the winner's disks green; then dark's inner count, outer count and score, "
                  "then light's (upright for light)", "hundreds first", "E2 and E8 inner",
                  "rows A and I the score", "Telling the cues apart", "CIEDE2000 10"):
        assert words in text, words


@pytest.mark.parametrize("change, words", [
    (('"DARK", 1]]\nwith = [["LIGHT"', '"PURPLE", 1]]\nwith = [["LIGHT"'),
     ["'PURPLE' is no colour of gameboard/palette.py"]),
    (('["dim", "low", "medium", "full"]', '["dim", "full"]'),
     ["settings.brightness must name its 4 values"]),
    (('show = [["ERROR", 125], ["OFF", 125]]', 'show = [["ERROR", 0]]'),
     ["is not [colour, ms]"]),
    (('number = 108', 'number = -8'), ["score.example: a number 0-999"]),
    (('text = "A dark disk (blue), a light disk (warm white)."',
      'text = "' + "A dark disk. " * 400 + '"'), ["runs", "past the page"]),
])
def test_bad_data_is_refused_with_a_reason(change, words, tmp_path, capsys):
    source = DATA.read_text()
    assert change[0] in source
    bad = tmp_path / "card.toml"
    bad.write_text(source.replace(change[0], change[1], 1))
    out = tmp_path / "card.pdf"
    assert card.main(["--data", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err, err
    assert not out.exists()
