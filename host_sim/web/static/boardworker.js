// The simulated board in the page: the unmodified firmware under MicroPython's WebAssembly port,
// in this Web Worker because MicroPython blocks the thread it runs on. The Python files (the
// firmware's lib, host_sim's simulator, the board maps) come as one bundle, board-files.json,
// written by `make site` (host_sim/web/site.py); the flash is kept by the page in the browser's
// storage and handed over at boot, so a reload is a power cut. See host_sim/web/inpage.
//
// Page to worker: {type: "boot", flash: {path: base64}, disks: JSON text}, {type: "host"} (a
// real board's views only), {type: "act", id, action, body}, {type: "record", id},
// {type: "view", id, state}, {type: "leds", id, state, now, startup}, {type: "check", id, body}.
// Worker to page: {type: "ready"}, {type: "failed", error}, {type: "news", news},
// {type: "reply", id, result}, {type: "flash", files, disks}, {type: "pulse", pulse}.
import { loadMicroPython } from "./mp/micropython.js";

const TURN_MS = 10;                // the board's turns, as the sim thread's in `iago serve --sim`
const KEEP_MS = 250;               // the flash and the disks are checked for changes this often
const HEAP = 16 * 1024 * 1024;
const MAP = "/hardware/board.json";

let mp = null;
let driver = null;                 // pageboard.PageDriver, once booted
let pageboard = null;
let kept = "";                     // the flash's files as last sent to the page: sizes and times

async function load() {
  const files = await (await fetch(new URL("board-files.json", import.meta.url))).json();
  mp = await loadMicroPython({ heapsize: HEAP, linebuffer: true,
                               stdout: (line) => console.log(line), stderr: (line) => console.warn(line) });
  for (const [path, text] of Object.entries(files)) {
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, text);
  }
  // The stand-ins for CPython modules first, then the firmware's lib and host_sim; no .frozen,
  // which a Pico lacks.
  mp.runPython([
    "import sys",
    "sys.path[:] = ['/stdlib', '/lib']",
    "import seededrandom, hosttime",
    "sys.modules['random'] = seededrandom",
    "sys.modules['time'] = hosttime",
  ].join("\n"));
  pageboard = mp.pyimport("host_sim.web.inpage.pageboard");
}

function restoreFlash(flash) {
  mp.FS.mkdirTree("/flash");
  for (const [name, data] of Object.entries(flash || {})) {
    const path = "/flash/" + name;
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
  }
}

// Every file under /flash as [path below /flash, stat].
function flashFiles(dir = "/flash", out = []) {
  for (const name of mp.FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const path = dir + "/" + name;
    const stat = mp.FS.stat(path);
    if (mp.FS.isDir(stat.mode)) flashFiles(path, out);
    else out.push([path.slice("/flash/".length), stat]);
  }
  return out;
}

function keepFlash() {
  const files = flashFiles();
  const sign = files.map(([name, stat]) => `${name}:${stat.size}:${+stat.mtime}`).sort().join("|") +
    "|" + driver.disks_json();
  if (sign === kept) return;
  kept = sign;
  const out = {};
  for (const [name] of files) {
    const bytes = mp.FS.readFile("/flash/" + name);
    let text = "";
    for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
    out[name] = btoa(text);
  }
  postMessage({ type: "flash", files: out, disks: driver.disks_json() });
}

function run() {
  let last = performance.now();
  let keptAt = last;
  const turn = () => {
    const now = performance.now();
    const news = driver.turn(now - last);
    last = now;
    if (news !== "{}") postMessage({ type: "news", news });
    if (now - keptAt >= KEEP_MS) {
      keptAt = now;
      keepFlash();
      postMessage({ type: "pulse", pulse: driver.pulse_json() });
    }
    setTimeout(turn, Math.max(0, TURN_MS - (performance.now() - now)));
  };
  turn();
}

const handlers = {
  async boot(msg) {
    await load();
    restoreFlash(msg.flash);
    driver = pageboard.PageDriver(MAP, msg.disks || "{}", 0);
    postMessage({ type: "ready" });          // before the first state: a page seeing it may act
    postMessage({ type: "news", news: driver.turn(0) });
    run();
  },
  async host() {
    await load();
    postMessage({ type: "ready" });
  },
  act: (msg) => {
    const result = driver.act(msg.action, msg.body);
    postMessage({ type: "news", news: driver.news() });   // what the action lit, at once
    return result;
  },
  record: (msg) => (msg.state ? pageboard.state_record(msg.state, msg.site) : driver.record_json()),
  view: (msg) => pageboard.board_view(msg.state),
  leds: (msg) => pageboard.board_leds(msg.state, msg.now, msg.startup),
  check: (msg) => pageboard.checked_command(msg.body),
};

onmessage = async (e) => {
  const msg = e.data;
  try {
    const result = await handlers[msg.type](msg);
    if (msg.id !== undefined) postMessage({ type: "reply", id: msg.id, result });
  } catch (err) {
    const error = String(err && err.message || err).slice(0, 2000);
    if (msg.id !== undefined) postMessage({ type: "reply", id: msg.id, result: JSON.stringify({ ok: false, status: 500, error }) });
    else postMessage({ type: "failed", error });
  }
};
