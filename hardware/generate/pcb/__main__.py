"""python -m hardware.generate.pcb --out DIR [--map PATH]: the PCB of a board map (make.py)."""

import sys

from .make import main

sys.exit(main())
