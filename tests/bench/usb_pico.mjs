// An emulated Pico on the board, plugged into this computer for as long as the process runs:
// the emulators of ../shared/tools/rp2emu (MicroPython, folder RP2EMU) and
// ../shared/tools/cpemu (CircuitPython, folder CPEMU), with the board's reed matrix and LED
// chain, run in step with the wall clock, so a host program talks to it as to a real one.
//
// - stdin / stdout: the bytes of the Pico's USB serial port (host to board, board to host);
//   tests/bench/usb_board.py puts them on a pseudo-terminal for mpremote.
// - --commands FD, commands (JSON lines): {"cmd": "place" | "lift", "cell": "E4"}, {"cmd": "pin",
//   "gpio": 22, "level": 0 | 1} (a button: 0 held), {"cmd": "leds"}, {"cmd": "off"}
//   (unplugged: the flash is written to --flash-out and the process ends).
// - --events FD, what happens (JSON lines): {"usb": true} once the host has the port, {"line": ...}
//   for each line the board sends, {"frame": ...} for each LED frame unlike the one before
//   ("all": the colour every LED shows, or null; "lit": how many are not dark),
//   {"reset": "watchdog" | "forced"} when the chip resets, {"leds": {...}}, {"off": ...}.
//   Each carries "t_ms", the emulated time since power-on (resets included).
//
// A chip reset (machine.reset(), microcontroller.reset() or the watchdog running out) powers
// a fresh emulated chip with the same flash, the reason in the watchdog's REASON register
// (MicroPython's machine.reset_cause() reads WDT_RESET), the disks still on their hexes.
// The emulated clock never runs ahead of the wall clock: a Pico idling at its REPL waits
// for the host in real time, as the watchdog does.
//
// Usage: node usb_pico.mjs --runtime micropython|circuitpython --config BOARD.json
//        --commands FD --events FD [--fw F.uf2] [--flash-in FLASH] [--uf2 EXTRA.uf2]
//        [--flash-out FLASH] [--hold GPIO] [--disks E4,E6 (on their hexes at power-on)]
// BOARD.json: the emulator's board config (tests/bench/pico_board.py's emulator_config).
import fs from 'fs';
import path from 'path';
import readline from 'readline';
import { pathToFileURL } from 'url';

const args = process.argv.slice(2);
const opt = {};
for (let i = 0; i < args.length; i += 2) opt[args[i].replace(/^--/, '')] = args[i + 1];
const micropython = opt.runtime !== 'circuitpython';
const emuDir = process.env[micropython ? 'RP2EMU' : 'CPEMU'];
if (!emuDir) {
  console.error(`set ${micropython ? 'RP2EMU' : 'CPEMU'} to the emulator folder`);
  process.exit(2);
}
const runner = path.resolve(emuDir, micropython ? 'board-emu.mjs' : 'cp-board-emu.mjs');
const { BoardEmu } = await import(pathToFileURL(runner).href);
const cfg = JSON.parse(fs.readFileSync(opt.config, 'utf8'));
const fw = path.resolve(opt.fw || path.join(emuDir, 'fw.uf2'));
const EVENTS = Number(opt.events);
const WATCHDOG = 0x40058;
const REASON = { 1: 'watchdog', 2: 'forced' };

function out(event) {
  fs.writeSync(EVENTS, JSON.stringify({ t_ms: +(now() / 1e6).toFixed(3), ...event }) + '\n');
}

// UF2 blocks onto the flash (MicroPython's own image, then --uf2 over its filesystem range).
function applyUf2(flash, file) {
  const data = fs.readFileSync(file);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const dv = new DataView(data.buffer, data.byteOffset + off, 512);
    if (dv.getUint32(0, true) !== 0x0a324655 || dv.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = dv.getUint32(12, true) - 0x10000000, size = dv.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr);
  }
}

let board = null, emu = null, base = 0, lines = 0, lastFrame = 0, lastSummary = '';
let resetReason = 0, connected = false, off = false;
const closed = new Set();
const pins = new Map();   // buttons held or released by the host program
const wall0 = performance.now();
let lastStatus = 0;
const now = () => base + (emu ? emu.nanos : 0);

function powerOn(flash, reason) {
  board = new BoardEmu(cfg, { fw, files: {}, log: () => {} });
  emu = board.emu;
  if (flash) board.mcu.flash.set(flash);
  else if (opt['flash-in']) board.mcu.flash.set(fs.readFileSync(opt['flash-in']));
  if (!flash && opt.uf2) applyUf2(board.mcu.flash, opt.uf2);
  const watchdog = board.mcu.peripherals[WATCHDOG];
  watchdog.reason = reason;
  watchdog.onWatchdogTrigger = () => {
    resetReason = watchdog.reason || 2;
    // The chip resets here. (rp2040js would fire the expired alarm again at the same instant,
    // for ever: its periodic alarm counting down to 0 is rescheduled 0 ns ahead.)
    watchdog.alarm.enable = false;
  };
  capAlarms(emu.sim.clock);
  board.capturing = true;
  lines = 0; lastFrame = 0; connected = false;
  const tap = emu.cdc.onSerialData;
  emu.cdc.onSerialData = (buf) => {
    tap(buf);
    process.stdout.write(Buffer.from(buf));
    emu.rx = '';
    if (emu.rxChunks) emu.rxChunks.length = 0;
  };
  for (const cell of closed) board.setCell(cell, true);
  for (const [gpio, level] of pins) board.mcu.gpio[gpio].setInputValue(!!level);
}

function report() {
  if (!connected && emu.connected) { connected = true; out({ usb: true }); }
  for (; lines < board.serial.length; lines++) out({ line: board.serial[lines].line });
  for (; lastFrame < board.frames.length; lastFrame++) {
    const f = board.frames[lastFrame];
    const hex = (p) => '#' + [p[1], p[0], p[2]].map((x) => x.toString(16).padStart(2, '0')).join('');
    const colours = new Set(f.pix.map(hex));
    const summary = JSON.stringify({ all: colours.size === 1 ? [...colours][0] : null,
      lit: f.pix.filter((p) => p.some((x) => x)).length });
    if (summary !== lastSummary) out({ frame: JSON.parse(summary) });
    lastSummary = summary;
  }
}

// Run the chip until its clock reaches `limit` (ns since this power-on) or it resets. Asleep,
// the runner skips to the next timer alarm: never past `limit` (an alarm can lie minutes
// ahead), so the host's bytes and the wall clock keep up with it.
let cap = Infinity;
function capAlarms(clock) {
  const next = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(clock), 'nanosToNextAlarm').get;
  Object.defineProperty(clock, 'nanosToNextAlarm', {
    get() {
      const due = next.call(clock), room = cap - clock.nanos;
      return room <= 0 ? 0 : due > 0 ? Math.min(due, room) : room;
    },
  });
}
function advance(limit) {
  cap = limit;
  while (emu.nanos < limit && !resetReason) {
    emu.feed();
    emu.step(2000);
    board.pollLeds();
  }
}

function command(line) {
  const c = JSON.parse(line);
  if (c.cmd === 'place' || c.cmd === 'lift') {
    if (c.cmd === 'place') closed.add(c.cell); else closed.delete(c.cell);
    board.setCell(c.cell, c.cmd === 'place');
  } else if (c.cmd === 'pin') {
    pins.set(c.gpio, c.level);
    board.mcu.gpio[c.gpio].setInputValue(!!c.level);
  } else if (c.cmd === 'leds') {
    const hex = (p) => (p ? '#' + [p[1], p[0], p[2]].map((x) => x.toString(16).padStart(2, '0')).join('') : null);
    out({ leds: Object.fromEntries(Object.entries(board.cells).map(([n, cell]) => [n, hex(board.ledState[cell.led])])) });
  } else if (c.cmd === 'off') {
    off = true;
  } else throw new Error('unknown command ' + line);
}

process.stdin.on('data', (buf) => emu.write(buf));
process.stdin.on('end', () => {});
readline.createInterface({ input: fs.createReadStream(null, { fd: Number(opt.commands) }) }).on('line', command);

if (opt.hold) pins.set(Number(opt.hold), 0);
for (const cell of (opt.disks || '').split(',').filter(Boolean)) closed.add(cell);
powerOn(null, 0);
const yieldNow = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
while (!off) {
  const wallNs = (performance.now() - wall0) * 1e6;
  if (now() < wallNs) advance(Math.min(wallNs - base, emu.nanos + 5e6));
  report();
  if (resetReason) {
    out({ reset: REASON[resetReason] || 'forced' });
    base += emu.nanos;
    const flash = board.mcu.flash.slice();
    const reason = resetReason;
    resetReason = 0;
    powerOn(flash, reason);
  }
  if (process.env.USB_PICO_ECHO && performance.now() - lastStatus > 5000) {
    lastStatus = performance.now();
    const core = board.mcu.core;
    console.error(JSON.stringify({ emu_ms: now() / 1e6, wall_ms: performance.now() - wall0,
      waiting: core.waiting, pc: core.PC.toString(16), next_alarm_ms: emu.sim.clock.nextAlarm ? (emu.sim.clock.nextAlarm.nanos - emu.nanos) / 1e6 : null,
      queued: emu.hostQueue.length, pending_read: !!emu.pendingRead }));
  }
  if (now() >= (performance.now() - wall0) * 1e6) await sleep(1); else await yieldNow();
}
report();
if (opt['flash-out']) fs.writeFileSync(opt['flash-out'], board.mcu.flash);
out({ off: { flash_ops: board.flashOps || emu.flashOps } });
process.exit(0);
