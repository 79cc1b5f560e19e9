# Rules figures on a MicroPython board (or the unix port): heap of the package plus a game in
# progress, and the time to list the legal moves of mid-game positions, viper kernel against
# the plain reference. Prints "name value unit" lines that tests/bench/run.py collects.
import gc
import time

gc.collect()
_free0 = gc.mem_free()
import iago
from iago import rules

gc.collect()
print("heap_import", _free0 - gc.mem_free(), "B")

MIDGAME = (
    "2LdL/4D1/LddLLL1/3LdlDD/3dDlDl1/2L1d1D1/3Ldl1/2LddL/5 D",
    "3L1/DlDdd1/1l1Lld1/DlDlDDL1/1l1l1l1D1/LdLdLlD1/5D1/3D2/5 D",
    "1D1l1/2lDL1/1DdLLd1/dLL1DdL1/LLDl1dLd1/DLdd1DDD/2LDLl1/1D1Dd1/5 L",
)
# A game in progress: 30 placements from the empty board, chosen by a fixed rule.
board = iago.Board()
for i in range(30):
    moves = list(board.legal_moves)
    board.push(moves[(i * 7) % len(moves)])
gc.collect()
print("heap_package_and_game", _free0 - gc.mem_free(), "B")


def time_generate(gen, reps):
    worst = 0
    for text in MIDGAME:
        b = iago.Board(text)
        scratch = b._scratch
        mode = b._mode(True)
        t0 = time.ticks_us()
        for _ in range(reps):
            gen(b.cell_states, scratch, mode)
        dt = time.ticks_diff(time.ticks_us(), t0) / reps
        if dt > worst:
            worst = dt
    return worst


def time_legal_moves(reps):
    worst = 0
    for text in MIDGAME:
        b = iago.Board(text)
        t0 = time.ticks_us()
        for _ in range(reps):
            b._legal_cache = None
            len(b.legal_moves)
        dt = time.ticks_diff(time.ticks_us(), t0) / reps
        if dt > worst:
            worst = dt
    return worst


from iago import movegen  # the plain reference; a board with the viper kernel never loads it

kernel = rules.generate is not movegen.generate
print("viper_kernel", 1 if kernel else 0, "bool")
plain = time_generate(movegen.generate, 10)
print("legal_moves_plain_worst", plain, "us")
if kernel:
    fast = time_generate(rules.generate, 50)
    print("legal_moves_viper_worst", fast, "us")
    print("viper_speedup", plain / fast, "x")
print("legal_moves_board_api_worst", time_legal_moves(20), "us")
