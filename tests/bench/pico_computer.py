"""The computer opponent on the board itself, on an emulated Pico: from the moment it may
move to its `computer_move` event, with the search sliced between the scan loop's ticks, on
the hex board (Iago) and on the square boards (Othello 8x8, Io 7x7 and 9x9).

The flash holds a saved game with the computer (level 5 unless --level N) to move, so it
starts thinking right after the start-up light check. Per board: the longest think over its
positions, against the 2 s target, and the main loop's longest step meanwhile (a slice of the
search and the loop's own work: the switches and LEDs wait that long), from the host link's
`stats`. Needs RP2EMU (docs/benchmarks.md). Options: --level N, --board hex|square8|...,
-v (each position).
"""

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import pico_board  # noqa: E402
from gameboard.saves import Saves  # noqa: E402
from gameboard.settings import Settings  # noqa: E402
from iago import games  # noqa: E402

BOARDS = ROOT / "hardware" / "boards"
# (board, map, game, rules, positions with light, the computer, to move): an opening, a
# middle game, a crowded board with many moves.
CASES = (
    ("hex", pico_board.BOARD_MAP, "iago", None, (
        "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1d1D1/3Ldl1/2LddL/5 L",
        "3L1/DlDdd1/1l1Lld1/DlDlDDL1/1l1l1l1D1/LdLdLlD1/5D1/3D2/5 L",
        "5/6/7/8/3D1L3/3D4/7/6/5 L")),
    ("square8", BOARDS / "square8.json", "othello", "standard", (
        "8/4L3/4LLD1/3DLDL1/2DDLLLL/4D2D/5D2/8 L",
        "8/LLL5/LLLLLL2/LLDLDDD1/LLDDDDD1/LDLD1D2/LL1LD3/LLD5 L")),
    ("square7", BOARDS / "square7.json", "io", "7x7", (
        "DL3D1/4L2/2D4/7/1DL1D2/4L2/2DL3 L bound=c5",
        "2DLL2/4DD1/1D4L/LD3L1/2L1L1L/D2LLD1/LLD4 L single")),
    ("square9", BOARDS / "square9.json", "io", "9x9", (
        "7D1/4D2L1/3L5/9/9/2LD3D1/3D1D3/2L1L4/9 L bound=h4",
        "2D1L1LD1/2L2DDD1/L2D5/1DLL2D2/D1D4L1/2D1D4/1L3L1D1/2D2L2L/1LL1D1LD1 L single")),
)


WATCH_MS = 6000


def think(emu_dir, board_map, board, level):
    """(think ms, the loop's longest step ms while thinking) for a saved `board`: the host
    link's `stats` at the start-up event starts the timing, the one at WATCH_MS reports the
    longest step since (after the move the loop idles: its steps are short)."""
    events = [{"t_ms": t, "action": "send", "data": pico_board.STATS} for t in (0, WATCH_MS)]
    with tempfile.TemporaryDirectory() as work:
        files = pico_board.build_files(Path(work) / "fs", board_map=board_map)
        Saves(str(files) + "/").save(Settings(computer="light", level=level), board, [])
        report = pico_board.board_emu(emu_dir, Path(work) / "emu", files, events, 300,
                                      'serial:"startup"')
        times = {}
        replies = []         # (time, step_max_ms) of the stats replies
        for entry in report.get("serial", []):
            line = entry["line"]
            for kind in ("startup", "computer_move"):
                if '"event": "%s"' % kind in line and kind not in times:
                    times[kind] = entry["t_ms"]
            reply = entry.get("json", {})
            if reply.get("reply") == "stats" and reply.get("ok"):
                replies.append((entry["t_ms"], reply["step_max_ms"]))
        if len(times) < 2:
            raise RuntimeError("no computer move seen; serial: %r" % report.get("serial", [])[-5:])
        if len(replies) != 2 or replies[1][0] < times["computer_move"]:
            raise RuntimeError("the stats replies did not cover the think: %r" % replies)
        return times["computer_move"] - times["startup"], replies[1][1]


def main(argv):
    emu_dir = os.environ.get("RP2EMU")
    if not emu_dir:
        print("pico_computer: set RP2EMU (docs/benchmarks.md)")
        return 0
    level = int(argv[argv.index("--level") + 1]) if "--level" in argv else 5
    only = argv[argv.index("--board") + 1] if "--board" in argv else None
    for name, board_map, game, rules, positions in CASES:
        if only and name != only:
            continue
        module = games.module(game)
        worst = longest_step = 0
        for text in positions:
            board = module.Board(text) if rules is None else module.Board(
                text, module.Rules.parse(rules))
            ms, step = think(emu_dir, board_map, board, level)
            if "-v" in argv:
                print("  %s: %.1f ms, longest step %d ms" % (text, ms, step))
            worst = max(worst, ms)
            longest_step = max(longest_step, step)
        suffix = "" if level == 5 else "_level%d" % level
        print("board_move_ms_%s%s" % (name, suffix), round(worst, 1), "ms")
        print("step_max_thinking_%s%s" % (name, suffix), longest_step, "ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
