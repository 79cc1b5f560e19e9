"""Complete games on the emulated Pico, played by hands at two human paces (issue 12).

The games come from the rules package on CPython: greedy against random to the end, seeded.
Each is laid out as hands would play it on the board: a placement, then each disk it flips
lifted and put back, at one of two paces (all times drawn uniformly from the ranges below):

- brisk: the first flip lifted 150-300 ms after the placement, each held off its hex
  150-300 ms, the next one lifted 80-200 ms after; the next placement 50-140 ms after the last
  flipped disk goes back, but no sooner than 400 ms after the placement (400-700 ms after a
  placement that flips nothing: sooner, the board would hold it until the previous placement
  has rested its 300 ms);
- slow: the first flip 0.5-1 s after the placement, held 0.3-0.6 s, the next 0.3-0.7 s after;
  the next placement 1-2 s after the last flip (1.2-2.5 s after a placement without flips).

Probes: a disk elsewhere on the board lifted and put back after 50, 80 or 100 ms (in turn),
as a brushing hand would, 5-100 ms after something that starts a save to flash: the last
flipped disk of a placement going back (brisk: every second placement that flips; slow:
every one), and in the slow games also the rest of a placement without flips (300 ms after
its closing). The next placement follows a probe at the pace's gap. A probe changes nothing
in the game; the firmware reports `lifted` on the host link if it saw it.

The whole firmware runs on the emulated Pico as `make deploy` installs it (tests/bench/
pico_board.py's build), through tests/bench/board_trace.mjs: board-emu plus the time of every
matrix scan and flash operation. Measured, per pace, over every placement of every game:

- switch_to_light: the switch closing -> the end of the first LED frame that shows the placed
  disk (the first frame giving its hex about the colour of the frame sent in the loop step of
  the firmware's `tentative` or `move` event); for the first and last third of each game's
  placements, and for the placements with no save in the way; split into the wait for a scan
  to see the switch, the debounce (to the scan that plays it), and scan_to_frame: from the
  start of that scan to the end of the placement's frame;
- closing_to_frame (firmware): the host link's `stats` (gameboard/link.py): the longest of
  every timed closing of the game, asked once after the game; with --stats-each, also asked
  60 ms after each placement, giving each placement's own time (each `stats` collects the
  garbage, so that run sees fewer collections in play than an unqueried board);
- scan gaps: the longest interval between two matrix scans in play (from the first
  placement to the `game_over` event), with and without a flash operation in it, and at the
  game's end (the finished game's record and save); `step_max_ms`, the firmware's longest
  loop step of the game (the end included), from the `stats` after the game;
- saves: the loop steps that wrote to flash, and the scan gap each one caused;
- unseen lifts: the probes of each length whose lift never reached the host as `lifted`, and
  how many of those probes overlapped a save.

Run: RP2EMU=<emulator folder> python tests/bench/pico_games.py [--games N] [--pace brisk|slow]
[--seed S] [--stats-each] [--firmware DIR] [--keep DIR] [--json FILE] [--fram] (an FRAM
fitted: pico_board.FRAM). `make bench` runs it
with BENCH_PICO_GAMES games a pace (default 2). On a shared 2-core machine a brisk game took
about 2.5 minutes of wall time and a slow one about 10 (the emulator runs 0.28-0.3 emulated
seconds a second with this firmware). --firmware measures another tree laid out as firmware/.
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))

import iago  # noqa: E402  (the installed package: firmware/lib/iago)
from iago import engine  # noqa: E402
import mpvm  # noqa: E402
from host_sim.deploy import MPY_CROSS_OPTIONS   # as make deploy compiles
import pico_board  # noqa: E402

TRACER = HERE / "board_trace.mjs"
STATS = '{"cmd": "stats"}\n'
FIRST_MOVE_MS = 500        # the first placement, after the start-up event
END_MS = 2500              # the stats query after the last flip goes back
STATS_EACH_MS = 60         # --stats-each: the query after each placement
PROBE_HOLDS = (50, 80, 100)
PROBE_AFTER_MS = (5, 100)  # a probe's lift after what starts a save: a flipped disk put back,
SETTLE_MS = 310            # ... or a placement's rest (300 ms from its debounced closing)
ROW_US = 45                # a matrix scan reads a row line about every 45 us

# Targets of issue 12 ("Light first, think after"), on the emulated Pico in complete games.
TARGETS = {"switch_to_light_p95": 20.0, "switch_to_light_max": 25.0,
           "longest_step_in_play": 20.0, "unseen_80ms_or_more": 0}


class Pace:
    def __init__(self, name, first_flip, hold, between, next_after_flips, next_no_flips,
                 probe_every, probe_settle):
        self.name = name
        self.first_flip = first_flip            # placement -> first flipped disk lifted
        self.hold = hold                        # a flipped disk off its hex
        self.between = between                  # put back -> the next flip lifted
        self.next_after_flips = next_after_flips  # last put back -> the next placement
        self.next_no_flips = next_no_flips      # placement without flips -> the next one
        self.probe_every = probe_every          # a probe after every n-th placement with flips
        self.probe_settle = probe_settle        # ... and at the rest of those without


PACES = {
    "brisk": Pace("brisk", (150, 300), (150, 300), (80, 200), (50, 140), (400, 700), 2, False),
    "slow": Pace("slow", (500, 1000), (300, 600), (300, 700), (1000, 2000), (1200, 2500), 1,
                 True),
}


# --- the games ------------------------------------------------------------------------------

def play_game(seed):
    """A complete game, greedy against random (greedy dark in even seeds): a list of
    (cell, side, flipped cells) a placement."""
    players = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
    board = iago.Board()
    moves = []
    while not board.is_game_over():
        level = players[0 if board.turn == iago.DARK else 1]
        cell = engine.Search(board, level, seed=seed * 1000 + board.ply()).best()
        captured, released = board.flips(cell)
        moves.append((cell, board.turn, list(captured) + list(released)))
        board.push(cell)
    return moves


def lay_out(moves, pace, seed, probes=True, stats_each=False):
    """The scenario of one game for board-emu: (events, plan). Times in ms after the start-up
    event. plan["moves"][k]: the placement's event index, cell name, ply and flips; plan
    ["flips"]: (lift, put back) event indices; plan["probes"]: the probes' events and hold."""
    rng = random.Random(seed)
    events = []
    plan = {"moves": [], "flips": [], "probes": [], "pace": pace.name}

    def add(t, action, cell=None):
        event = {"t_ms": round(t, 3), "action": action}
        if action == "send":
            event["data"] = STATS
        else:
            event["cell"] = iago.cell_name(cell)
        events.append(event)
        return len(events) - 1

    def draw(span):
        return rng.uniform(*span)

    add(0, "send")              # the first stats command starts the firmware's timing
    on_board = []
    flip_moves = 0

    def probe(t, ply, avoid):
        """A probe soon after `t` on a disk not in `avoid`; the time it is put back (or `t`
        if there is none)."""
        neutral = [c for c in on_board if c not in avoid]
        if not probes or not neutral:
            return t
        t += draw(PROBE_AFTER_MS)
        cell = rng.choice(neutral)
        hold = PROBE_HOLDS[len(plan["probes"]) % len(PROBE_HOLDS)]
        lift = add(t, "lift", cell)
        back = add(t + hold, "place", cell)
        plan["probes"].append({"lift": lift, "back": back, "hold": hold,
                               "cell": iago.cell_name(cell), "ply": ply})
        return t + hold

    t = FIRST_MOVE_MS
    for ply, (cell, side, flipped) in enumerate(moves):
        index = add(t, "place", cell)
        plan["moves"].append({"event": index, "cell": iago.cell_name(cell), "ply": ply,
                              "side": side, "flips": len(flipped), "t_ms": t})
        if stats_each:
            add(t + STATS_EACH_MS, "send")
        placed_at = t
        last = ply == len(moves) - 1
        if not flipped:
            gap = draw(pace.next_no_flips)
            if pace.probe_settle and not last:
                probe(t + SETTLE_MS, ply, ())
            on_board.append(cell)
            t += gap
            continue
        t += draw(pace.first_flip)
        for i, c in enumerate(flipped):
            if i:
                t += draw(pace.between)
            hold = draw(pace.hold)
            plan["flips"].append((add(t, "lift", c), add(t + hold, "place", c)))
            t += hold
        flip_moves += 1
        if not last and flip_moves % pace.probe_every == 0:
            t = probe(t, ply, flipped)
        on_board.append(cell)
        t = max(t, placed_at + 350) + draw(pace.next_after_flips)
    plan["end_stats"] = add(t + END_MS, "send")
    return events, plan


# --- running ----------------------------------------------------------------------------------

def build(dest, firmware=None):
    """The flash contents: as pico_board.build_files (firmware/lib compiled, main.py, the board
    map), or from `firmware`, a folder laid out as firmware/ (another tree to compare)."""
    if firmware is None:
        return pico_board.build_files(dest)
    dest = Path(dest)
    lib = Path(firmware) / "lib"
    for source in sorted(lib.rglob("*.py")):
        out = dest / "lib" / source.parent.relative_to(lib)
        out.mkdir(parents=True, exist_ok=True)
        mpvm.mpy_cross(source, out, options=MPY_CROSS_OPTIONS)
    shutil.copy(Path(firmware) / "main.py", dest / "main.py")
    shutil.copy(pico_board.BOARD_MAP, dest / "board.json")
    return dest


def trace(emu_dir, work, files, events, tail_ms=500, until=None, t0='serial:"startup"'):
    """board_trace.mjs on `files` with `events`; its report (dict)."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "board.json").write_text(json.dumps(pico_board.emulator_config(files)))
    (work / "scenario.json").write_text(json.dumps({"events": events, "tail_ms": tail_ms}))
    out = work / "report.json"
    env = dict(os.environ, RP2EMU=str(Path(emu_dir).resolve()))
    proc = subprocess.run(["node", str(TRACER), "--config", str(work / "board.json"),
                           "--scenario", str(work / "scenario.json"), "--out", str(out),
                           "--t0", t0] + (["--until", until] if until else []),
                          cwd=emu_dir, env=env, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError("board_trace.mjs failed:\n" + (proc.stderr + proc.stdout)[-3000:])
    return json.loads(out.read_text())


# --- what a report says --------------------------------------------------------------------------

def percentile(values, p):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def spread(values):
    if not values:
        return None
    return (min(values), percentile(values, 50), percentile(values, 95), max(values))


def _bisect_right(values, x):
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def saves_of(flash, scans):
    """The loop steps that wrote to flash (saves), as [start, end] ms: the interval between
    the two matrix scans around their flash operations."""
    steps = {}
    for start, _, _busy, _ in flash:
        j = _bisect_right(scans, start)
        if 0 < j < len(scans):
            steps[j] = [scans[j - 1], scans[j]]
    return [steps[j] for j in sorted(steps)]


def _colour(frame, led):
    """The colour a frame gives `led` if it changes it: (r, g, b), else None."""
    for k, text in frame["changed"]:
        if k == led:
            return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
    return None


def _near(a, b):
    """Two wire colours of one disk (the current cap may scale them a little apart)."""
    return all(abs(x - y) <= max(3, y // 5) for x, y in zip(a, b))


def analyse(report, events, plan):
    """One game's measurements (a dict of lists and counts)."""
    serial = report["serial"]
    problems = [s["line"] for s in serial
                if "Traceback" in s["line"] or s.get("json", {}).get("event") == "error"]
    if report.get("main_exited") or problems:
        raise RuntimeError("the firmware failed:\n" + "\n".join(problems[-10:]))
    applied = {e["i"]: e["applied_ms"] for e in report["events"]}
    cells = json.loads(pico_board.BOARD_MAP.read_text())["cells"]
    led_of = {name: c["led"] for name, c in cells.items()}
    frames = report["frames"]["list"]
    frame_starts = [f["start_ms"] for f in frames]
    scans = report["trace"]["scans_ms"]
    flash = report["trace"]["flash"]
    saves = saves_of(flash, scans)
    messages = [(s["t_ms"], s["json"]) for s in serial if "json" in s]
    over_at = next((t for t, m in messages if m.get("event") == "game_over"), None)

    out = {"light": [], "light_third": {0: [], 1: [], 2: []}, "scan_to_frame": [],
           "scan_wait": [], "debounce_wait": [], "light_clear": [],
           "behind_save": 0, "placements": len(plan["moves"]), "played": 0,
           "stalled_at": None, "probes": [], "saves": len(saves)}
    n = len(plan["moves"])
    for k, move in enumerate(plan["moves"]):
        tc = applied[move["event"]]
        upto = applied[plan["moves"][k + 1]["event"]] if k + 1 < n else float("inf")
        # A placement reaches the host as `tentative` (firmware that reports a move once it
        # has rested) or `move`, sent in the loop step that sent its frame.
        played = next((t for t, m in messages if tc <= t < upto and m.get("cell") ==
                       move["cell"] and m.get("event") in ("tentative", "move")), None)
        if played is None:
            out["stalled_at"] = move["ply"]
            break
        out["played"] += 1
        led = led_of[move["cell"]]
        first = _bisect_right(frame_starts, tc)
        lit = None
        for f in frames[first:]:
            if f["end_ms"] > played:
                break
            if any(c[0] == led for c in f["changed"]):
                lit = f
        if lit is None:
            raise RuntimeError("no frame lit %s before its move event" % move["cell"])
        # A firmware may light the placed disk before that frame: the first frame that shows
        # the hex in about the colour that frame gives it (not a hint, nor a pulse).
        colour = _colour(lit, led)
        shown = lit
        for f in frames[first:]:
            if f is lit:
                break
            c = _colour(f, led)
            if c is not None and _near(c, colour):
                shown = f
                break
        light = shown["end_ms"] - tc
        out["light"].append(light)
        out["light_third"][min(2, 3 * k // n)].append(light)
        j = _bisect_right(scans, shown["start_ms"]) - 1
        out["scan_to_frame"].append(shown["end_ms"] - scans[j])
        # The first scan to see the switch: its row line is read about ROW_US after the scan
        # starts (a scan of 8 rows takes about 0.37 ms).
        early = tc - ROW_US * (cells[move["cell"]]["row"] + 1) / 1000
        i = _bisect_right(scans, early)
        if i <= j:
            out["scan_wait"].append(max(0.0, scans[i] - tc))
            out["debounce_wait"].append(scans[j] - scans[i])
        if any(s < shown["end_ms"] and e > tc for s, e in saves):
            out["behind_save"] += 1
        else:
            out["light_clear"].append(light)

    # Scan gaps: in play (first placement .. game over) and at the end.
    start = applied[plan["moves"][0]["event"]]
    stats_at = [t for t, m in messages if m.get("reply") == "stats"]
    gaps_play = {"save": 0.0, "loop": 0.0, "stats": 0.0}
    gap_end = 0.0
    i0 = _bisect_right(scans, start)
    for a, b in zip(scans[i0 - 1:], scans[i0:]):
        gap = b - a
        if over_at is not None and b > over_at:
            gap_end = max(gap_end, gap)
            continue
        if any(a <= t <= b + 1.0 for t in stats_at):
            kind = "stats"
        elif any(s < b and e > a for s, e in saves):
            kind = "save"
        else:
            kind = "loop"
        gaps_play[kind] = max(gaps_play[kind], gap)
    out["gaps_play"] = gaps_play
    out["gap_end"] = gap_end
    out["save_gaps"] = [e - s for s, e in saves if over_at is None or e <= over_at]

    # Probes: seen if the host heard `lifted` for that hex between its lift and the next
    # event on the same hex after its put-back.
    for probe in plan["probes"]:
        tl, tb = applied[probe["lift"]], applied[probe["back"]]
        later = [applied[i] for i, e in enumerate(events)
                 if i > probe["back"] and e.get("cell") == probe["cell"]]
        until = min(later) if later else float("inf")
        seen = any(tl <= t < until and m.get("event") == "lifted" and m.get("cell") ==
                   probe["cell"] for t, m in messages)
        during = any(s < tb and e > tl for s, e in saves)
        out["probes"].append({"hold": probe["hold"], "seen": seen, "during_save": during,
                              "ply": probe["ply"]})

    replies = [m for _, m in messages if m.get("reply") == "stats" and m.get("ok")]
    last = replies[-1] if replies else {}
    out["firmware_closing_max"] = last.get("closing_to_frame_max_us", 0) / 1000
    out["firmware_step_max"] = last.get("step_max_ms")
    out["firmware_each"] = []
    if len(replies) > 2:   # --stats-each: one reply after each placement, in order
        count = replies[0].get("closings_timed", 0)
        for reply in replies[1:-1]:
            if reply["closings_timed"] > count:
                out["firmware_each"].append(reply["closing_to_frame_us"] / 1000)
            count = reply["closings_timed"]
    out["game_over"] = over_at is not None
    # What the game wrote: flash programmed and erased from the first placement on (the game
    # in progress, on a board without an FRAM; the finished game's record), and the FRAM.
    over = over_at if over_at is not None else float("inf")
    out["flash_programmed"] = sum(b for t, kind, _, b in flash if kind == "program" and t >= start)
    out["flash_erases"] = sum(1 for t, kind, _, _ in flash if kind == "erase" and t >= start)
    out["flash_ops_play"] = sum(1 for t, _, _, _ in flash if start <= t < over)
    fram = report.get("fram") or {}
    out["fram_written"] = fram.get("writes", 0)
    out["fram_busy_ms"] = fram.get("busy_ns", 0) / 1e6
    out["emulated_s"] = report["timing"]["run_emu_s"]
    return out


# --- the whole benchmark ------------------------------------------------------------------------

def run(emu_dir, games=2, paces=("brisk", "slow"), seed=1, stats_each=False, firmware=None,
        keep=None, log=None):
    """{pace: [analysis of each game]}."""
    log = log or (lambda text: print(text, file=sys.stderr, flush=True))
    results = {}
    with tempfile.TemporaryDirectory() as work:
        work = Path(keep) if keep else Path(work)
        files = build(work / "fs", firmware)
        for pace_name in paces:
            pace = PACES[pace_name]
            results[pace_name] = []
            for g in range(games):
                game_seed = seed + g
                moves = play_game(game_seed)
                events, plan = lay_out(moves, pace, game_seed * 7919 + len(pace_name),
                                       stats_each=stats_each)
                began = time.time()
                folder = work / ("%s-%d" % (pace_name, g))
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "plan.json").write_text(json.dumps(plan))
                report = trace(emu_dir, folder, files, events)
                result = analyse(report, events, plan)
                result["seed"] = game_seed
                results[pace_name].append(result)
                log("pico-games: %s game %d (seed %d, %d placements, %d flips, %d probes): "
                    "%.0f emulated s in %.0f s" % (
                        pace_name, g + 1, game_seed, len(moves), len(plan["flips"]),
                        len(plan["probes"]), result["emulated_s"], time.time() - began))
    return results


def figures(results):
    """Rows to print: (pace, measure, (min, median, p95, max) or a text, target text)."""
    rows = []
    for pace, games in results.items():
        light = [x for g in games for x in g["light"]]
        rows.append((pace, "switch_to_light (%d placements)" % len(light), spread(light),
                     "p95 <= 20, max <= 25 ms"))
        for third, name in ((0, "early third"), (2, "last third")):
            values = [x for g in games for x in g["light_third"][third]]
            rows.append((pace, "  %s" % name, spread(values), ""))
        clear = [x for g in games for x in g["light_clear"]]
        rows.append((pace, "  no save in the way (%d)" % len(clear), spread(clear), ""))
        rows.append((pace, "  closing -> first scan that sees it",
                     spread([x for g in games for x in g["scan_wait"]]), ""))
        rows.append((pace, "  that scan -> the scan that debounces it",
                     spread([x for g in games for x in g["debounce_wait"]]), ""))
        rows.append((pace, "  that scan -> frame end (scan_to_frame)",
                     spread([x for g in games for x in g["scan_to_frame"]]), ""))
        each = [x for g in games for x in g["firmware_each"]]
        if each:
            rows.append((pace, "closing_to_frame (firmware)", spread(each), ""))
        rows.append((pace, "closing_to_frame max, any closing (firmware)",
                     "%.1f ms" % max(g["firmware_closing_max"] for g in games), ""))
        play = max(max(g["gaps_play"]["save"], g["gaps_play"]["loop"]) for g in games)
        rows.append((pace, "longest scan gap in play", "%.1f ms" % play,
                     "step <= 20 ms"))
        rows.append((pace, "  without a flash operation",
                     "%.1f ms" % max(g["gaps_play"]["loop"] for g in games), ""))
        rows.append((pace, "  at the game's end (finished game saved)",
                     "%.1f ms" % max(g["gap_end"] for g in games), ""))
        steps = [g["firmware_step_max"] for g in games if g["firmware_step_max"] is not None]
        if steps:
            rows.append((pace, "step_max_ms, end included (firmware)", "%d ms" % max(steps),
                         ""))
        gaps = [x for g in games for x in g["save_gaps"]]
        rows.append((pace, "scan gap of a save (%d saves)" % len(gaps), spread(gaps), ""))
        probes = [p for g in games for p in g["probes"]]
        for hold in PROBE_HOLDS:
            mine = [p for p in probes if p["hold"] == hold]
            unseen = [p for p in mine if not p["seen"]]
            during = [p for p in mine if p["during_save"]]
            target = "0 unseen" if hold >= 80 else ""
            rows.append((pace, "unseen %d ms lifts" % hold,
                         "%d of %d (%d of the %d overlapping a save)" % (
                             len(unseen), len(mine),
                             sum(1 for p in unseen if p["during_save"]), len(during)),
                         target))
        rows.append((pace, "flash written a game (bytes programmed, erases)",
                     "%d B, %d erases; %d operations before game over" % (
                         max(g["flash_programmed"] for g in games),
                         max(g["flash_erases"] for g in games),
                         max(g["flash_ops_play"] for g in games)), ""))
        if any(g["fram_written"] for g in games):
            rows.append((pace, "FRAM written a game (bytes, bus time)", "%d B, %.1f ms" % (
                max(g["fram_written"] for g in games), max(g["fram_busy_ms"] for g in games)),
                ""))
        complete = sum(1 for g in games if g["stalled_at"] is None and g["game_over"])
        rows.append((pace, "games played to the end", "%d of %d" % (complete, len(games)),
                     "all"))
    return rows


def verdicts(results):
    """{target name: (measured, met)} over every pace."""
    light = [x for games in results.values() for g in games for x in g["light"]]
    play = max(max(g["gaps_play"]["save"], g["gaps_play"]["loop"])
               for games in results.values() for g in games)
    unseen = sum(1 for games in results.values() for g in games for p in g["probes"]
                 if p["hold"] >= 80 and not p["seen"])
    out = {}
    if light:
        out["switch_to_light_p95"] = percentile(light, 95)
        out["switch_to_light_max"] = max(light)
    out["longest_step_in_play"] = play
    out["unseen_80ms_or_more"] = unseen
    return {name: (value, value <= TARGETS[name]) for name, value in out.items()}


def print_table(results, out=sys.stdout):
    print("%-6s %-46s %8s %8s %8s %8s  %s" % ("pace", "measure (ms)", "min", "median", "p95",
                                              "max", "target"), file=out)
    for pace, name, value, target in figures(results):
        if isinstance(value, tuple):
            print("%-6s %-46s %8.1f %8.1f %8.1f %8.1f  %s" % ((pace, name) + value + (target,)),
                  file=out)
        elif value is None:
            print("%-6s %-46s %8s  %s" % (pace, name, "-", target), file=out)
        else:
            print("%-6s %-46s %s  %s" % (pace, name, value, target), file=out)
    for name, (value, met) in verdicts(results).items():
        print("target %-28s %8.1f  %s" % (name, value, "met" if met else "MISSED"), file=out)
    out.flush()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=int(os.environ.get("BENCH_PICO_GAMES", 2)),
                        help="games a pace (default BENCH_PICO_GAMES or 2)")
    parser.add_argument("--pace", choices=sorted(PACES), action="append",
                        help="only this pace (may be given twice; default both)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--stats-each", action="store_true",
                        help="ask the firmware's stats after each placement too")
    parser.add_argument("--firmware", help="a folder laid out as firmware/ to measure instead")
    parser.add_argument("--keep", help="keep the flash contents and reports in this folder")
    parser.add_argument("--json", help="write the measurements to this file")
    parser.add_argument("--fram", action="store_true",
                        help="an FRAM fitted on the board (the game in progress saved there)")
    args = parser.parse_args(argv)
    if args.fram:
        pico_board.FRAM = ""
    emu_dir = os.environ.get("RP2EMU")
    if not emu_dir:
        print("pico-games: set RP2EMU to a folder set up as ../shared/tools/rp2emu/README.md "
              "says (docs/benchmarks.md)")
        return 2
    results = run(emu_dir, args.games, tuple(args.pace or ("brisk", "slow")), args.seed,
                  args.stats_each, args.firmware, args.keep)
    print_table(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
