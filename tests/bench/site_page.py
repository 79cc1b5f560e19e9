"""`make bench`: the static site (`make site`) in this machine's Chromium, the firmware running in
the page under MicroPython's WebAssembly port.

- start-up: from the page's navigation to the board drawn and its first placement accepted
  (a click on a legal hex and the board's state naming it), a fresh browser context each time
  (nothing cached, nothing kept in storage); target 3 s.
- placement to light: from a click on a legal hex to its LED colour changing on the page (the
  firmware's LED bytes, through the worker), over a game's worth of placements with auto-flip;
  p95 target 100 ms.

    .venv/bin/python tests/bench/site_page.py [--loads 5] [--placements 40]
"""

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from host_sim.web import site  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
TARGETS = {"site_usable_ms": 3000.0, "site_place_to_lit_p95_ms": 100.0}
READY = ("snap && snap.state && snap.state.phase !== 'startup' && "
         "(snap.state.legal.length > 0 || !!snap.state.outcome)")
# Place on a legal hex as a pointer does and time its LED's first change on the page.
PLACE_AND_TIME = """(cell) => new Promise((resolve) => {
  const g = document.querySelector(`#board g[data-cell='${cell}']`);
  const before = g.dataset.led;
  const t0 = performance.now();
  const watch = new MutationObserver(() => {
    if (g.dataset.led !== before) { watch.disconnect(); resolve(performance.now() - t0); }
  });
  watch.observe(g, { attributes: true, attributeFilter: ["data-led"] });
  for (const kind of ["pointerdown", "pointerup"]) {
    g.dispatchEvent(new PointerEvent(kind, { button: 0, bubbles: true }));
  }
})"""


def row(name, value, unit="ms"):
    target = TARGETS.get(name)
    mark = "  target <= %g %s: %s" % (target, unit, "met" if value <= target else "MISSED") \
        if target is not None else ""
    print("%-14s %-30s %12.1f %-3s%s" % ("chromium-site", name, value, unit, mark), flush=True)


def serve(folder):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d",
                               str(folder), str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return server, "http://127.0.0.1:%d/" % port
        except OSError:
            if time.monotonic() > deadline:
                server.terminate()
                raise
            time.sleep(0.05)


def usable_ms(browser, url):
    """Navigation start to the first placement accepted, in the page's own clock."""
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=30000)
        cell = page.evaluate("snap.state.legal[0]")
        page.locator('#board g[data-cell="%s"]' % cell).click()
        page.wait_for_function("(cell) => snap.state.moves[0] === cell", arg=cell, timeout=30000)
        return page.evaluate("performance.now()")
    finally:
        context.close()


def placement_latencies(browser, url, placements):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=30000)
        page.locator("#autoflip").check()
        times = []
        for i in range(placements):
            page.wait_for_function(READY + " && !snap.state.flips_pending.length", timeout=60000)
            state = page.evaluate("snap.state")
            if state["outcome"]:
                break
            times.append(page.evaluate(PLACE_AND_TIME, state["legal"][i * 7 % len(state["legal"])]))
            page.wait_for_function("(n) => snap.state.moves.length === n && !snap.state.tentative",
                                   arg=i + 1, timeout=60000)
        return times
    finally:
        context.close()


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--placements", type=int, default=40)
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print("chromium-site: skipped (no %s: apt-get install chromium)" % CHROMIUM)
        return 0
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory(prefix="iago-site-") as folder:
        site.build(folder)
        server, url = serve(folder)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                loads = [usable_ms(browser, url) for _ in range(args.loads)]
                row("site_usable_ms", max(loads))
                row("site_usable_median_ms", statistics.median(loads))
                times = sorted(placement_latencies(browser, url, args.placements))
                p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
                row("site_place_to_lit_p95_ms", p95)
                row("site_place_to_lit_median_ms", statistics.median(times))
                row("site_placements_timed", len(times), "n")
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
