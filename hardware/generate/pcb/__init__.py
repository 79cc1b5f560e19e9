"""The PCB, generated from the board map, design.toml and hardware/pcb/pcb.toml, and checked
by KiCad's DRC (make.py, which runs under the system's Python, the one with KiCad's pcbnew):
placing (circuit.py, board.py, frame.py, finish.py), routing (router.py, shapes.py), GND
stitching (ground.py), fab files (fab.py, jlc.py, preview.py), pictures and schematic
(render.py, schematic.py), the DC solve of the copper (powerflow.py, in the venv: numpy and
scipy) and the board file read back (kicad_file.py)."""
