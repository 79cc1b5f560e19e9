"""`make deploy` without a board: what is staged, the commands, and the errors."""

import fcntl
import json
import subprocess
import sys
from pathlib import Path

import pytest

from host_sim import deploy

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def build_folder_to_ourselves():
    """Deploy stages into the project's own build/deploy (and -circuitpython) and the dry runs
    read it back: `make test`'s parallel workers take these tests one at a time."""
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / ".test-deploy.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def test_stage_compiles_every_module_for_the_pico(tmp_path):
    out = tmp_path / "out"
    files = deploy.stage(out, ROOT / "hardware" / "board.json")
    expected = {Path("lib", package, p.stem + ".mpy")
                for package in deploy.PACKAGES
                for p in (ROOT / "firmware" / "lib" / package).glob("*.py")}
    assert set(files) == expected | {Path("main.py"), Path("board.json")}
    for path in expected:
        assert (out / path).read_bytes()[:2] == b"M\x06"   # .mpy format 6
    assert [p.relative_to(out) for p in out.rglob("*.py")] == [Path("main.py")]
    # Tracebacks name the module by its package path, not by the building machine's.
    rules = (out / "lib" / "iago" / "rules.mpy").read_bytes()
    assert b"/lib/iago/rules.mpy" in rules and str(ROOT).encode() not in rules


def test_viper_kernels_become_armv6m_code_for_the_boards_bytecode_version(tmp_path):
    """The .mpy header's third byte is (arch << 2) | sub-version for native code: armv6m is
    4; MicroPython 1.23 and newer read sub-version 3, 1.22 reads 2."""
    for compat, sub_version in ((None, 3), ("1.22", 2)):
        out = tmp_path / str(compat)
        deploy.stage(out, ROOT / "hardware" / "board.json", compat=compat)
        flags = (out / "lib" / "iago" / "_kernel.mpy").read_bytes()[2]
        assert flags >> 2 == 4 and flags & 3 == sub_version


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_sim.deploy"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_dry_run_prints_the_mpremote_commands_in_order():
    """Two mpremote sessions: the version, then the removal, the copies and the reset chained
    (each session more is a connection and a soft reset of the board)."""
    proc = run("--dry-run", "--port", "/dev/ttyACM7")
    assert proc.returncode == 0, proc.stderr
    sessions = [line[2:] for line in proc.stdout.splitlines() if line.startswith("$ ")]
    assert len(sessions) == 2 and all(s.startswith("connect /dev/ttyACM7 ") for s in sessions)
    assert sessions[0].split()[2:4] == ["exec", "'import"]
    session = sessions[1]
    assert session.startswith("connect /dev/ttyACM7 exec 'import os") and session.endswith(
        " + reset")
    assert "lib/iago" in session and "lib/gameboard" in session and "rm(path)" in session
    copies = [" + fs cp -r %s :" % (ROOT / "build" / "deploy" / "lib"),
              " + fs cp %s :main.py" % (ROOT / "build" / "deploy" / "main.py"),
              " + fs cp %s :board.json" % (ROOT / "build" / "deploy" / "board.json")]
    assert [session.index(c) for c in copies] == sorted(session.index(c) for c in copies)


@pytest.mark.micropython
def test_the_removal_leaves_other_files_and_tolerates_a_board_without_the_packages(tmp_path):
    """deploy.REMOVE_PACKAGES under MicroPython's unix VM, on a folder laid out as a board."""
    import mpvm
    board = tmp_path / "board"
    (board / "lib" / "gameboard" / "old").mkdir(parents=True)
    (board / "lib" / "gameboard" / "stale.py").write_text("# an older firmware's\n")
    (board / "lib" / "gameboard" / "old" / "x.mpy").write_bytes(b"M")
    (board / "lib" / "other.py").write_text("# the user's\n")
    (board / "games").mkdir()
    (board / "games" / "000001.sav").write_text("kept\n")
    (board / "game.sav").write_text("kept\n")
    program = "import os\nos.chdir(%r)\n" % str(board) + deploy.REMOVE_PACKAGES % (
        ("lib/iago", "lib/gameboard"),)
    mpvm.run_unix(program)
    left = sorted(p.relative_to(board).as_posix() for p in board.rglob("*"))
    assert left == ["game.sav", "games", "games/000001.sav", "lib", "lib/other.py"]
    mpvm.run_unix(program)          # nothing left to remove: no error


def test_dry_run_says_it_is_one_and_which_version_it_assumed_and_why():
    proc = run("--dry-run", "--port", "/dev/ttyACM7")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("dry run: ") and "none is run" in lines[0]
    assumed = [line for line in lines if "no board was asked its version" in line]
    assert len(assumed) == 1 and "1.23 and newer, the default" in assumed[0]
    assert "MICROPYTHON=1.22" in assumed[0]
    assert any(line.startswith("staged ") and "(.mpy 6.3)" in line for line in lines)
    assert lines[-1] == "dry run: nothing was copied and no board was reset"
    assert "deployed" not in proc.stdout and "restarts" not in proc.stdout


def test_dry_run_for_a_1_22_board_stages_its_mpy_version():
    proc = run("--dry-run", "--micropython", "1.22")
    assert proc.returncode == 0, proc.stderr
    assert "staging for MicroPython 1.22 (MICROPYTHON=1.22)" in proc.stdout
    assert "(.mpy 6.2) for MicroPython 1.22 in build/deploy" in proc.stdout
    flags = (ROOT / "build" / "deploy" / "lib" / "iago" / "_kernel.mpy").read_bytes()[2]
    assert flags & 3 == 2


@pytest.mark.parametrize("args, message", [
    (("--dry-run", "--micropython", "1.2x"), "'1.2x' is not a MicroPython version"),
    (("--dry-run", "--micropython", "1.21"), "the firmware needs 1.22 or newer"),
    (("--micropython", "1.22", "--port", "/dev/null"), "--micropython is for a dry run"),
])
def test_a_version_that_cannot_be_staged_is_refused(args, message):
    proc = run(*args)
    assert proc.returncode == 2 and message in proc.stderr
    assert "staged" not in proc.stdout and "fs cp" not in proc.stdout


def test_a_broken_board_map_is_refused_before_touching_the_board(tmp_path):
    bad = json.loads((ROOT / "hardware" / "board.json").read_text())
    del bad["cells"]["E5"]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(bad))
    proc = run("--dry-run", "--map", str(path))
    assert proc.returncode == 2
    assert "E5" in proc.stderr and "$ " not in proc.stdout


# --- CircuitPython: `make deploy RUNTIME=circuitpython` ----------------------------------------

def test_circuitpython_stage_has_the_source_the_adafruit_library_and_boot_files(tmp_path):
    out = tmp_path / "cp"
    files = deploy.stage_circuitpython(out, ROOT / "hardware" / "board.json")
    names = {p.as_posix() for p in files}
    assert {"code.py", "boot.py", "board.json", "settings.toml", "lib/neopixel.py",
            "lib/gameboard/cphw.py", "lib/gameboard/cpsaves.py", "lib/iago/rules.py"} <= names
    # MicroPython's own layer and the viper kernels stay off a CircuitPython board.
    assert not names & {"lib/" + m for m in deploy.MICROPYTHON_ONLY}
    assert not {p for p in names if p.endswith(".mpy")}
    for path in files:
        assert (out / path).is_file()
    assert (out / "lib/neopixel.py").read_text() == (deploy.LIBRARIES / "neopixel.py").read_text()
    assert "class NeoPixel" in (out / "lib/neopixel.py").read_text()


def test_circuitpython_libraries_are_the_pinned_ones_without_dependencies():
    folder = deploy.circuitpython_libraries()
    wanted = deploy.circuitpython_requirements()
    assert any(r.startswith("adafruit-circuitpython-neopixel>=") and ",<" in r for r in wanted)
    assert (folder / ".requirements").read_text().split() == wanted
    installed = {p.name.split("-")[0] for p in folder.glob("*.dist-info")}
    assert installed == {"adafruit_circuitpython_neopixel", "adafruit_circuitpython_pixelbuf",
                         "adafruit_circuitpython_typing"}      # no Adafruit-Blinka


def test_circuitpython_dry_run_lists_the_copies_and_touches_no_drive(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    proc = run("--runtime", "circuitpython", "--dry-run", "--drive", str(drive))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    removes = [line for line in lines if line.startswith("remove ")]
    copies = [line for line in lines if line.startswith("copy ")]
    assert removes == ["remove %s" % (drive / "lib" / p) for p in deploy.PACKAGES]
    assert "copy code.py -> %s" % (drive / "code.py") in copies
    assert "set CIRCUITPY_PYSTACK_SIZE = 4096 in %s" % (drive / "settings.toml") in lines
    assert "copy lib/neopixel.py -> %s" % (drive / "lib" / "neopixel.py") in copies
    assert lines.index(removes[-1]) < lines.index(copies[0])
    assert not drive.exists() and "nothing was copied" in proc.stdout


def test_circuitpython_deploy_replaces_the_firmware_and_keeps_the_games(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    (drive / "lib" / "gameboard").mkdir(parents=True)
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.9 on 2025-01-01; Pico\n")
    (drive / "lib" / "gameboard" / "gone.py").write_text("# a module the firmware dropped\n")
    (drive / "games").mkdir()
    (drive / "games" / "000001.sav").write_text("kept\n")
    (drive / "settings.toml").write_text('CIRCUITPY_PYSTACK_SIZE = 1536\nMY_NAME = "Ann"\n')
    proc = run("--runtime", "circuitpython", "--drive", str(drive))
    assert proc.returncode == 0, proc.stderr
    # The Python stack a saved game needs to be read back; the drive's other settings stay.
    assert (drive / "settings.toml").read_text() == (
        'MY_NAME = "Ann"\nCIRCUITPY_PYSTACK_SIZE = 4096\n')
    assert not (drive / "lib" / "gameboard" / "gone.py").exists()
    assert (drive / "lib" / "gameboard" / "app.py").read_text() == (
        ROOT / "firmware" / "lib" / "gameboard" / "app.py").read_text()
    assert (drive / "code.py").exists() and (drive / "lib" / "neopixel.py").exists()
    assert (drive / "games" / "000001.sav").read_text() == "kept\n"


def test_circuitpython_deploy_refuses_a_folder_that_is_no_circuitpy_drive(tmp_path):
    proc = run("--runtime", "circuitpython", "--drive", str(tmp_path))
    assert proc.returncode == 2 and "boot_out.txt" in proc.stderr


@pytest.mark.micropython
def test_staged_modules_keep_no_line_numbers_but_name_the_function(tmp_path):
    # deploy.MPY_CROSS_OPTIONS: line numbers would take 2.3 KB of the Pico's heap in play.
    import mpvm
    out = tmp_path / "out"
    deploy.stage(out, ROOT / "hardware" / "board.json")
    program = """
import sys
sys.path.insert(0, %r)
from iago import core
print(core.__file__)
try:
    core.side_name(9)
except KeyError as exc:
    sys.print_exception(exc)
""" % str(out / "lib")
    text = mpvm.run_unix(program)
    assert text.splitlines()[0].endswith("lib/iago/core.mpy")
    assert 'File "/lib/iago/core.mpy", line 1, in side_name' in text
