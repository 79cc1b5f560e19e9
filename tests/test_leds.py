"""The LED pipeline: gamma and brightness, colour and chain order, and the current cap."""

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameboard.boardmap import check
from gameboard.leds import LedOutput, gamma_table

DEFAULT_MAP = Path(__file__).resolve().parent.parent / "hardware" / "board.json"
DATA = json.loads(DEFAULT_MAP.read_text())
BMAP = check(DATA)


def board(**changes):
    data = copy.deepcopy(DATA)
    data.update(changes)
    return check(data)


def wire_ma(bmap, wire):
    """The draw of a wire buffer by the board map's estimate, computed independently."""
    return bmap.led_idle_ma * 61 + sum(wire) * bmap.led_ma_per_channel / 255


def frame_ma(bmap, leds):
    """The draw the frame would have uncapped at the current brightness, rounded up as the
    firmware rounds it, computed independently."""
    total = sum(leds.level(x) for x in leds.frame)
    return bmap.led_idle_ma * 61 + -(-total * bmap.led_ma_per_channel // 255)


def lit(leds, cell, rgb):
    leds.frame[cell * 3:cell * 3 + 3] = bytes(rgb)


def test_gamma_table():
    table = gamma_table()
    assert table[0] == 0 and table[255] == 65535
    assert all(a <= b for a, b in zip(table, table[1:]))
    assert table[128] < 65535 * 0.2       # mid-grey asks for about a sixth of the light
    assert abs(table[128] - 65535 * (128 / 255) ** 2.6) <= 1


def test_brightness_orders_levels_and_scales_light():
    leds = LedOutput(BMAP)
    by_brightness = {}
    for b in (0, 1, 24, 64, 128, 200, 255):
        leds.brightness = b
        by_brightness[b] = [leds.level(v) for v in range(256)]
        levels = by_brightness[b]
        assert levels[0] == 0
        assert all(x <= y for x, y in zip(levels, levels[1:])), b   # gamma keeps order
    assert by_brightness[0] == [0] * 256
    assert by_brightness[255][255] == 255 and by_brightness[128][255] == 128
    assert by_brightness[24][255] == 24
    for v in range(256):                   # more brightness never dims a value
        column = [by_brightness[b][v] for b in sorted(by_brightness)]
        assert column == sorted(column)
    # Gamma before brightness: half brightness halves the light of every colour.
    for v in (64, 128, 200, 255):
        assert abs(by_brightness[128][v] - by_brightness[255][v] / 2) <= 1.5
    # A lit channel stays lit at any brightness above 0 (dim hints stay visible).
    assert all(by_brightness[1][v] >= 1 for v in range(1, 256))
    with pytest.raises(ValueError):
        leds.brightness = 256


def test_colour_order_grb():
    leds = LedOutput(BMAP)
    lit(leds, 0, (255, 128, 0))            # A1: LED 0
    assert leds.render()
    assert leds.wire[0:3] == bytes((leds.level(128), 255, 0))   # G, R, B on the wire


@pytest.mark.parametrize("order", ["RGB", "GRB", "BRG", "BGR", "RBG", "GBR"])
def test_every_colour_order(order):
    leds = LedOutput(board(colour_order=order))
    lit(leds, 0, (255, 128, 64))
    leds.render()
    wanted = {"R": 255, "G": leds.level(128), "B": leds.level(64)}
    assert list(leds.wire[0:3]) == [wanted[ch] for ch in order]


def test_rgbw_leave_white_dark():
    leds = LedOutput(board(led_type="SK6812-RGBW", colour_order="GRBW"))
    assert len(leds.wire) == 61 * 4
    lit(leds, 60, (255, 255, 255))
    leds.render()
    o = BMAP.led_of_cell[60] * 4
    assert list(leds.wire[o:o + 4]) == [255, 255, 255, 0] and leds.scale == 4096


def test_chain_order_follows_the_board_map():
    leds = LedOutput(BMAP)
    for cell in range(61):
        leds.frame[:] = bytes(183)
        lit(leds, cell, (255, 0, 0))
        leds.render()
        led = BMAP.led_of_cell[cell]
        assert [i for i, v in enumerate(leds.wire) if v] == [led * 3 + 1], cell


def test_full_white_is_capped_to_the_budget():
    leds = LedOutput(BMAP)
    leds.frame[:] = b"\xff" * 183
    leds.render()
    assert leds.unscaled_ma == 3721      # 61 x (1 + 3 x 20) mA: about 3.7 A
    assert leds.ma <= 500 and wire_ma(BMAP, leds.wire) <= 500
    assert leds.ma >= 480                # and not needlessly dark
    assert len(set(leds.wire)) == 1      # scaled as a whole: white stays white
    assert leds.scale < 4096


def test_within_budget_is_not_scaled():
    leds = LedOutput(BMAP)
    for cell in range(6):
        lit(leds, cell, (255, 255, 255))
    leds.render()
    assert leds.scale == 4096 and leds.ma == leds.unscaled_ma == 61 + 6 * 60
    assert leds.wire.count(255) == 18


def test_cap_keeps_proportions():
    leds = LedOutput(BMAP)
    for cell in range(61):
        lit(leds, cell, (255, 128, 0))
    leds.render()
    assert leds.ma <= 500 < leds.unscaled_ma
    o = BMAP.led_of_cell[0] * 3
    g, r = leds.wire[o], leds.wire[o + 1]
    assert abs(g / r - leds.level(128) / 255) < 0.1


@settings(max_examples=200)
@given(st.integers(0, 255), st.integers(62, 4000), st.integers(0, 2**32 - 1))
def test_random_frames_never_exceed_the_budget(brightness, budget, seed):
    bmap = board(current_budget_ma=budget)
    leds = LedOutput(bmap, brightness=brightness)
    rng = random.Random(seed)
    density = rng.random()
    for i in range(183):
        leds.frame[i] = rng.randrange(256) if rng.random() < density else 0
    leds.render()
    assert leds.ma <= budget
    assert wire_ma(bmap, leds.wire) <= budget
    assert leds.ma >= wire_ma(bmap, leds.wire)          # the estimate rounds up
    if leds.unscaled_ma <= budget:
        assert leds.scale == 4096 and leds.ma == leds.unscaled_ma
    assert leds.unscaled_ma == frame_ma(bmap, leds)


def test_render_reports_changes():
    frame = bytearray(183)
    leds = LedOutput(BMAP, frame)
    assert leds.frame is frame                 # the controller writes it in place
    assert leds.render()                       # the first frame always goes out
    assert not leds.render()
    frame[30 * 3 + 2] = 200
    assert leds.render() and not leds.render()
    leds.brightness = 64
    assert leds.render()
    leds.brightness = 64
    assert not leds.render()


def test_the_wire_handed_out_is_never_written_again():
    """Double buffering: a render composes into the spare buffer, never into the one shown."""
    leds = LedOutput(BMAP)
    lit(leds, 5, (200, 100, 50))
    assert leds.render()
    shown = leds.wire
    kept = bytes(shown)
    for k in range(5):
        lit(leds, k, (255, 255, 255))
        leds.frame[:] = b"\xff" * 183       # and over the budget
        assert leds.render()
        assert bytes(shown) == kept and leds.wire is not shown
        shown, kept = leds.wire, bytes(leds.wire)
        leds.frame[:] = bytes(183)
        assert leds.render() and bytes(shown) == kept
        shown, kept = leds.wire, bytes(leds.wire)


def test_unscaled_draw_follows_the_brightness():
    leds = LedOutput(BMAP)
    leds.render()
    assert leds.unscaled_ma == leds.ma == 61
    leds.frame[:] = b"\xff" * 183
    leds.render()
    assert leds.unscaled_ma == 3721
    leds.brightness = 128
    leds.render()
    assert leds.unscaled_ma == 61 + (183 * 128 * 20 + 254) // 255


def test_frame_of_wrong_size_is_refused():
    with pytest.raises(ValueError):
        LedOutput(BMAP, bytearray(180))
