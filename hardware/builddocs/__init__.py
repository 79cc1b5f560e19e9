"""The build documents generated from the board maps by hardware/make.py: the drawing model
(drawing.py), where cells are drawn (geometry.py), the wiring diagram (diagram.py), the
wiring tables and matrix wire (wiring.py) and the 1:1 template (template.py). The PCB's
schematic draws with the same model and names the same Pico pins."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT / "firmware" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))   # the firmware's maps and grids


def shown_path(path):
    """A path as the outputs name it: relative to the project, never this machine's."""
    path = Path(path).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return path.name
