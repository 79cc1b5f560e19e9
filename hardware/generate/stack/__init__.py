"""The board's stack: the disk, the plates, the light boxes and the switch and LED layer.

Everything here reads hardware/design.toml:
- `design`: the parameters, checked, and where every hex sits on the board;
- `field`: what a reed switch reads from a disk's magnet, under two models of the switch, and
  the test coil's ampere-turns in the same terms;
- `envelope`: every switch closing under its own disk and opening without it, on a full
  board, over every build the tolerances allow; `sensing` reports it against the switch's
  datasheet and reads a builder's measurement of one switch; `bounds` shows what each part
  of the envelope costs;
- `light`: how wide the lit ring around a resting disk is, from above and from a player's
  seat;
- `jig`: the go/no-go jig that tests each reed switch against the envelope;
- `plates`: the laser-cut plates as DXF and SVG; `parts`: the printed disk and jig as STL;
- `render`: pictures of the stack for hardware/README.md.

`python -m hardware.generate.stack check` prints the checks and the jig's heights; `bounds`,
`measure` and `write` the rest (hardware/README.md, "The stack"); `python -m hardware.generate`
writes its files with the rest.
"""
