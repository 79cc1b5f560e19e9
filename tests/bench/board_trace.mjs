// board-emu with a trace, for tests/bench/pico_games.py.
//
// Runs the emulator's BoardEmu (board-emu.mjs in the folder named by RP2EMU) exactly as its
// command line does, and adds to its report what a complete game needs to be judged:
//   trace.scans_ms  the start of every matrix scan (the first row line driven low), ms after t0
//   trace.flash     every flash erase or program: [start ms after t0, "erase" | "program",
//                   busy ms, bytes]
// Usage: RP2EMU=<emulator folder> node board_trace.mjs --config C --scenario S --out R
//        [--t0 serial:REGEX] [--until REGEX] [--frames] [--echo]
import fs from 'fs';
import path from 'path';
import { loadBoardEmu } from './emulator.mjs';

const BoardEmu = await loadBoardEmu();

const args = process.argv.slice(2);
const opt = {};
for (let i = 0; i < args.length; i++) {
  const key = args[i].replace(/^--/, '');
  if (key === 'frames' || key === 'echo') opt[key] = true; else opt[key] = args[++i];
}
const cfg = JSON.parse(fs.readFileSync(opt.config, 'utf8'));
let sc = JSON.parse(fs.readFileSync(opt.scenario, 'utf8'));
if (Array.isArray(sc)) sc = { events: sc };
const t0 = opt.t0 || sc.t0 || 'main';
const tailMs = Number(sc.tail_ms ?? 500);

const b = new BoardEmu(cfg, { fsMode: 'flash', runMode: 'soft-reset', t0, echo: !!opt.echo,
  log: (...a) => console.error(...a) });
// Flash operations with their times: the harness answers the boot ROM's erase (0xe1) and
// program (0xe2) calls in onBreak and charges their busy time to the clock there.
const flash = [];
const onBreak = b.mcu.onBreak;
b.mcu.onBreak = (code) => {
  const start = b.emu.nanos;
  const before = b.flashOps.bytes_erased + b.flashOps.bytes_programmed;
  onBreak(code);
  if ((code === 0xe1 || code === 0xe2) && b.capturing) {
    flash.push([start, code === 0xe1 ? 'erase' : 'program', b.emu.nanos - start,
      b.flashOps.bytes_erased + b.flashOps.bytes_programmed - before]);
  }
};
// --until REGEX: stop once the firmware has sent a serial line matching it.
if (opt.until) {
  const re = new RegExp(opt.until);
  const runTo = b.runTo.bind(b);
  let seen = 0, found = false;
  const done = () => {
    for (; seen < b.serial.length; seen++) if (re.test(b.serial[seen].line)) found = true;
    return found;
  };
  b.runTo = (tNs, pred) => runTo(tNs, () => (pred && pred()) || (b.capturing && done()));
}
b.boot();
for (const c of [...(cfg.initial || []), ...(sc.initial || [])]) b.setCell(c, true);
const filesDir = path.resolve(path.dirname(path.resolve(opt.config)), cfg.files);
b.setupFs('flash', 0);
b.copyFiles(filesDir);
b.startMain('soft-reset', cfg.main || 'main.py');
b.run(sc.events, { t0, tailMs });
const rep = b.report({ frames: !!opt.frames });
const ms = (ns) => +((ns - b.t0Ns) / 1e6).toFixed(4);
rep.trace = {
  t0_ns: b.t0Ns,
  scans_ms: b.row0Lows.map(ms),
  flash: flash.map(([t, kind, busy, bytes]) => [ms(t), kind, +(busy / 1e6).toFixed(4), bytes]),
};
fs.writeFileSync(opt.out, JSON.stringify(rep));
process.exit(0);
