# Engine figures on a MicroPython board (or the unix port): time per move at each level on
# mid-game positions, nodes a second, and the heap the engine takes. Prints "name value unit"
# lines that tests/bench/run.py collects.
import gc
import time

import iago
from iago import rules  # noqa: F401  (Iago's rules: the package face loads them on first use)

gc.collect()
_free0 = gc.mem_free()
from iago import engine  # noqa: E402

gc.collect()
print("heap_engine_import", _free0 - gc.mem_free(), "B")

POSITIONS = (
    "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1d1D1/3Ldl1/2LddL/5 D",
    "3L1/DlDdd1/1l1Lld1/DlDlDDL1/1l1l1l1D1/LdLdLlD1/5D1/3D2/5 D",
    "5/6/7/8/3D1L3/3D4/7/6/5 L",
)

for level in (1, 2, 3, 4, 5):
    worst = 0
    nodes = 0
    spent = 0
    for text in POSITIONS:
        board = iago.Board(text)
        t0 = time.ticks_ms()
        search = engine.Search(board, level, seed=1)
        while not search.step(32):   # the slices the board thinks in
            pass
        dt = time.ticks_diff(time.ticks_ms(), t0)
        spent += dt
        nodes += search.nodes()
        if dt > worst:
            worst = dt
    print("move_ms_level%d" % level, worst, "ms")
    if level == 5:
        print("nodes_per_s", nodes * 1000 // max(spent, 1), "1/s")
gc.collect()
print("heap_engine_in_use", _free0 - gc.mem_free(), "B")
