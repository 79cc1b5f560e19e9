"""The rules package runs unchanged under real MicroPython VMs and agrees with CPython.

The same game-playing program runs under CPython and under each VM; a small LCG picks the
moves so the choice does not depend on either interpreter's `random`.
"""

import pytest

import mpvm

pytestmark = pytest.mark.micropython

# A small LCG, so the move choice does not depend on either interpreter's `random`.
LCG = """
def lcg(seed):
    state = [seed]
    def pick(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return pick
"""

GAMES_PROGRAM = LCG + """
import iago

for rules_name, seed in RUNS:
    board = iago.Board(rules=iago.Rules.parse(rules_name))
    pick = lcg(seed)
    while not board.is_game_over():
        if board.can_claim() and pick(2):
            print("claim", board.claim_penalty())
        moves = list(board.legal_moves)
        cell = moves[pick(len(moves))]
        flips = board.flips(cell)
        board.push(cell)
        print(iago.cell_name(cell), len(moves), len(flips[0]), len(flips[1]), board.text())
    outcome = board.outcome()
    print("end", rules_name, outcome.winner, outcome.dark_score, outcome.light_score,
          outcome.tie_break)
    while board.move_stack:
        board.pop()
    print("popped", board.text())
"""

RUNS = [("standard", 1), ("standard", 2), ("loose", 3), ("simple", 4), ("loose+simple", 5),
        ("standard+penalty", 6), ("simple+penalty", 7)]


def run_cpython(source):
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<games>", "exec"), {})
    return out.getvalue()


@pytest.mark.parametrize("vm", ["unix", "wasm"])
def test_random_games_match_cpython_move_for_move(vm):
    source = "RUNS = %r\n" % RUNS + GAMES_PROGRAM
    expected = run_cpython(source)
    assert expected.count("end ") == len(RUNS)
    assert expected.count("claim True") > 0  # the penalty path is exercised
    got = mpvm.RUNNERS[vm](source)
    assert got.splitlines() == expected.splitlines()


KERNEL_PROGRAM = LCG + """
import iago
from iago import movegen, rules, _kernel

assert rules.generate is _kernel.generate, "the viper kernel was not chosen at import"
checked = 0
for seed in range(40):
    board = iago.Board(rules=iago.Rules.parse("loose" if seed % 2 else "standard"))
    pick = lcg(seed)
    while not board.is_game_over():
        for mode in range(1, 16):
            if mode & 3 == 3 or not mode & 3:
                continue
            plain = bytearray(movegen.SCRATCH_SIZE)
            fast = bytearray(movegen.SCRATCH_SIZE)
            n1 = movegen.generate(board.cell_states, plain, mode)
            n2 = _kernel.generate(board.cell_states, fast, mode)
            moves1, moves2 = plain[122:122 + n1], fast[122:122 + n2]
            if n1 != n2 or moves1 != moves2 or any(plain[:61]) or any(fast[:61]):
                print("MISMATCH", board.text(), mode, list(moves1), list(moves2))
            checked += 1
        moves = list(board.legal_moves)
        board.push(moves[pick(len(moves))])
print("checked", checked)
"""


def test_viper_kernel_matches_plain_generator_under_unix_micropython():
    """The device's viper kernel and the plain reference give the same moves in every mode
    (side, release on/off, forced capture on/off) along 40 random games."""
    out = mpvm.run_unix(KERNEL_PROGRAM, heap="2m")
    assert "MISMATCH" not in out, out
    checked = int(out.split()[-1])
    assert checked > 40 * 30 * 8


def test_wasm_port_falls_back_to_the_plain_generator():
    out = mpvm.run_wasm("""
from iago import movegen, rules
print(rules.generate is movegen.generate)
""")
    assert out.split() == ["True"]


def test_package_and_a_whole_game_stay_small_under_unix_micropython():
    """Under a 128 KB heap limit (compiling the sources on import needs about 112 KB) the
    package and a finished game keep under 32 KB resident.

    The unix build is 64-bit, so objects are up to twice their Pico size (measured: 28 KB here
    against 18.4 KB for the package and a 30-move game on an emulated Pico, `make bench`).
    """
    out = mpvm.run_unix("""
import gc
gc.collect()
before = gc.mem_alloc()
import iago
board = iago.Board()
while not board.is_game_over():
    moves = list(board.legal_moves)
    board.push(moves[len(board.move_stack) * 7 % len(moves)])
gc.collect()
print(len(board.move_stack), gc.mem_alloc() - before)
""", heap="128k")
    plies, used = (int(x) for x in out.split())
    assert plies >= 37
    assert 0 < used < 32 * 1024
