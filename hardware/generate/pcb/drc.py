"""KiCad's DRC on a .kicad_pcb: prints one JSON line {"violations": N, "unconnected": M,
"report": "..."} (the report without its date). Needs KiCad 6's pcbnew; from any other Python
it runs itself again under KiCad's (as make.py does).

    .venv/bin/python -m hardware.generate.pcb.drc hardware/generated/pcb/iago-board.kicad_pcb
"""

import json
import shutil
import sys
import tempfile
from pathlib import Path

from . import make


def main(argv):
    if len(argv) != 1:
        print("usage: python -m hardware.generate.pcb.drc BOARD.kicad_pcb", file=sys.stderr)
        return 2
    if not make.have_pcbnew():
        return make.rerun("hardware.generate.pcb.drc", argv)
    import pcbnew
    source = Path(argv[0])
    work = Path(tempfile.mkdtemp(prefix="iago-drc-"))
    try:
        # The board and its project file (the design rules) side by side, away from the
        # source: the report is written next to the board.
        board_file = work / (make.NAME + ".kicad_pcb")
        shutil.copy(source, board_file)
        project = source.with_suffix(".kicad_pro")
        if project.is_file():
            shutil.copy(project, work / (make.NAME + ".kicad_pro"))
        board = pcbnew.LoadBoard(str(board_file))
        report, (violations, unconnected) = make.drc(board, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"violations": violations, "unconnected": unconnected, "report": report}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
