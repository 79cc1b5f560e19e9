"""The saves' directory compacted while the players think (gameboard/app.py, _PAD_*): littlefs
erases a sector about every 16th save, which stops a Pico's loop for about 80 ms; once the
switches have been still 1 s, the last save is written again until a save takes that long,
so the erase falls there and not on a placement. Simulated: a write that erases is one that
advances the board's clock by 45 ms."""

import pytest

from host_sim.simboard import SimBoard


@pytest.fixture
def board():
    with SimBoard(strict=True) as b:
        b.advance(1200)
        yield b


def record_writes(board, erase_at=()):
    """Every line the firmware writes to game.sav, in order; the writes numbered in
    `erase_at` take 45 ms, as a compaction does on a Pico."""
    saves = board.app.saves
    write = saves._write
    lines = []

    def timed(line):
        lines.append(line)
        if len(lines) in erase_at:
            board.clock.advance_us(45_000)
        return write(line)

    saves._write = timed
    return lines


def play(board, placements):
    """`placements` legal placements, each flip done, at a player's pace (under 1 s apart)."""
    game = board.app.controller
    for _ in range(placements):
        board.place(game.name(sorted(game.game.legal_moves)[0]), rest_ms=350)
        for cell in game.flips_pending():
            board.flip(cell)
        board.advance(100)
    assert game.referee.ready


def test_no_padding_while_the_players_move(board):
    lines = record_writes(board)
    play(board, 8)
    writes = len(lines)
    board.advance(400)              # the last disk went down 450 ms before: not yet 1 s still
    assert len(lines) == writes
    assert board.app.commits >= 6
    board.advance(600)
    assert len(lines) > writes


def test_the_last_save_is_written_again_when_still_until_a_save_erases(board):
    lines = record_writes(board, erase_at=(12,))
    play(board, 5)
    saved = len(lines)
    assert 6 <= saved < 12
    board.advance(1500)
    assert len(lines) == 12                 # padded up to the write that erased, then no more
    assert set(lines[saved - 1:]) == {lines[saved - 1]}   # the same line again: nothing changes
    assert board.app.commits == 0
    board.advance(3000)
    assert len(lines) == 12


def test_a_file_system_that_never_erases_is_padded_a_bounded_number_of_times(board):
    lines = record_writes(board)
    play(board, 5)
    board.advance(5000)
    padded = len(lines)
    board.advance(5000)
    assert len(lines) == padded and board.app.commits == 24
    play(board, 1)                          # real saves go on as ever
    assert len(lines) > padded



def test_no_padding_in_the_step_whose_poll_saw_a_disk_move(board):
    """A switch change handed on by a poll late in a step (after a long phase) is as recent
    as that poll: the step does not take it for 2**30 ms of stillness and pad the save."""
    play(board, 7)
    board.advance(1200)               # padded while still, as it should be
    app = board.app
    cell = next(c for c in board.disks if c != app.controller.game.peek())
    board.lift(cell, hold_ms=1)       # seen by a scan; its debounce (10 ms) has begun
    board.clock.advance(5)            # the loop busy elsewhere
    app.commits = 6                   # a still second from now would pad again
    lines = record_writes(board)
    tick = app.tick

    def slow_tick(now):
        mode = tick(now)
        board.clock.advance(4)        # the lift's debounce ends during this phase
        return mode

    app.tick = slow_tick
    app.step()
    app.tick = tick
    assert app.changes and app.active_at > board.clock.ticks_ms() - 5   # the poll saw it
    assert lines == [], "padded in the step that saw %s leave" % board.layout.cell_name(cell)
