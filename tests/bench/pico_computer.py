"""The computer opponent on the board itself, on an emulated Pico: from the moment it may
move to its `computer_move` event, with the search sliced between the scan loop's ticks.

The flash holds a saved game at a mid-game position with the computer (level 5) to move, so
it starts thinking right after the start-up light check. Needs RP2EMU (docs/benchmarks.md).
"""

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import iago  # noqa: E402
import pico_board  # noqa: E402
from gameboard.saves import Saves  # noqa: E402
from gameboard.settings import Settings  # noqa: E402

POSITIONS = (
    "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1d1D1/3Ldl1/2LddL/5 L",
    "3L1/DlDdd1/1l1Lld1/DlDlDDL1/1l1l1l1D1/LdLdLlD1/5D1/3D2/5 L",
    "5/6/7/8/3D1L3/3D4/7/6/5 L",
)


def think_time(emu_dir, position, level):
    with tempfile.TemporaryDirectory() as work:
        files = pico_board.build_files(Path(work) / "fs")
        Saves(str(files) + "/").save(Settings(computer="light", level=level),
                                     iago.Board(position), [])
        report = pico_board.board_emu(emu_dir, Path(work) / "emu", files, [], 12000)
        times = {}
        for entry in report.get("serial", []):
            line = entry["line"]
            for kind in ("startup", "computer_move"):
                if '"event": "%s"' % kind in line and kind not in times:
                    times[kind] = entry["t_ms"]
        if len(times) < 2:
            raise RuntimeError("no computer move seen; serial: %r" % report.get("serial", [])[-5:])
        return times["computer_move"] - times["startup"]


def main():
    emu_dir = os.environ.get("RP2EMU")
    if not emu_dir:
        print("pico_computer: set RP2EMU (docs/benchmarks.md)")
        return
    worst = 0.0
    for position in POSITIONS:
        worst = max(worst, think_time(emu_dir, position, 5))
    print("board_move_ms_level5", round(worst, 1), "ms")


if __name__ == "__main__":
    main()
