// A power cut inside a save, on the emulated Pico's flash: for tests/bench/pico_torn_saves.py.
//
// Phase 1, the saves: the emulator (board-emu.mjs in the folder named by RP2EMU) boots with
// MicroPython's littlefs on its flash, the plan's files (the compiled gameboard and iago
// packages under lib/) are copied there, and game 0 is saved with the firmware's
// Saves.save. Then games 1..S are saved in turn, one save a REPL command, while every flash
// erase and program the boot ROM is asked for is logged with the bytes it changed (the
// flash before and after it). Each save's read-back must be the bytes the plan expects.
//
// Phase 2, the cuts: for each save and each of its flash operations k, the flash as a power
// cut would leave it:
//   before   operations 1..k-1 of the save done, k not at all;
//   prefix   k torn: a random prefix of its bytes done, the next byte only partly (a random
//            part of the bits it changes), the rest untouched; the prefix ends among the
//            bytes k changes; in the plan's first `sweep` saves, every such prefix;
//   scatter  k torn anywhere: each bit it changes changed or not, at random;
//   half     (an erase) its first half erased, the rest as before;
//   done     (after the last operation of the last save) every operation done.
// Each flash image boots a fresh emulator; MicroPython mounts it as on a real start-up, and a
// snippet reads game.sav's bytes and runs Saves('/').load(). The cut is "old" if the bytes
// and the loaded moves are the previous save's, "new" if they are this save's, else
// "other" (a failure, printed). With resave on, the board then saves another game (the
// plan's `resave`), and one more fresh boot from that flash must read it back exactly: the
// file system still works after the cut. Identical flash images are booted once.
//
// Usage: RP2EMU=<emulator folder> node torn_saves.mjs --plan PLAN.json --out REPORT.json
// PLAN: {"files": folder, "games": [[move names], ...], "bytes": [hex of each game's save],
//        "resave": [move names], "resave_bytes": hex, "prefixes": 2, "scatter": 1,
//        "erase_scatter": 1, "sweep": 0, "seed": 1, "resave_check": true,
//        "control": false}
import crypto from 'crypto';
import fs from 'fs';
import { loadBoardEmu } from './emulator.mjs';

const BoardEmu = await loadBoardEmu();

const args = process.argv.slice(2);
const opt = {};
for (let i = 0; i < args.length; i += 2) opt[args[i].replace(/^--/, '')] = args[i + 1];
if (!opt.plan || !opt.out) {
  console.error('usage: node torn_saves.mjs --plan PLAN.json --out REPORT.json');
  process.exit(2);
}
const plan = JSON.parse(fs.readFileSync(opt.plan, 'utf8'));
const PREFIXES = plan.prefixes ?? 2;
const SCATTER = plan.scatter ?? 1;
const ERASE_SCATTER = plan.erase_scatter ?? 1;
const SWEEP = plan.sweep ?? 0;           // the first SWEEP saves: every prefix, not PREFIXES
const RESAVE = plan.resave_check !== false;
const IMAGE = 2 * 1024 * 1024;           // a Pico's flash: the firmware, then littlefs
const CONFIG = { rows: [2], cols: [10], led_pin: 22, led_count: 1, cells: {} };
const wall0 = performance.now();
const log = (...a) => console.error(...a);

// mulberry32: the cuts' random prefixes and bits, reproducible from the plan's seed
let seed = (plan.seed ?? 1) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const randInt = (n) => Math.floor(random() * n);

const movesLiteral = (moves) => JSON.stringify(moves.join(' '));

// --- phase 1: the saves, with every flash operation logged -----------------------------------

function newEmu() {
  const b = new BoardEmu(CONFIG, { log: () => {} });
  b.boot();
  return b;
}

function deviceOutput(b, code) {
  return b.exec(code).replace(/\r/g, '');
}

// The control (plan.control): not the firmware's save but the same bytes in two commits (a
// flush between two halves), which a cut can tear; the method must report it.
const CONTROL_SAVE = (hexBytes) => `from binascii import unhexlify
LINE = unhexlify('${hexBytes}')
with open('/game.sav', 'wb') as f:
    f.write(LINE[:len(LINE) // 2])
    f.flush()
    f.write(LINE[len(LINE) // 2:])
`;

function recordSaves() {
  const b = newEmu();
  b.setupFs('flash');
  b.copyFiles(plan.files);
  const ops = [];
  let save = -1;                // the save in progress; -1: none
  let stray = 0;                // flash operations between the saves (there must be none)
  let armed = false;
  const prev = b.mcu.onBreak;
  b.mcu.onBreak = (code) => {
    if (code !== 0xe1 && code !== 0xe2) { prev(code); return; }
    const r = b.mcu.core.registers;
    const addr = r[0] & (b.mcu.flash.length - 1);
    const count = code === 0xe1 ? Math.ceil((r[1] >>> 0) / 4096) * 4096 : r[2] >>> 0;
    const before = b.mcu.flash.slice(addr, addr + count);
    prev(code);
    const after = b.mcu.flash.slice(addr, addr + count);
    if (addr + count > IMAGE) throw new Error('flash operation past the first 2 MB: ' + addr);
    if (save < 0) stray += armed ? 1 : 0;
    else ops.push({ save, kind: code === 0xe1 ? 'erase' : 'program', addr, count, before, after });
  };
  deviceOutput(b, `import iago
from gameboard.saves import Saves
from gameboard.settings import Settings
from binascii import hexlify
SAVES = Saves('/')
SETTINGS = Settings()
def game(moves):
    g = iago.Board()
    for m in moves.split():
        g.play(m)
    return g
def readback():
    with open('/game.sav', 'rb') as f:
        print(hexlify(f.read()).decode())
`);
  const images = [];          // images[i]: the flash right before save i (i >= 1)
  const t0 = performance.now();
  for (let i = 0; i < plan.games.length; i++) {
    // the game is built before the save starts; only the save's own operations are logged
    deviceOutput(b, `G = game(${movesLiteral(plan.games[i])})`);
    if (i > 0) images[i] = b.mcu.flash.slice(0, IMAGE);
    save = i;
    const out = deviceOutput(b, (plan.control && i > 0 ? CONTROL_SAVE(plan.bytes[i])
      : 'SAVES.save(SETTINGS, G, [])\n') + 'readback()').trim();
    save = -1;
    armed = true;
    if (out !== plan.bytes[i]) {
      throw new Error(`save ${i} read back ${out}, expected ${plan.bytes[i]}`);
    }
  }
  if (stray) throw new Error(`${stray} flash operations outside the saves`);
  const final = b.mcu.flash.slice(0, IMAGE);
  log(`[saves: ${plan.games.length} saved (game 0 first) in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s, ${ops.length} flash operations]`);
  return { ops, images, final };
}

// --- phase 2: the cuts -----------------------------------------------------------------------

// The flash bytes of operation `op` done only where `mask` (per byte: the bits taking their
// new value) says.
function torn(image, op, maskOf) {
  for (let i = 0; i < op.count; i++) {
    const b0 = op.before[i], b1 = op.after[i];
    image[op.addr + i] = b0 ^ ((b0 ^ b1) & maskOf(i));
  }
}

function cutsOf(recorded) {
  const cuts = [];
  const saves = plan.games.length - 1;
  for (let s = 1; s <= saves; s++) {
    const ops = recorded.ops.filter((op) => op.save === s);
    const image = recorded.images[s].slice();
    // A cut's flash is built when it is booted (the images of all cuts at once would not fit).
    const upTo = (k) => () => {
      const img = recorded.images[s].slice();
      for (const op of ops.slice(0, k)) img.set(op.after, op.addr);
      return img;
    };
    ops.forEach((op, k) => {
      const base = { save: s, op: k + 1, ops: ops.length, kind: op.kind };
      const variant = (name, detail, apply) => {
        const before = upTo(k);
        const image = () => { const img = before(); apply(img); return img; };
        cuts.push({ ...base, variant: name, detail, image });
      };
      const scatter = () => {
        const mask = Uint8Array.from({ length: op.count }, () => randInt(256));
        variant('scatter', '', (img) => torn(img, op, (i) => mask[i]));
      };
      variant('before', '', () => {});
      if (op.kind === 'program') {
        // The prefix ends inside the bytes the program changes (a page program's tail is
        // mostly 0xff, which changes nothing: a prefix ending there is the whole program).
        let lo = 0, hi = op.count - 1;
        while (lo < hi && op.before[lo] === op.after[lo]) lo++;
        while (hi > lo && op.before[hi] === op.after[hi]) hi--;
        const prefix = (p) => {
          const bits = randInt(256);           // bytes 0..p-1 programmed, of byte p these bits
          variant('prefix', `${p} of ${op.count} bytes (changing ${lo}..${hi}) + bits ${bits.toString(16)}`,
            (img) => torn(img, op, (i) => (i < p ? 0xff : i === p ? bits : 0)));
        };
        if (s <= SWEEP) for (let p = lo; p <= hi; p++) prefix(p);
        else for (let j = 0; j < PREFIXES; j++) prefix(lo + randInt(hi - lo + 1));
        for (let j = 0; j < SCATTER; j++) scatter();
      } else {
        variant('half', `${op.count / 2} of ${op.count} bytes`,
          (img) => torn(img, op, (i) => (i < op.count / 2 ? 0xff : 0)));
        for (let j = 0; j < ERASE_SCATTER; j++) scatter();
      }
      image.set(op.after, op.addr);
    });
    const next = s < saves ? recorded.images[s + 1] : recorded.final;
    if (Buffer.compare(Buffer.from(image), Buffer.from(next)) !== 0) {
      throw new Error(`save ${s}: its logged flash operations do not give the flash after it`);
    }
    if (s === saves) {
      cuts.push({ save: s, op: ops.length + 1, ops: ops.length, kind: '-', variant: 'done', detail: '',
        image: upTo(ops.length) });
    }
  }
  return cuts;
}

const READ = `import os
from binascii import hexlify
print('ROOT', ' '.join(sorted(os.listdir('/'))))
try:
    with open('/game.sav', 'rb') as f:
        print('RAW', hexlify(f.read()).decode())
except OSError as e:
    print('RAW none', e)
`;
const LOAD = `try:
    from gameboard.saves import Saves
    LOADED = Saves('/').load()
    if LOADED is None:
        print('LOAD none')
    else:
        g = LOADED[1]
        print('LOAD', ' '.join([g.grid.cell_name(c) for c in g.move_stack]))
except Exception as e:
    print('LOADERR', repr(e))
`;
const RESAVE_CODE = () => `import iago
from gameboard.saves import Saves
from gameboard.settings import Settings
g = iago.Board()
for m in ${movesLiteral(plan.resave)}.split():
    g.play(m)
try:
    Saves('/').save(Settings(), g, [])
    print('RESAVED')
except Exception as e:
    print('RESAVEERR', repr(e))
`;

function parse(out) {
  const lines = {};
  for (const line of out.split('\n')) {
    const k = line.indexOf(' ');
    const key = k < 0 ? line : line.slice(0, k);
    if (key) lines[key] = k < 0 ? '' : line.slice(k + 1);
  }
  return lines;
}

// Boot a fresh emulator on `image`: what the board reads, and with resave, whether it saves
// again and reads that back after one more start-up.
function check(image) {
  const b = new BoardEmu(CONFIG, { log: () => {} });
  b.mcu.flash.set(image, 0);
  b.boot();
  const first = parse(deviceOutput(b, READ + LOAD));
  const r = { root: first.ROOT, raw: first.RAW, load: first.LOAD ?? null, loaderr: first.LOADERR ?? null };
  if (RESAVE) {
    const saved = parse(deviceOutput(b, RESAVE_CODE()));
    r.resave = saved.RESAVED !== undefined ? 'saved' : 'error ' + saved.RESAVEERR;
    const again = new BoardEmu(CONFIG, { log: () => {} });
    again.mcu.flash.set(b.mcu.flash.subarray(0, IMAGE), 0);
    again.boot();
    const second = parse(deviceOutput(again, READ));
    r.resave_raw = second.RAW;
    r.resave_ok = r.resave === 'saved' && second.RAW === plan.resave_bytes;
  }
  return r;
}

function classify(cut, r) {
  const old = cut.save - 1, neu = cut.save;
  const is = (g) => r.raw === plan.bytes[g] && r.load === plan.games[g].join(' ') && !r.loaderr;
  if (is(neu)) return 'new';
  if (is(old)) return 'old';
  return 'other';
}

const recorded = recordSaves();
const cuts = cutsOf(recorded);
log(`[cuts: ${cuts.length} flash images to boot]`);
const seen = new Map();
const rows = [];
const counts = { old: 0, new: 0, other: 0, resave_failed: 0 };
let booted = 0;
const t1 = performance.now();
for (const cut of cuts) {
  const image = cut.image();
  const key = crypto.createHash('sha1').update(image).digest('hex');
  let r = seen.get(key);
  if (!r) {
    r = check(image);
    seen.set(key, r);
    booted++;
  }
  const verdict = classify(cut, r);
  counts[verdict]++;
  const row = { save: cut.save, op: cut.op, ops: cut.ops, kind: cut.kind, variant: cut.variant,
    detail: cut.detail, verdict };
  if (RESAVE) {
    row.resave_ok = r.resave_ok;
    if (!r.resave_ok) counts.resave_failed++;
  }
  if (verdict === 'other' || (RESAVE && !r.resave_ok)) {
    Object.assign(row, { root: r.root, raw: r.raw, load: r.load, loaderr: r.loaderr,
      resave: r.resave, resave_raw: r.resave_raw,
      expected_old: plan.bytes[cut.save - 1], expected_new: plan.bytes[cut.save] });
    log('FAILED ' + JSON.stringify(row));
  }
  rows.push(row);
  if (rows.length % 20 === 0) {
    log(`[${rows.length}/${cuts.length} cuts, ${booted} booted, ` +
        `${((performance.now() - t1) / 1000).toFixed(0)} s: old ${counts.old} new ${counts.new} ` +
        `other ${counts.other}]`);
  }
}
const opsBySave = {};
for (const op of recorded.ops) opsBySave[op.save] = (opsBySave[op.save] || 0) + 1;
const report = {
  saves: plan.games.length - 1,
  flash_ops: recorded.ops.filter((op) => op.save > 0).length,
  erases: recorded.ops.filter((op) => op.save > 0 && op.kind === 'erase').length,
  ops_by_save: opsBySave,
  cuts: rows.length,
  images_booted: booted,
  ...counts,
  resave_check: RESAVE,
  wall_s: (performance.now() - wall0) / 1000,
  rows,
};
fs.writeFileSync(opt.out, JSON.stringify(report, null, 1));
console.log(`saves ${report.saves} (${report.flash_ops} flash operations, ${report.erases} erases); ` +
  `cut points ${report.cuts} (${booted} distinct images booted): old ${counts.old}, ` +
  `new ${counts.new}, other ${counts.other}` +
  (RESAVE ? `; saving again after the cut failed ${counts.resave_failed}` : '') +
  `; ${report.wall_s.toFixed(0)} s`);
process.exit(0);
