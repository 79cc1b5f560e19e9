"""`make deploy` without a board: what is staged, the commands, and the errors."""

import json
import subprocess
import sys
from pathlib import Path

from host_sim import deploy

ROOT = Path(__file__).resolve().parent.parent


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
    proc = run("--dry-run", "--port", "/dev/ttyACM7")
    assert proc.returncode == 0, proc.stderr
    commands = [line[2:] for line in proc.stdout.splitlines() if line.startswith("$ ")]
    assert all(c.startswith("connect /dev/ttyACM7 ") for c in commands)
    verbs = [c.split()[2:4] for c in commands]
    assert verbs[0] == ["exec", "import"]
    assert ["fs", "rm"] in verbs and verbs[-1] == ["reset"]
    assert verbs.index(["fs", "rm"]) < verbs.index(["fs", "cp"])


def test_a_broken_board_map_is_refused_before_touching_the_board(tmp_path):
    bad = json.loads((ROOT / "hardware" / "board.json").read_text())
    del bad["cells"]["E5"]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(bad))
    proc = run("--dry-run", "--map", str(path))
    assert proc.returncode == 2
    assert "E5" in proc.stderr and "$ " not in proc.stdout
