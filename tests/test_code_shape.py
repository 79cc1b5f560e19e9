"""The shape a newcomer can read: no module over 500 lines, no function over 60, the
controller's own state in at most 24 attributes, no import circle in the firmware, and no
board module reaching into another object's private names.

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
TO_SHRINK = {}   # none at present


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


FIRMWARE = ROOT / "firmware" / "lib"


def _firmware_modules():
    """{module name: (path, parsed tree)} of the firmware under firmware/lib."""
    found = {}
    for path in sorted(FIRMWARE.rglob("*.py")):
        parts = path.relative_to(FIRMWARE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = (path, ast.parse(path.read_text()))
    return found


def _imports(tree, modules):
    """The firmware modules `tree` imports, anywhere in it (`from pkg import sub` is sub)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module:
            subs = {node.module + "." + a.name for a in node.names} & set(modules)
            out.update(subs or ({node.module} & set(modules)))
    return out


def test_no_import_circle_in_the_firmware():
    # A circle makes the order of imports matter and keeps every module of it in the heap.
    modules = _firmware_modules()
    graph = {name: _imports(tree, modules) - {name} for name, (_, tree) in modules.items()}
    circles = []

    def walk(start, name, path):
        for nxt in sorted(graph[name]):
            if nxt == start:
                circles.append(" -> ".join(path + [start]))
            elif nxt > start and nxt not in path:
                walk(start, nxt, path + [nxt])

    for name in sorted(graph):
        walk(name, name, [name])
    assert not circles, circles


def test_no_board_module_reaches_into_another_objects_private_names():
    # The board firmware's objects talk through their public faces (the rules package's
    # board classes share their own kind's fields, as python-chess's do, and are not held
    # to this).
    reach = []
    for name, (_, tree) in _firmware_modules().items():
        if not name.startswith("gameboard"):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and
                    not node.attr.startswith("__") and
                    not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                reach.append("%s:%d %s" % (name, node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.ImportFrom) and node.module:
                reach += ["%s:%d from %s import %s" % (name, node.lineno, node.module, a.name)
                          for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not reach, reach
