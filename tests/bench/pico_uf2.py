"""`make uf2` on an emulated Pico: MicroPython's own image, then ours over it, as a user
drags them onto the RPI-RP2 drive one after the other; then the Pico powers on.

For each MicroPython image in RP2EMU (fw.uf2, 1.24.1; fw-1.22.1.uf2 if present) the file
`make uf2` writes for its .mpy version is put onto the emulated flash (tests/bench/
usb_pico.mjs, --uf2), and the board must come up on its own: the light check (every LED red,
then green, then blue), then the first line on the host link, the `startup` event, and a
`version` asked over the USB serial port naming the firmware. Printed: the file's size, the
emulated time from power-on to the light check and to that line, and the wall time.

Run: RP2EMU=<emulator folder> python tests/bench/pico_uf2.py  (`make bench` runs it when
RP2EMU is set). Needs node and the emulator set up as ../shared/tools/rp2emu/README.md says.
"""

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import pico_board  # noqa: E402  (the emulator's board config from the board map)
from usb_board import UsbPico  # noqa: E402

from host_sim import uf2  # noqa: E402

LIGHT_CHECK = ("red", "green", "blue")


def colour_name(hex_colour):
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    lit = [name for name, v in zip(LIGHT_CHECK, (r, g, b)) if v]
    return lit[0] if len(lit) == 1 else hex_colour


def config(work):
    folder = Path(work) / "map"
    folder.mkdir(parents=True)
    shutil.copy(pico_board.BOARD_MAP, folder / "board.json")
    return pico_board.emulator_config(folder)


def boot(emu_dir, firmware, image, work):
    """Power on MicroPython `firmware` with `image` (our UF2) over it; the figures."""
    start = time.monotonic()
    with UsbPico("micropython", emu_dir, config(work), Path(work) / "emu", fw=firmware,
                 uf2=image) as pico:
        startup = pico.line(lambda m: m.get("event") == "startup", timeout=300)
        at = pico.wait(lambda e: '"startup"' in e.get("line", ""))["t_ms"]
        check = [(e["t_ms"], colour_name(e["frame"]["all"])) for e in pico.events
                 if e.get("frame", {}).get("all") and e["frame"]["lit"] and e["t_ms"] <= at]
        seen = [name for _, name in check]
        mark = pico.mark()
        with open(pico.port, "wb", buffering=0) as port:
            port.write(b'{"cmd": "version"}\n')
        version = pico.line(lambda m: m.get("reply") == "version", timeout=120, since=mark)
    return {"light_check": seen, "light_check_ms": check[0][0] if check else None,
            "startup_ms": at, "startup": startup, "version": version,
            "wall_s": time.monotonic() - start}


def main():
    emu_dir = os.environ.get("RP2EMU")
    if not emu_dir:
        print("pico-uf2: set RP2EMU to a folder set up as ../shared/tools/rp2emu/README.md says")
        return 2
    failed = False
    with tempfile.TemporaryDirectory() as work:
        made = {path.name: path for path, _, _, _ in uf2.build(pico_board.BOARD_MAP,
                                                               Path(work) / "uf2")}
        runs = [("1.24.1", Path(emu_dir) / "fw.uf2",
                 uf2.uf2_name(uf2.PICO, "6.3", "micropython-1.23-and-newer")),
                ("1.22.1", Path(emu_dir) / "fw-1.22.1.uf2",
                 uf2.uf2_name(uf2.PICO, "6.2", "micropython-1.22"))]
        for version, firmware, name in runs:
            if not firmware.exists():
                print("pico-uf2: MicroPython %s: no %s in RP2EMU" % (version, firmware.name))
                continue
            try:
                result = boot(emu_dir, firmware, made[name], Path(work) / version)
            except RuntimeError as exc:
                print("pico-uf2: MicroPython %s + %s: FAILED: %s" % (version, name, exc))
                failed = True
                continue
            ok = result["light_check"] == list(LIGHT_CHECK) and result["startup"]["moves"] == 0
            failed |= not ok
            print("pico-uf2: MicroPython %s + %s (%d KB): light check %s at %.0f ms, startup "
                  "event at %.0f ms after power-on (emulated), firmware %s; %.0f s wall%s" % (
                      version, name, made[name].stat().st_size // 1024,
                      "-".join(result["light_check"]), result["light_check_ms"] or -1,
                      result["startup_ms"], result["version"].get("firmware"),
                      result["wall_s"], "" if ok else "  FAILED"), flush=True)
            print("pico-uf2:   first line: " + json.dumps(result["startup"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
