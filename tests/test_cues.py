"""Cues that cannot be confused (docs/board.md, "Telling the cues apart"): the turn corners,
the legal moves, the computer's choice and suggestions, a waiting disk, a refusal, a flip to
make, a disk to put back, the claims' answers and the new game's question, each as the
firmware's painter paints it, for both palettes at every brightness
(hardware/generate/seen/cues.py).

Issue: the turn corners pulsed in the legal moves' glow (LED 0, 2, 14), so a new player placed
on I9 and A5 while they were lit and was refused twice; on the card the two samples were the
same dark blue. With the painter and palette of before, `clashes` finds 36 pairs closer than
MIN_DELTA_E that timing cannot tell apart, the corners and the legal moves among them.
"""

from pathlib import Path

import pytest

import iago
from gameboard import palette
from gameboard.settings import Settings
from hardware.generate.seen import cues, eye
from test_controller import Table, pal

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def measured():
    return cues.measure()


def test_no_two_cues_lit_at_once_look_alike(measured):
    found, lit = measured
    clashes = cues.clashes(found)
    assert clashes == [], "\n".join(
        "%.1f %s: %s [%s] / %s [%s]" % (de, name, lit[a].name, lit[a].pattern(), lit[b].name,
                                        lit[b].pattern()) for (a, b), name, de in clashes)
    # Something was compared at all, in both palettes, at every reading.
    assert len(found) >= 20 and all(set(worst) == {"standard", "colour-blind"}
                                    for worst in found.values())


def test_the_rule_finds_the_turn_corners_of_before():
    """A steady cue has only its colour: the 250 ms pulse in the same glow clashes with it
    (at 0.0), and so would a pulse of 200 ms; two 100 ms flashes do not."""
    legal = cues.Cue("legal move", False, [(palette.HINT_DARK, 1500)])
    before = cues.Cue("turn corner", False, [(palette.HINT_DARK, 250), (palette.OFF, 1250)])
    assert cues.compared_phases(legal, before) == [[(palette.HINT_DARK, palette.HINT_DARK)]]
    table = cues.delta_table(palette.STANDARD, 128, None)
    assert table[palette.HINT_DARK][palette.HINT_DARK] == 0 < cues.MIN_DELTA_E
    glance = cues.Cue("turn corner", False, [(palette.HINT_DARK, 200), (palette.OFF, 1300)])
    assert cues.compared_phases(legal, glance)
    now = cues.Cue("turn corner", False, [(palette.DARK, 100), (palette.OFF, 100),
                                         (palette.DARK, 100), (palette.OFF, 1200)])
    assert cues.compared_phases(legal, now) == []
    # Two cues of one timing are compared phase by phase, in their best alignment.
    a = cues.Cue("a disk belongs here", False, [(palette.DARK, 400), (palette.OFF, 400)])
    b = cues.Cue("computer's choice", False, [(palette.HINT_DARK, 400), (palette.DARK, 400)])
    assert [(palette.DARK, palette.DARK), (palette.OFF, palette.HINT_DARK)] in \
        cues.compared_phases(a, b)
    # A disk on one hex and not the other tells them apart.
    assert cues.compared_phases(cues.Cue("x", True, a.runs), b) == []


def test_every_cue_of_the_table_is_measured(measured):
    names = {cue.name for cue in measured[1].values()}
    assert set(cues.TABLE_CUES) <= names


def test_the_patterns_are_the_painters(measured):
    looks = {}
    for cue in measured[1].values():
        looks.setdefault(cue.name, set()).add(cue.runs)
    dark, light = palette.DARK, palette.LIGHT
    assert ((dark, 100), (palette.OFF, 100), (dark, 100), (palette.OFF, 1200)) in \
        looks["turn corner"]
    assert ((palette.HINT_DARK, 125), (dark, 125)) in looks["computer's choice"]
    assert looks["legal move"] == {((palette.HINT_DARK, 25),), ((palette.HINT_LIGHT, 25),)}
    assert ((light, 400), (palette.OFF, 400)) in looks["a disk put down early, waiting"]
    assert looks["claim refused"] == {((palette.ERROR, 25),)}       # steady, not a blink


def test_docs_board_md_has_the_measured_table(measured):
    table = cues.table(*measured)
    assert table in (ROOT / "docs" / "board.md").read_text(), table


def test_runs_of_a_sampled_pattern():
    seq = [1, 1, 0, 0, 0, 0, 0, 0] * 3
    assert cues.runs_of(seq) == [(1, 2 * cues.STEP_MS), (0, 6 * cues.STEP_MS)]
    assert cues.runs_of([5] * 12) == [(5, cues.STEP_MS)]
    assert cues.runs_of([0, 2, 0, 2, 0, 0, 0, 0] * 2) == [
        (2, 25), (0, 25), (2, 25), (0, 125)]


@pytest.mark.parametrize("miss, colour", [(True, palette.SETTING_ON), (False, palette.ERROR)])
def test_a_penalty_claims_answer_is_steady_on_the_tapped_disk(miss, colour):
    """Issue: a refused claim blinked fast red on the tapped disk, as a disk to lift does:
    now each answer is steady for its 0.6 s (gameboard/controller.py, claim)."""
    table = Table(Settings(rules="standard", penalty=True))
    last = "B2" if miss else "D6"                    # D6 takes D5; B2 misses that capture
    for name in ("D4", "D5", last):
        table.place(name)
    table.do_flips()
    table.lift(last, hold=100)
    table.ctl.switch(iago.parse_cell(last), True, table.now)        # tapped: a claim
    assert [e["granted"] for e in table.ctl.outbox if e["event"] == "claim"] == [miss]
    assert {table.colour(last, table.now + t) for t in range(0, 550, 25)} == {pal(colour)}


def test_the_colour_model_is_the_captive_tests():
    # One model of what the eye sees: hardware/generate/seen/eye.py, as
    # tests/test_captive_colour.py.
    assert eye.delta_e((255, 0, 0), (255, 0, 0)) == 0
    assert eye.delta_e((0, 0, 255), (0, 0, 24)) > 20


def test_the_docs_table_is_what_the_firmware_gives(tmp_path, monkeypatch, capsys):
    """docs/board.md's cue table, as python -m hardware.generate.seen prints it (and
    `make hardware-check` checks it; the score's picture is checked with the other generated
    files, tests/test_hardware_generated.py)."""
    from hardware.generate.seen import __main__ as seen
    assert seen.main([]) == 0
    table = capsys.readouterr().out
    stale = tmp_path / "board.md"
    stale.write_text(seen.BOARD_MD.read_text().replace(table.strip().splitlines()[-1], ""))
    monkeypatch.setattr(seen, "BOARD_MD", stale)
    assert seen.main([]) == 1
