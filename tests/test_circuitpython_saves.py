"""The game in progress on CircuitPython (gameboard/cpsaves.py): its power-cut guarantee,
tested by tearing every flash operation of every kind of save.

The guarantee (docs/circuitpython.md): a cut at any instant leaves the last save or the one
being written, except while the log starts anew (a full sector, or the rewrite while the
players think): a cut during that sector's erase, or before the new record's own page is
programmed, loses the game, which the board then reports and replaces by a new game. Never
a wrong game, never a game with a move the players did not settle.
"""

import json
import random

import pytest

import iago
from gameboard.cpsaves import NvmSaves
from gameboard.saves import SaveError
from gameboard.settings import Settings
from host_sim.fakes.microcontroller import PAGE, Nvm, PowerCut


def a_game(seed, plies):
    """A list of (moves so far, flips pending) after each placement of a random game."""
    rng = random.Random(seed)
    board = iago.Board()
    states = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
        states.append((list(board.move_stack), []))
    return states


def board_of(moves):
    board = iago.Board()
    for cell in moves:
        board.push(cell)
    return board


def fresh(root, nvm):
    """The saves of a board that has just started (and read its saved game, as App does)."""
    saves = NvmSaves(root, nvm)
    saves.load()
    return saves


def load_moves(root, nvm):
    """What a board starting now reads: its move list, None (no game), or "lost"."""
    saves = NvmSaves(root, nvm)
    try:
        loaded = saves.load()
    except SaveError as exc:
        assert "torn" in str(exc) or "damaged" in str(exc)
        # Reported once: the next start finds nothing, never the damaged game.
        assert NvmSaves(root, nvm).load() is None
        return "lost"
    return None if loaded is None else list(loaded[1].move_stack)


def test_an_erased_sector_holds_no_game_and_a_save_reads_back(tmp_path):
    nvm = Nvm()
    saves = NvmSaves(str(tmp_path), nvm)
    assert saves.load() is None
    saves.save(Settings(), board_of([29, 31]), [])
    assert load_moves(str(tmp_path), nvm) == [29, 31]
    assert nvm.erases == 0 and nvm.pages == 1          # programmed, not erased


def test_saves_append_until_the_sector_is_full_then_start_anew(tmp_path):
    nvm = Nvm()
    saves = fresh(str(tmp_path), nvm)
    states = a_game(1, 60)
    for moves, flips in states:
        saves.save(Settings(), board_of(moves), flips)
        assert load_moves(str(tmp_path), nvm) == moves
    assert saves.rollovers >= 1 and nvm.erases == saves.rollovers
    found, end = saves.records()
    assert found[-1][1] == saves._last.encode() and end == saves._end


def test_save_again_starts_the_log_anew_only_when_it_holds_more_than_the_last_save(tmp_path):
    nvm = Nvm()
    saves = fresh(str(tmp_path), nvm)
    saves.save_again()                                  # nothing saved yet: nothing
    saves.save(Settings(), board_of([29]), [])
    saves.save_again()                                  # only the last save: nothing
    assert nvm.erases == 0
    saves.save(Settings(), board_of([29, 31]), [])
    saves.save_again()
    assert nvm.erases == 1 and len(saves.records()[0]) == 1
    assert load_moves(str(tmp_path), nvm) == [29, 31]


def _every_tear(tmp_path, seed, again_every):
    """Play a game, saving after every placement (and the rewrite every `again_every`
    saves); for every save, tear each of its flash operations in turn on a copy of the
    flash, and read what a board starting then finds. Returns the outcomes."""
    nvm = Nvm()
    root = str(tmp_path)
    saves = fresh(root, nvm)
    outcomes = {"old": 0, "new": 0, "lost": 0}
    previous = None
    for i, (moves, flips) in enumerate(a_game(seed, 60)):
        for rewrite in ((False, True) if i % again_every == again_every - 1 else (False,)):
            kept = (bytes(nvm.flash), saves._end, saves._records, saves._last)
            before = nvm.erases + nvm.pages
            starts = saves.rollovers
            if rewrite:
                saves.save_again()
            else:
                saves.save(Settings(), board_of(moves), flips)
            operations = nvm.erases + nvm.pages - before
            rolled = saves.rollovers > starts
            done = bytes(nvm.flash)
            new = moves
            old = previous if not rewrite else moves
            record_pages = (len(saves._last) + 3 + PAGE - 1) // PAGE
            for k in range(1, operations + 1):
                torn = Nvm()
                torn.flash[:] = kept[0]
                torn.tear_after(k, random.Random(k))
                copy = NvmSaves(root, torn)
                copy._end, copy._records, copy._last = kept[1:]
                with pytest.raises(PowerCut):
                    if rewrite:
                        copy.save_again()
                    else:
                        copy.save(Settings(), board_of(moves), flips)
                found = load_moves(root, torn)
                if found == "lost":
                    # Only a cut in the erase or in the new record's own pages (or in the
                    # first save of all, which had no game to lose, and says so).
                    assert (rolled and k <= 1 + record_pages) or old is None, (i, k, old)
                    outcomes["lost"] += 1
                elif found == new:
                    outcomes["new"] += 1
                else:
                    assert found == old, (i, k, found, old, new)
                    outcomes["old"] += 1
            assert bytes(nvm.flash) == done
        previous = moves
    return outcomes


def test_a_cut_in_any_flash_operation_of_an_append_keeps_the_old_save_or_the_new(tmp_path):
    outcomes = _every_tear(tmp_path, seed=2, again_every=1000)
    assert outcomes["old"] and outcomes["new"]
    # Appends never lose the game; the few forced roll-overs of a full sector may.
    assert outcomes["lost"] <= 3 * 4


def test_a_cut_while_the_log_starts_anew_loses_the_game_only_in_its_erase(tmp_path):
    outcomes = _every_tear(tmp_path, seed=3, again_every=6)
    assert outcomes["lost"] and outcomes["old"] and outcomes["new"]


def test_a_torn_erase_is_reported_and_the_next_save_starts_a_clean_log(tmp_path):
    nvm = Nvm()
    root = str(tmp_path)
    saves = fresh(root, nvm)
    saves.save(Settings(), board_of([29]), [])
    saves.save(Settings(), board_of([29, 31]), [])
    nvm.tear_after(1, random.Random(5))
    with pytest.raises(PowerCut):
        saves.save_again()
    again = NvmSaves(root, nvm)
    with pytest.raises(SaveError, match="torn by a power cut"):
        again.load()
    assert again.load() is None                 # set aside: reported once
    again.save(Settings(), board_of([29]), [])
    assert load_moves(root, nvm) == [29]


def test_a_save_of_another_game_is_set_aside_once(tmp_path):
    from gameboard.layout import Layout
    nvm = Nvm()
    root = str(tmp_path)
    NvmSaves(root, nvm).save(Settings(), board_of([29]), [])
    square = Layout("square", 8)
    with pytest.raises(SaveError, match="this board plays othello"):
        NvmSaves(root, nvm).load(square)
    assert NvmSaves(root, nvm).load(square) is None


def test_a_line_too_long_for_the_sector_fails_as_a_full_flash(tmp_path):
    class Huge:
        GAME = "iago"
        start_text = "x" * 5000
        move_stack = []
        claims = []
    saves = NvmSaves(str(tmp_path), Nvm())
    with pytest.raises(OSError):
        saves.save(Settings(), Huge(), [])


def test_a_drive_the_firmware_may_not_write_still_saves_the_game(tmp_path):
    """select held at power-on (boot.py): the drive stays the computer's, read-only to the
    firmware; the game in progress is in nvm all the same."""
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o500)
    try:
        nvm = Nvm()
        saves = fresh(str(tmp_path / "ro" / "sub"), nvm)
        saves.save(Settings(), board_of([29]), [])
        assert NvmSaves(str(tmp_path / "ro" / "sub"), nvm).load()[1].move_stack == [29]
    finally:
        (tmp_path / "ro").chmod(0o700)


def test_the_simulated_board_reports_a_torn_erase_and_asks_for_the_old_disks_off():
    from host_sim.simboard import SimBoard
    with SimBoard(runtime="circuitpython") as board:
        board.advance(1300)
        board.place("E4")
        board.advance(600)
        board.app.saves._end = None               # the next save starts the log anew
        board.nvm.tear_after(1)                   # and the power goes in its erase
        board.place("E6")
        board.advance(600)
        assert not board.powered
        board.power_on()
        board.advance(1300)
        assert board.save_lost
        errors = [m for m in board.received() if m.get("event") == "save_error"]
        assert errors and "torn by a power cut" in errors[0]["error"]
        state = board.command({"cmd": "state"})["state"]
        assert state["moves"] == [] and sorted(state["extra"]) == ["E4", "E6"]


def test_a_game_sav_on_the_drive_is_read_when_nvm_is_empty_and_removed_once_saved(tmp_path):
    from gameboard.saves import Saves
    root = str(tmp_path) + "/"
    Saves(root).save(Settings(), board_of([29, 31]), [])     # as MicroPython writes it
    nvm = Nvm()
    saves = NvmSaves(root, nvm)
    assert list(saves.load()[1].move_stack) == [29, 31]
    assert (tmp_path / "game.sav").exists()                 # until the game is in nvm
    saves.save(Settings(), board_of([29, 31, 22]), [])
    assert not (tmp_path / "game.sav").exists()
    assert load_moves(root, nvm) == [29, 31, 22]
    (tmp_path / "game.sav").write_text("not a save\n")      # nvm holds a game: ignored
    assert load_moves(root, nvm) == [29, 31, 22]
    with pytest.raises(SaveError, match="set aside as game.bad"):
        NvmSaves(root, Nvm()).load()                        # damaged, nvm empty
    assert (tmp_path / "game.bad").exists()


def test_set_aside_moves_the_game_in_nvm_to_game_bad_and_leaves_nothing_saved(tmp_path):
    root = str(tmp_path) + "/"
    nvm = Nvm()
    saves = fresh(root, nvm)
    assert not saves.set_aside()                            # nothing saved: nothing moved
    saves.save(Settings(), board_of([29, 31]), [])
    assert NvmSaves(root, nvm).set_aside()
    assert load_moves(root, nvm) is None
    assert (tmp_path / "game.bad").read_bytes().startswith(b"2|iago|")
    assert nvm.erases == 0                                  # a tombstone appended, no erase


def test_a_saved_game_that_crashes_every_start_is_set_aside_on_circuitpython(tmp_path,
                                                                              monkeypatch):
    """As on MicroPython (tests/test_damaged_flash.py): code.py's app.main on CircuitPython's
    fakes restarts into the saved game in nvm; the second quick restart in a row sets it aside
    (reported), and the board plays a new game."""
    from test_circuitpython import MAP_FILE, Pico
    from test_damaged_flash import Stop, stop_after

    from gameboard import app, archive, controller
    from host_sim.fakes import keypad, microcontroller, usb_cdc
    from host_sim.fakes.machine import PWRON_RESET, WDT_RESET, MachineReset, SoftReset

    pico = Pico()
    # The CircuitPython layer, as start.hardware() picks it there (tests/test_circuitpython.py);
    # sys.implementation stays CPython's, so the host keeps the modules the firmware forgets.
    from gameboard import start as starting
    monkeypatch.setattr(starting, "hardware", lambda: pico.hw)
    root = str(tmp_path) + "/"
    sent = []
    tick = controller.Controller.tick

    def crashes_on_a_saved_game(self, now):
        if self.game.ply():
            raise ZeroDivisionError("a saved game the firmware cannot take")
        tick(self, now)

    def start(cause):
        pico.circuit.reset(cause)
        microcontroller.boot(cause == PWRON_RESET)
        keypad.boot()
        usb_cdc.enable(console=True, data=True)
        usb_cdc.data.on_write = lambda data: sent.append(data.decode())
        pico.hw.clock = pico.hw.Clock()
        hooks = list(pico.clock.sleep_hooks)
        stop_after(pico.clock, 15_000)
        try:
            app.main(root, str(MAP_FILE))
        except SoftReset:
            return "reload"
        except MachineReset as reset:
            assert reset.cause == WDT_RESET     # microcontroller.reset()'s path in the fakes
            return "reset"
        except Stop:
            return "stopped"
        finally:
            pico.clock.sleep_hooks[:] = hooks
        return "returned"

    try:
        assert start(PWRON_RESET) == "reload"          # the first start checks the map
        NvmSaves(root, microcontroller.nvm).save(Settings(), board_of([29, 31]), [])
        monkeypatch.setattr(controller.Controller, "tick", crashes_on_a_saved_game)
        ends = [start(PWRON_RESET)]        # a reload keeps the last reset's reason
        while ends[-1] == "reset" and len(ends) < 8:
            ends.append(start(WDT_RESET))
        assert ends == ["reset"] * archive._SET_ASIDE_AFTER + ["stopped"]
        assert NvmSaves(root, microcontroller.nvm).load() is None
        assert (tmp_path / "game.bad").exists() and not (tmp_path / "restarts").exists()
        reports = [json.loads(line)["error"] for line in "".join(sent).splitlines()
                   if '"save_error"' in line]
        assert len(reports) == 1 and "set aside as game.bad" in reports[0]
        assert "ZeroDivisionError" in (tmp_path / "error.log").read_text()
    finally:
        pico.uninstall()
