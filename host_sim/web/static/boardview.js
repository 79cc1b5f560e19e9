// The board drawn: its cells built once per shape, their gestures (click, long-press,
// right-click, keys), the LEDs' light and the disks and cues of each cell.
import { $, el } from "./dom.js";
import { DISK_R, R, W, hexFrame, hexPoints, neighbour, positionCells, shape, squarePoints } from "./geometry.js";
import { activate, flipGesture } from "./actions.js";
import { FACE_NAMES, SETTING_KEYS, page } from "./state.js";
import { chosenCell } from "./status.js";
import { settingWords } from "./news.js";

const LONG_PRESS_MS = 550;
export const NARROW = matchMedia("(max-width: 520px)");

export function buildBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const layout = shape.layout;
  if (!layout) return;
  const square = layout.kind === "square";
  svg.setAttribute("aria-label", square
    ? `the ${shape.cells.length} squares of the ${layout.title} board; Enter places or lifts, F turns a disk over, arrows move`
    : `the ${shape.cells.length} hexes of the board; Enter places or lifts, F turns a disk over, arrows move`);
  const xs = shape.cells.map((c) => c.x), ys = shape.cells.map((c) => c.y);
  const pad = R * 2.2;
  // On a phone the frame's side corners are cut off, so the hexes are large enough to tap.
  const padX = !square && NARROW.matches ? W / 2 + 4 : pad;
  const minX = Math.min(...xs) - padX, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", [minX, minY, Math.max(...xs) - minX + padX, Math.max(...ys) - minY + pad]
    .map((v) => v.toFixed(1)).join(" "));
  const defs = el("defs", {}, svg);
  const blur = el("filter", { id: "glow", x: "-60%", y: "-60%", width: "220%", height: "220%" }, defs);
  el("feGaussianBlur", { stdDeviation: R * 0.28 }, blur);
  const shade = el("radialGradient", { id: "shade", cx: "40%", cy: "35%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": "0.25" }, shade);
  el("stop", { offset: "100%", "stop-color": "#000", "stop-opacity": "0.25" }, shade);
  if (square) squareFrame(svg, layout);
  else el("polygon", { points: hexFrame(), class: "frame" }, svg);
  for (const cell of shape.cells) buildCell(svg, cell, square);
}

// The frame around the squares, files a... below and ranks 1... beside, as on the board.
function squareFrame(svg, layout) {
  const n = layout.size, side = 2 * R * n;
  el("rect", { x: -R * 1.3, y: -R * 1.3, width: side + R * 0.6, height: side + R * 0.6, class: "frame" }, svg);
  for (let i = 0; i < n; i++) {
    const file = el("text", { class: "coord", x: i * 2 * R, y: (n - 1) * 2 * R + R * 1.85 }, svg);
    file.textContent = layout.names[i].replace(/[0-9]/g, "");
    const rank = el("text", { class: "coord", x: -R * 1.75, y: (n - 1 - i) * 2 * R + R * 0.3 }, svg);
    rank.textContent = String(i + 1);
  }
}

function buildCell(svg, cell, square) {
  const g = el("g", {
    class: "hex" + (square ? " sq" : cell.outer ? " outer" : " inner") + (cell.centre ? " centre" : ""),
    "data-cell": cell.name, tabindex: cell.index === shape.focusIndex ? "0" : "-1",
    role: "gridcell", transform: `translate(${cell.x.toFixed(2)},${cell.y.toFixed(2)})`,
  }, svg);
  const points = square ? squarePoints(R * 0.97) : hexPoints(0, 0, R * 0.97);
  el("polygon", { class: "base", points }, g);
  cell.light = el("polygon", { class: "light", points }, g);
  if (cell.centre) el("circle", { class: "mark", r: R * 0.82 }, g);
  cell.glow = el("circle", { class: "glow", r: R * 0.86, filter: "url(#glow)" }, g);
  cell.ghost = el("circle", { class: "ghost", r: DISK_R }, g);
  cell.disk = el("g", { class: "disk" }, g);
  cell.face = el("circle", { class: "face", r: DISK_R }, cell.disk);
  el("circle", { class: "sheen", r: DISK_R, fill: "url(#shade)" }, cell.disk);
  el("circle", { class: "hidden", r: DISK_R * 0.42 }, cell.disk);
  // The computer's or a suggestion's hex: a steady ring, as the LED's blink goes dark half the time.
  el("circle", { class: "choice", r: R * 0.8 }, g);
  el("circle", { class: "last-mark", r: R * 0.2 }, g);     // the last placement, as on the table
  cell.label = el("text", { class: "label", y: R * 0.72 }, g);
  cell.label.textContent = cell.name;
  cell.key = el("text", { class: "setting-key", y: -R * 0.38 }, g);   // a settings hex's key
  cell.title = el("title", {}, g);
  cell.g = g;
  bindGestures(cell);
}

// --- gestures -----------------------------------------------------------------------------------

function bindGestures(cell) {
  const g = cell.g;
  let timer = null, longPressed = false;
  g.addEventListener("pointerdown", (e) => {
    longPressed = false;
    clearTimeout(timer);
    timer = null;
    if (e.button !== 0) return;
    timer = setTimeout(() => { timer = null; longPressed = true; flipGesture(cell.name); }, LONG_PRESS_MS);
  });
  g.addEventListener("pointerup", (e) => {
    if (e.button !== 0) return;
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (!longPressed) activate(cell.name);
    setFocus(cell.index, false);
  });
  for (const kind of ["pointerleave", "pointercancel"]) {
    g.addEventListener(kind, () => { clearTimeout(timer); timer = null; });
  }
  g.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    clearTimeout(timer);
    timer = null;
    // A touch long-press may bring both the timer and this event: one flip only.
    if (!longPressed) { longPressed = true; flipGesture(cell.name); }
  });
  g.addEventListener("keydown", (e) => onKey(e, cell));
}

function onKey(e, cell) {
  if (e.key.startsWith("Arrow")) {
    const next = neighbour(cell, e.key);
    if (next) setFocus(next.index, true);
    e.preventDefault();
  } else if (e.key === "Enter" || e.key === " ") {
    activate(cell.name);
    e.preventDefault();
  } else if (e.key === "f" || e.key === "F") {
    flipGesture(cell.name);
    e.preventDefault();
  }
}

function setFocus(index, move) {
  const cells = shape.cells;
  cells[shape.focusIndex].g.setAttribute("tabindex", "-1");
  shape.focusIndex = index;
  cells[index].g.setAttribute("tabindex", "0");
  if (move) cells[index].g.focus();
}

// --- the LEDs and the cells -----------------------------------------------------------------------

// LED values are the duty the firmware sends (linear light, after its gamma and brightness);
// a screen expects gamma-encoded values, so encode them with the sRGB exponent.
function screenLevel(v) { return Math.round(255 * Math.pow(v / 255, 1 / 2.2)); }

export function renderLeds() {
  for (const cell of shape.cells) {
    const hex = page.leds.substr(cell.index * 6, 6);
    if (hex.length < 6) continue;
    const r = parseInt(hex.substr(0, 2), 16), g = parseInt(hex.substr(2, 2), 16), b = parseInt(hex.substr(4, 2), 16);
    const lit = r + g + b > 0;
    const css = `rgb(${screenLevel(r)},${screenLevel(g)},${screenLevel(b)})`;
    cell.g.dataset.led = `${r},${g},${b}`;
    cell.led = [r, g, b];
    cell.glow.style.fill = css;
    cell.glow.style.opacity = lit ? 1 : 0;
    cell.light.style.fill = css;
    cell.light.style.opacity = lit ? 0.45 : 0;
    tintFace(cell);
  }
}

// A captive's red face is lit from below by its LED, whose colour tells the hidden owner
// (red toward blue or toward orange, docs/board.md). The disk is drawn in the LED's hue at full
// strength, so the owner shows on the disk at any brightness (the glow shows how bright); with
// the LED off, the plain red paint.
function tintFace(cell) {
  const disk = cell.g.dataset.disk;
  const top = cell.led ? Math.max(...cell.led) : 0;
  cell.face.style.fill = (disk === "d" || disk === "l") && top > 0
    ? `rgb(${cell.led.map((v) => screenLevel(v * 255 / top)).join(",")})` : "";
}

export function renderCells(state) {
  const snap = page.snap;
  const moves = state ? state.moves || [] : [];
  const seen = {
    state, position: state && state.position ? positionCells(state.position) : {},
    last: moves.length ? moves[moves.length - 1] : null, chosen: chosenCell(state),
    flips: new Set(state ? state.flips_pending : []), settingOf: settingsHexes(), pregame: isPregame(state),
  };
  const flipping = new Set(snap.flipping || []);
  document.body.classList.toggle("pregame", seen.pregame);
  for (const cell of shape.cells) {
    const face = snap.disks[cell.name];
    const held = snap.hand[cell.name];
    const g = cell.g;
    g.dataset.disk = face || "";
    tintFace(cell);
    g.dataset.hand = held || "";
    g.classList.toggle("has-disk", face !== undefined);
    g.classList.toggle("in-hand", held !== undefined);
    g.classList.toggle("turning", flipping.has(cell.name));
    g.classList.toggle("to-turn", seen.flips.has(cell.name));
    g.classList.toggle("last", cell.name === seen.last && face !== undefined);
    g.classList.toggle("chosen", cell.name === seen.chosen);
    g.dataset.mover = cell.name === seen.chosen ? state.turn : "";
    const setting = seen.settingOf[cell.name];
    g.classList.toggle("setting", !!setting);
    cell.key.textContent = setting ? setting[1] : "";
    const text = cellText(cell, face, held, seen);
    cell.title.textContent = text;
    g.setAttribute("aria-label", text);
  }
}

// What a cell shows, in words: its title and its label for a screen reader.
function cellText(cell, face, held, seen) {
  const { state, position, flips, last, chosen } = seen;
  let text = cell.name + (cell.centre ? " (centre)" : cell.outer ? " (outer ring)" : "");
  if (shape.layout.kind === "square") text = cell.name;
  text += ": " + (face ? FACE_NAMES[face] : held ? "empty, its disk is in hand (" + FACE_NAMES[held] + ")" : "empty");
  if (position[cell.name] && position[cell.name] !== face) text += "; the game has a " + FACE_NAMES[position[cell.name]];
  if (flips.has(cell.name)) text += "; turn it over";
  if (cell.name === last) text += "; the last placement";
  if (cell.name === chosen) text += "; " + (page.engineChoice.event === "computer_move" ? "the computer's choice" : "the suggestion");
  const setting = seen.settingOf[cell.name];
  if (setting) {
    text += `; settings hex ${setting[1]}: ${setting[2]}` +
      (state && state.settings ? `, now ${settingWords(setting[0], state.settings)}` : "") +
      (seen.pregame ? " (rest a disk on it 0.4 s to step it)" : " (stepped before the first placement)");
  }
  return text;
}

// {cell name: [setting, key, what]} of the board's settings hexes (docs/board.md, "Settings").
export function settingsHexes() {
  const snap = page.snap;
  const cellOf = (snap && snap.layout && snap.layout.settings) || {};
  const out = {};
  for (const entry of SETTING_KEYS) if (cellOf[entry[0]]) out[cellOf[entry[0]]] = entry;
  return out;
}

// Before the first placement the settings hexes step settings (and the demo hex starts it).
export function isPregame(state) {
  return !!state && state.phase === "play" && !(state.moves || []).length && !!state.settings;
}

// The hexes the status line names show their names, so "turn over D5" can be found at a glance
// (and on a phone, where the panel's "Cell names" is far below).
export function nameCells(text) {
  const named = new Set((text.match(/\b[A-Ia-i][1-9]\b/g) || []).filter((n) => n in shape.byName));
  for (const cell of shape.cells) cell.g.classList.toggle("named", named.has(cell.name));
}

// The legend of the settings hexes under the board, while they step settings: each hex, its
// key, what it sets and its value now.
export function renderSettingsLegend(state) {
  const box = $("settings-legend");
  const settingOf = settingsHexes();
  const names = Object.keys(settingOf);
  box.hidden = !isPregame(state) || !names.length;
  if (box.hidden) return;
  const items = names.map((name) => {
    const [setting, key, what] = settingOf[name];
    const item = document.createElement("li");
    item.dataset.cell = name;
    const mark = document.createElement("b");
    mark.textContent = key;
    item.append(mark, ` ${name} ${what}: ${settingWords(setting, state.settings)}`);
    return item;
  });
  const demo = page.snap.layout && page.snap.layout.demo;
  if (demo) {
    const item = document.createElement("li");
    item.textContent = `${demo}: hold a disk 2 s for the demo`;
    items.push(item);
  }
  $("settings-legend-list").replaceChildren(...items);
}
