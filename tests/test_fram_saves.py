"""The game in progress on the FRAM (gameboard/framsaves.py): a power cut after any byte of
a save, the flash's game carried over, the FRAM failing mid-game, a game surviving the
flash's loss, on both runtimes' simulated boards and under MicroPython."""

import json
import os
import random
from pathlib import Path

import pytest

import iago
from gameboard import archive, boardmap
from gameboard.framsaves import FramSaves
from gameboard.saves import SaveError, Saves
from gameboard.settings import Settings
from host_sim.fakes.fram import FramChip, FramPowerCut
from host_sim.simboard import SimBoard

ROOT = Path(__file__).resolve().parent.parent
RUNTIMES = ("micropython", "circuitpython")


class Device:
    """framsaves' byte device on the fake chip, as gameboard/hw.py's Fram is on machine.I2C."""

    def __init__(self, chip):
        self.chip = chip

    def read_into(self, at, buf):
        self.chip.read(at, buf, 1000000)

    def write(self, at, data):
        self.chip.write(at, data, 1000000)


def games(seed, count):
    """Boards after each save of a game: a placement a save, a take-back every fifth."""
    rng = random.Random(seed)
    board = iago.Board()
    out = []
    while len(out) < count:
        if len(out) % 5 == 4 and board.move_stack:
            board.pop()
        elif not board.is_game_over():
            board.push(rng.choice(sorted(board.legal_moves)))
        out.append(list(board.move_stack))
    return out


def board_of(moves):
    board = iago.Board()
    for cell in moves:
        board.push(cell)
    return board


def started(root, chip):
    """The saves of a board that starts now, and what it read (a move list or None)."""
    saves = FramSaves(Saves(str(root)), Device(chip))
    loaded = saves.load()
    return saves, None if loaded is None else list(loaded[1].move_stack)


def test_a_cut_after_any_byte_of_any_save_leaves_the_old_game_or_the_new(tmp_path):
    """Twelve saves (a take-back among them), each cut after every one of its bytes: the
    board then reads the save before it, or the new one once its last byte is written; and
    the next save after the cut reads back."""
    chip = FramChip()
    saves, _ = started(tmp_path, chip)
    sequence = games(3, 12)
    old = None
    cuts = 0
    for moves in sequence:
        record = len(saves.line(Settings(), board_of(moves), ()).encode()) + 12
        kept = bytes(chip.data)
        for n in range(record + 1):
            chip.data[:] = kept
            saves, _ = started(tmp_path, chip)
            chip.cut_after(n)
            try:
                saves.save(Settings(), board_of(moves), ())
                assert n == record
            except FramPowerCut:
                assert n < record
            chip.cut_after(None)
            saves, read = started(tmp_path, chip)
            assert read == (moves if n == record else old), (moves, n)
            cuts += 1
            saves.save(Settings(), board_of(moves + [0][:0]), ())   # saving goes on
            assert started(tmp_path, chip)[1] == moves
        chip.data[:] = kept
        saves, _ = started(tmp_path, chip)
        saves.save(Settings(), board_of(moves), ())
        old = moves
    assert cuts > 12 * 60
    assert not (tmp_path / "game.sav").exists()      # never a byte of it on the flash


def test_the_two_slots_take_turns_and_a_damaged_slot_falls_back_to_the_other(tmp_path):
    chip = FramChip()
    saves, read = started(tmp_path, chip)
    assert read is None
    first, second = games(5, 2)
    saves.save(Settings(), board_of(first), ())
    saves.save(Settings(), board_of(second), ())
    assert started(tmp_path, chip)[1] == second
    chip.data[4096 + 20] ^= 0x01              # a bit of the newer record (slot 1) flips
    assert started(tmp_path, chip)[1] == first


def test_a_flash_game_is_carried_onto_a_newly_fitted_fram_and_removed_from_the_flash(tmp_path):
    moves = games(7, 9)[-1]
    Saves(str(tmp_path)).save(Settings(), board_of(moves), ())
    chip = FramChip()
    saves, read = started(tmp_path, chip)
    assert read == moves
    assert not (tmp_path / "game.sav").exists()
    assert started(tmp_path, chip)[1] == moves
    # A cut between the FRAM's write and the flash's removal carries it again, the same.
    Saves(str(tmp_path)).save(Settings(), board_of(moves), ())
    assert started(tmp_path, chip)[1] == moves


def test_a_damaged_flash_game_is_newer_than_the_frams_so_neither_comes_back(tmp_path):
    chip = FramChip()
    saves, _ = started(tmp_path, chip)
    saves.save(Settings(), board_of(games(2, 4)[-1]), ())
    (tmp_path / "game.sav").write_bytes(b"2|iago|garbage|00000000\n")
    with pytest.raises(SaveError):
        started(tmp_path, chip)
    assert (tmp_path / "game.bad").read_bytes() == b"2|iago|garbage|00000000\n"
    assert started(tmp_path, chip)[1] is None


def test_a_record_that_passes_its_check_but_cannot_be_played_is_set_aside(tmp_path):
    chip = FramChip()
    saves, _ = started(tmp_path, chip)
    line = saves.line(Settings(), board_of(games(2, 3)[-1]), ()).replace("iago", "othello")
    saves.write_line(line)
    with pytest.raises(SaveError, match="set aside"):
        started(tmp_path, chip)
    assert (tmp_path / "game.bad").read_text() == line
    assert started(tmp_path, chip)[1] is None


def test_a_game_that_crashes_every_start_is_set_aside_from_the_fram(tmp_path):
    chip = FramChip()
    saves, _ = started(tmp_path, chip)
    moves = games(4, 6)[-1]
    saves.save(Settings(), board_of(moves), ())
    (tmp_path / "restarts").write_text("2")
    report = archive.count_restart(saves)
    assert report and "set aside" in report
    assert (tmp_path / "game.bad").read_text() == saves.line(Settings(), board_of(moves), ())
    assert started(tmp_path, chip)[1] is None


def test_an_fram_that_fails_mid_game_hands_the_game_to_the_flash_at_once(tmp_path):
    chip = FramChip()
    saves, _ = started(tmp_path, chip)
    first, second, third = games(9, 3)
    saves.save(Settings(), board_of(first), ())
    chip.failing = True
    saves.save(Settings(), board_of(second), ())
    assert saves.store == "flash" and "FRAM failed" in saves.fallen
    assert Saves(str(tmp_path)).load()[1].move_stack == second
    saves.save(Settings(), board_of(third), ())       # the FRAM is not tried again
    assert chip.writes == 1      # the first save: the failed one, and none after
    # The next start that finds it again carries the flash's (newer) game back onto it.
    chip.failing = False
    assert started(tmp_path, chip)[1] == third
    assert not (tmp_path / "game.sav").exists()


def test_a_save_too_long_for_a_slot_fails_as_a_full_flash_would(tmp_path):
    saves, _ = started(tmp_path, FramChip())
    with pytest.raises(OSError):
        saves.write_line("x" * 4090)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_simulated_board_keeps_its_game_on_the_fram_and_never_on_the_flash(runtime):
    with SimBoard(runtime=runtime, fram=True) as board:
        board.advance(1300)
        assert board.app.saves.store == "fram"
        nvm_writes = (board.nvm.erases, board.nvm.pages) if board.nvm else None
        board.place("E4")
        board.advance(600)
        board.place("E6")
        board.advance(600)
        assert board.fram.writes == 2
        assert not os.path.exists(os.path.join(board.root, "game.sav"))
        if board.nvm:
            assert (board.nvm.erases, board.nvm.pages) == nvm_writes
        stats = board.command({"cmd": "stats"})
        assert stats["store"] == "fram" and "store_error" not in stats
        board.power_cut()
        board.power_on()
        board.advance(300)
        assert board.command({"cmd": "state"})["state"]["moves"] == ["E4", "E6"]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_game_on_the_fram_outlives_a_flash_written_anew(runtime):
    """A UF2 rewrites the whole flash (make uf2's littlefs image; CircuitPython's nvm
    sector too): the FRAM keeps the game."""
    with SimBoard(runtime=runtime, fram=True) as board:
        board.advance(1300)
        board.place("E4")
        board.advance(600)
        board.power_cut()
        for name in os.listdir(board.root):
            path = os.path.join(board.root, name)
            if os.path.isfile(path):
                os.remove(path)
        if board.nvm:
            board.nvm.flash[:] = b"\xff" * len(board.nvm.flash)
        board.power_on()
        board.advance(300)
        assert board.command({"cmd": "state"})["state"]["moves"] == ["E4"]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_an_fram_failing_mid_game_is_told_on_the_link_and_in_stats_and_loses_nothing(runtime):
    with SimBoard(runtime=runtime, fram=True) as board:
        board.advance(1300)
        board.place("E4")
        board.advance(600)
        board.fram.failing = True
        board.place("E6")
        board.advance(600)
        told = [m for m in board.received() if m.get("event") == "store"]
        assert told and told[0]["store"] == "flash" and "FRAM failed" in told[0]["error"]
        stats = board.command({"cmd": "stats"})
        assert stats["store"] == "flash" and "FRAM failed" in stats["store_error"]
        board.power_cut()
        board.power_on()            # the FRAM still dead: found missing, the flash's game
        board.advance(300)
        assert board.app.saves.store == "flash"
        assert board.command({"cmd": "state"})["state"]["moves"] == ["E4", "E6"]
        board.fram.failing = False
        board.power_cut()
        board.power_on()            # found again: the flash's game carried back
        board.advance(300)
        assert board.app.saves.store == "fram"
        assert board.command({"cmd": "state"})["state"]["moves"] == ["E4", "E6"]


def test_a_board_without_its_fram_fitted_saves_on_the_flash_as_before():
    with SimBoard() as board:
        assert board.boardmap.fram == {"sda": 18, "scl": 19}
        assert type(board.app.saves) is Saves and board.app.saves.store == "flash"


def test_the_board_map_names_the_pcbs_fram_pins_and_refuses_pins_of_no_i2c_block():
    import tomllib
    pcb = tomllib.loads((ROOT / "hardware" / "pcb" / "pcb.toml").read_text())["fram"]
    bmap = boardmap.load(str(ROOT / "hardware" / "board.json"))
    assert bmap.fram == {"sda": pcb["sda_gpio"], "scl": pcb["scl_gpio"]}
    data = json.loads((ROOT / "hardware" / "board.json").read_text())
    for wrong in ({"sda": 19, "scl": 18}, {"sda": 18, "scl": 17}, {"sda": 18},
                  {"sda": 8, "scl": 9}, []):
        data["fram"] = wrong
        with pytest.raises(boardmap.BoardMapError, match="fram|GP8"):
            boardmap.check(data)


@pytest.mark.micropython
def test_a_cut_after_any_byte_leaves_the_old_game_or_the_new_under_micropython(tmp_path):
    """The store's own code under the unix MicroPython VM: every cut of three saves."""
    import mpvm
    program = """
import iago
from gameboard.framsaves import FramSaves
from gameboard.saves import Saves
from gameboard.settings import Settings

class Cut(Exception):
    pass

class Device:
    def __init__(self):
        self.data = bytearray(32768)
        self.cut = -1
    def read_into(self, at, buf):
        buf[:] = self.data[at:at + len(buf)]
    def write(self, at, data):
        for i in range(len(data)):
            if self.cut == 0:
                raise Cut()
            self.cut -= 1
            self.data[at + i] = data[i]

def board(moves):
    b = iago.Board()
    for m in moves:
        b.push(m)
    return b

def read(dev):
    got = FramSaves(Saves(ROOT), dev).load()
    return None if got is None else list(got[1].move_stack)

dev = Device()
game = iago.Board()
old = None
bad = cuts = 0
for k in range(3):
    game.push(sorted(game.legal_moves)[0])
    moves = list(game.move_stack)
    kept = bytearray(dev.data)
    saves = FramSaves(Saves(ROOT), dev)
    n_all = len(saves.line(Settings(), board(moves)).encode()) + 12
    for n in range(n_all + 1):
        dev.data[:] = kept
        saves = FramSaves(Saves(ROOT), dev)
        saves.load()
        dev.cut = n
        try:
            saves.save(Settings(), board(moves), ())
        except Cut:
            pass
        dev.cut = -1
        if read(dev) != (moves if n == n_all else old):
            bad += 1
        cuts += 1
    dev.data[:] = kept
    saves = FramSaves(Saves(ROOT), dev)
    saves.load()
    saves.save(Settings(), board(moves), ())
    old = moves
print(cuts, bad)
"""
    out = mpvm.run_unix("ROOT = %r\n" % (str(tmp_path) + "/") + program, heap="512k").split()
    assert int(out[0]) > 3 * 60 and out[1] == "0"


def flash_files(root):
    out = {}
    for top, _, names in os.walk(root):
        for name in names:
            path = os.path.join(top, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_with_an_fram_the_flash_is_written_only_at_the_games_end(runtime):
    """A whole game with every flip turned: not a byte of the flash changes (nor nvm's
    sector on CircuitPython) until the game is over; then its record is kept there."""
    with SimBoard(runtime=runtime, fram=True) as board:
        board.advance(1300)
        before = flash_files(board.root)
        nvm = bytes(board.nvm.flash) if board.nvm else None
        rules = iago.Board()
        while not rules.is_game_over():
            cell = sorted(rules.legal_moves)[0]
            captured, released = rules.flips(cell)
            rules.push(cell)
            board.place(iago.cell_name(cell))
            for flipped in list(captured) + list(released):
                board.flip(iago.cell_name(flipped))
            board.advance(100)
            if not rules.is_game_over():
                assert flash_files(board.root) == before, rules.ply()
                assert nvm is None or bytes(board.nvm.flash) == nvm
        board.advance(2000)
        assert any(m.get("event") == "game_over" for m in board.received())
        assert any(name.startswith("games") for name in set(flash_files(board.root)) -
                   set(before))
        assert board.fram.writes >= rules.ply()
