"""Garbage collections out of the placements' steps (gameboard/app.py): once the switches have
been still 600 ms, and for players who never pause, every 24 switch changes in a step that
did little else, so MicroPython never has to collect in a placement's step."""

import pytest

from gameboard import app as app_module
from host_sim.simboard import SimBoard


class CountingGc:
    def __init__(self, board):
        self.board = board
        self.at = []           # (ms, switch changes seen by the app) of each collection

    def collect(self):
        self.at.append(self.board.clock.ticks_ms())


@pytest.fixture
def board(monkeypatch):
    with SimBoard(strict=True) as b:
        gc = CountingGc(b)
        monkeypatch.setattr(app_module, "gc", gc)
        b.advance(1200)
        b.gc = gc
        yield b


def test_players_who_never_pause_get_collections_between_their_moves(board):
    board.gc.at.clear()
    changes = []
    step = board.app.step

    def counted():
        before = board.app.changes
        step()
        changes.append(before)
    board.app.step = counted
    game = board.app.controller
    for _ in range(30):
        board.place(game.name(sorted(game.game.legal_moves)[0]), rest_ms=320)
        for cell in game.flips_pending():
            board.flip(cell)
        board.advance(60)
    assert len(board.gc.at) >= 2                    # at least every 24 switch changes
    assert max(changes) <= 24 + 4                   # never far past that
