"""The board's stack: the disk, the plates, the light boxes and the switch and LED layer.

Everything here reads hardware/design.toml:
- `design`: the parameters, checked, and where every hex sits on the board;
- `sensing`: does a disk close its own hex's reed switch and never a neighbour's (magpylib);
- `light`: how wide the lit ring around a resting disk is;
- `plates`: the laser-cut plates as DXF and SVG; `parts`: the printed disk and grid as STL;
- `render`: pictures of the stack for hardware/README.md.

`python -m hardware.stack check` prints both checks; `python -m hardware.stack calibrate` turns
a builder's one-switch test into a verdict on the design.
"""
