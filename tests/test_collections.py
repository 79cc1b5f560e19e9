"""Garbage collections out of the placements' steps (gameboard/app.py): once the switches have
been still 600 ms, and for players who never pause, every 24 switch changes in a step that
did little else just after a change (a hand does not move again so soon), so MicroPython
never has to collect in a placement's step, nor while a disk may land."""

import pytest

from gameboard import app as app_module
from host_sim.simboard import SimBoard


class CountingGc:
    def __init__(self, board):
        self.board = board
        self.at = []           # (ms, switch changes seen by the app) of each collection

        self.when = []         # (ms since the last switch change, a switch being timed)

    def collect(self):
        app = self.board.app
        now = self.board.clock.ticks_ms()
        self.at.append(now)
        self.when.append((now - app.active_at, app.debouncer.busy()))


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



def test_a_collection_in_play_comes_just_after_a_switch_change(board):
    """The collection (13-15 ms on a Pico, no scan meanwhile) of players who never pause
    comes within 30 ms of the last change the debouncer reported, never while a switch is
    being timed, and never in the 0.4-0.7 s brisk players take between one disk and the
    next: a disk put down then would wait for it."""
    game = board.app.controller
    board.gc.when.clear()
    for n in range(30):
        board.place(game.name(sorted(game.game.legal_moves)[0]), rest_ms=320)
        for cell in game.flips_pending():
            board.flip(cell)
        board.advance(40 + 170 * (n % 5))
    assert len(board.gc.when) >= 2
    for since, busy in board.gc.when:
        assert since < 30 and not busy, board.gc.when


def test_a_board_left_still_is_collected_once_a_player_thinks(board):
    game = board.app.controller
    board.place(game.name(sorted(game.game.legal_moves)[0]), rest_ms=320)
    board.gc.when.clear()
    board.advance(2900 - (board.clock.ticks_ms() - board.app.active_at))
    assert board.gc.when == []
    board.advance(200)
    assert len(board.gc.when) == 1 and board.gc.when[0][0] >= 3000
