"""`make site`: the board page as a static folder, with the firmware running in the page.

    python -m host_sim.web.site build/site

The folder holds the page (index.html marked as the static site, so it runs the board itself
instead of asking a server), its scripts, MicroPython's WebAssembly port from node_modules, and
board-files.json: the files the page's Web Worker lays out in MicroPython's file system, which
are the firmware's lib exactly as it goes on a Pico, the part of host_sim that simulates the
board around it (host_sim/web/inpage) and the board maps. Any static host serves it, or
`python -m http.server -d build/site`.
"""

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
STATIC = ROOT / "host_sim" / "web" / "static"
MICROPYTHON = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
MQTT = ROOT / "node_modules" / "mqtt" / "dist" / "mqtt.esm.js"   # the spectators' MQTT client
# The board page's modules and style sheet: every one of static/ but the table's (table.html and
# table.js need the server that referees its games).
PAGE_FILES = tuple(sorted(p.name for p in STATIC.iterdir()
                          if p.suffix in (".js", ".css") and not p.name.startswith("table.")))
# host_sim's modules the page's simulator imports (SimBoard, SimDriver, replay, records, the
# LED view of a real board) and the page's own; nothing else of the host goes into the page.
# All of host_sim's fakes go, as SimBoard imports what it needs of them.
HOST_MODULES = (
    "__init__.py", "render.py", "simboard.py",
    "web/__init__.py", "web/api.py", "web/driver.py", "web/records.py", "web/replay.py",
    "web/ledview.py", "web/simdriver.py", "web/simhands.py", "web/simcontrols.py",
    "web/simlink.py", "web/ptylink.py",
    "web/inpage/__init__.py", "web/inpage/circuit.py", "web/inpage/pageboard.py",
)
MAPS = ("board.json", "boards/square7.json", "boards/square8.json", "boards/square9.json")
MARK = '<meta name="iago-board" content="page">'


class SiteError(Exception):
    """Something the site needs is missing (node_modules not installed, a file gone)."""


def board_files():
    """{path in MicroPython's file system: text} of everything the page's worker runs."""
    files = {}
    lib = ROOT / "firmware" / "lib"
    for path in sorted(lib.rglob("*.py")):
        if "__pycache__" not in path.parts:
            files["/lib/" + path.relative_to(lib).as_posix()] = path.read_text(encoding="utf-8")
    for name in HOST_MODULES:
        files["/lib/host_sim/" + name] = (ROOT / "host_sim" / name).read_text(encoding="utf-8")
    for path in sorted((ROOT / "host_sim" / "fakes").glob("*.py")):
        files["/lib/host_sim/fakes/" + path.name] = path.read_text(encoding="utf-8")
    stdlib = ROOT / "host_sim" / "web" / "inpage" / "stdlib"
    for path in sorted(stdlib.glob("*.py")):
        files["/stdlib/" + path.name] = path.read_text(encoding="utf-8")
    for name in MAPS:
        files["/hardware/" + name] = (ROOT / "hardware" / name).read_text(encoding="utf-8")
    return files


def page():
    """The board page of the static site: its entry module and style sheet by relative address
    (a site may live in a folder of its host; the modules import each other by relative
    address already) and the mark that makes it run the board itself."""
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    if '"/static/app.js"' not in text or "<head>" not in text:
        raise SiteError("static/index.html no longer loads its entry module from /static/")
    text = text.replace('"/static/', '"static/')
    return text.replace("<head>", "<head>\n" + MARK, 1)


def build(out):
    """Write the site into the folder `out` (made anew); returns its files' count."""
    wasm = MICROPYTHON / "micropython.wasm"
    if not wasm.exists() or not MQTT.exists():
        raise SiteError("MicroPython's WebAssembly port or mqtt.js is not installed: run "
                        "`make node_modules`")
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    (out / "static" / "mp").mkdir(parents=True)
    (out / "static" / "vendor").mkdir()
    (out / "index.html").write_text(page(), encoding="utf-8")
    for name in PAGE_FILES:
        shutil.copyfile(STATIC / name, out / "static" / name)
    # .js, not .mjs: static servers that know no .mjs type would break the worker's import.
    shutil.copyfile(MICROPYTHON / "micropython.mjs", out / "static" / "mp" / "micropython.js")
    shutil.copyfile(wasm, out / "static" / "mp" / "micropython.wasm")
    shutil.copyfile(MQTT, out / "static" / "vendor" / "mqtt.esm.js")
    (out / "static" / "board-files.json").write_text(
        json.dumps(board_files(), separators=(",", ":")), encoding="utf-8")
    # GitHub Pages would otherwise run Jekyll over the folder.
    (out / ".nojekyll").write_text("", encoding="utf-8")
    return sum(1 for path in out.rglob("*") if path.is_file())


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_sim.web.site",
                                     description="Build the board page as a static site.")
    parser.add_argument("out", nargs="?", default=str(ROOT / "build" / "site"),
                        help="the folder to write (made anew; default build/site)")
    args = parser.parse_args(argv)
    try:
        count = build(args.out)
    except (SiteError, OSError) as exc:
        print("make site: %s" % exc, file=sys.stderr)
        return 1
    print("wrote the static board site to %s (%d files): serve it with "
          "`python -m http.server -d %s`" % (args.out, count, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
