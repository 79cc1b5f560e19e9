"""The complete-game benchmark's scenarios (tests/bench/pico_games.py), checked on the simulated
board: the emulated Pico is only needed to time them, not to know they are right."""

import sys
from pathlib import Path

import pytest

import iago
from host_sim.simboard import SimBoard

sys.path.insert(0, str(Path(__file__).resolve().parent / "bench"))
import pico_games  # noqa: E402


def replay(events):
    """Apply a board-emu scenario to a SimBoard (times after its start-up event); every
    message the board sent after start-up."""
    board = SimBoard()
    try:
        received = []
        while not any(m.get("event") == "startup" for m in received):
            board.advance(10)
            received += board.received()
        now = 0.0
        for event in sorted(events, key=lambda e: e["t_ms"]):
            board.advance(event["t_ms"] - now)
            now = event["t_ms"]
            if event["action"] == "send":
                board.send(event["data"].strip())
                continue
            cell = iago.parse_cell(event["cell"])
            if event["action"] == "place":
                board.disks[cell] = "D"     # a reed switch cannot tell faces apart
            else:
                del board.disks[cell]
            board._switch_changed(cell, event["action"] == "place")
        board.advance(1000)
        return board.received()
    finally:
        board.close()


@pytest.mark.parametrize("pace", ["brisk", "slow"])
def test_a_laid_out_game_plays_to_its_end(pace):
    moves = pico_games.play_game(3)
    events, plan = pico_games.lay_out(moves, pico_games.PACES[pace], 11)
    assert [m["t_ms"] for m in plan["moves"]] == sorted(m["t_ms"] for m in plan["moves"])
    assert len(plan["flips"]) == sum(len(f) for _, _, f in moves)
    assert plan["probes"]
    received = replay(events)
    played = [m["cell"] for m in received if m.get("event") == "move"]
    assert played == [iago.cell_name(c) for c, _, _ in moves]
    assert any(m.get("event") == "game_over" for m in received)
    # The simulated flash takes no time, so the board sees every probe.
    lifted = [m["cell"] for m in received if m.get("event") == "lifted"]
    assert len(lifted) == len(plan["flips"]) + len(plan["probes"])


def test_brisk_placements_follow_the_last_flip_within_140_ms():
    moves = pico_games.play_game(2)
    events, plan = pico_games.lay_out(moves, pico_games.PACES["brisk"], 5, probes=False)
    lasts = {}
    for lift, back in plan["flips"]:
        lasts[lift] = events[back]["t_ms"]
    for before, after in zip(plan["moves"], plan["moves"][1:]):
        backs = [t for i, t in lasts.items() if before["event"] < i < after["event"]]
        gap = after["t_ms"] - (max(backs) if backs else before["t_ms"])
        if backs and max(backs) >= before["t_ms"] + 350:
            assert 50 <= gap <= 140
        elif not backs:
            assert 400 <= gap <= 700


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert pico_games.percentile(values, 50) == 50
    assert pico_games.percentile(values, 95) == 95
    assert pico_games.percentile([7.0], 95) == 7.0
    assert pico_games.spread([3.0, 1.0, 2.0]) == (1.0, 2.0, 3.0, 3.0)
