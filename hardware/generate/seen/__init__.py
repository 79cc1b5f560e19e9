"""What a player sees of the board's LEDs, measured (docs/board.md, "Telling the cues apart"
and "The score at the end").

- `eye`: an LED's colour as the eye sees it (and as the page draws it), CIEDE2000 between two;
- `cues`: every cue the LEDs give in play, painted by the firmware's own painter, its colours
  and timing, and how far apart the cues are that can be lit at once;
- `fullboard`: the board at the end of a game as a player sees it, every hex holding a disk
  and only the lit ring round each disk showing, drawn for each score screen.

`python -m hardware.generate.seen` prints the cue table; `python -m hardware.generate` (`make
hardware`) draws hardware/generated/score-full-board.png.
"""
