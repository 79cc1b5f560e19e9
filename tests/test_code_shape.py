"""The shape a newcomer can read: no module over 500 lines, no function over 60, the
controller's own state in at most 24 attributes, each shared helper defined once.

The hot kernels and the engines' inner walks are exempt: they are one loop on purpose, a call
per step costing what they exist to save. TO_SHRINK lists the functions and modules still over
their size, at the size they have; it may only shrink (a listed one that grows, shrinks
without its entry, or meets the limit fails, so the entry follows the work that mends it)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for d in ("firmware", "host_sim", "hardware") for p in (ROOT / d).rglob("*.py")
                 if "inpage/stdlib" not in p.as_posix())
MODULE_LINES = 500
FUNCTION_LINES = 60
CONTROLLER_ATTRIBUTES = 24

HOT = {
    "firmware/lib/iago/engine.py:Search._run",       # the engine's search walk
    "firmware/lib/iago/search.py:Search._run",       # the plain searcher's walk
    "firmware/lib/iago/movegen.py:generate",         # move generation, the rules' kernel
    "hardware/generate/pcb/router.py:Grid._walk",    # the router's A* loop: a call a node costs
    "firmware/lib/gameboard/painter.py:compose",     # the LED frame's pass over the hexes
}
TO_SHRINK = {}   # none left: controller.py (666 lines) was the last


def _functions(tree, prefix=""):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, prefix + node.name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")


def sizes():
    """{"path" or "path:Qualified.name": lines} of every module and function."""
    found = {}
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        found[rel] = text.count("\n")
        for name, node in _functions(ast.parse(text)):
            found["%s:%s" % (rel, name)] = node.end_lineno - node.lineno + 1
    return found


def _limit(key):
    return FUNCTION_LINES if ":" in key else MODULE_LINES


def test_no_module_or_function_is_over_its_size():
    over = {key: n for key, n in sizes().items()
            if n > _limit(key) and key not in HOT and key not in TO_SHRINK}
    assert not over, "over %d lines a module, %d a function: %s" % (
        MODULE_LINES, FUNCTION_LINES, over)


def test_the_list_of_what_is_still_too_long_only_shrinks():
    found = sizes()
    stale = {key: (n, found.get(key)) for key, n in TO_SHRINK.items()
             if found.get(key) != n or found[key] <= _limit(key)}
    assert not stale, ("TO_SHRINK entries changed, gone or within the limit (listed, found): %s"
                       % stale)
    assert HOT <= set(found), "a hot kernel was renamed: %s" % (HOT - set(found))


def test_the_controller_keeps_its_own_state_in_few_attributes():
    from gameboard.controller import Controller
    held = sorted(vars(Controller(now=0)))
    assert len(held) <= CONTROLLER_ATTRIBUTES, "%d attributes: %s" % (len(held), held)
