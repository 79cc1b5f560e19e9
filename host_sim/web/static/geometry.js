// The board's shape as the page draws it, from the layout the board's snapshot gives (the
// firmware's own grid tables, host_sim/web/ledview.py's layout_dict): each cell's row and
// column, the outer ring, the centre and the corners. The page knows only how to draw a hex or
// a square at a row and column; which cells there are, and where, is the board's word.

export const R = 20;               // hex circumradius, SVG units
export const W = Math.sqrt(3) * R; // hex width across flats
export const DISK_R = R * 0.68;    // disks are drawn to the same scale as the hexes

export const shape = {
  layout: null,                    // the snapshot's layout the cells were made for
  cells: [],                       // {name, row, num, index, x, y, outer, centre, g, ...}: in cell order
  byName: {},
  rows: [],                        // the cells of each row (a square board's rank), by column
  focusIndex: null,                // the cell the keyboard is on
};

// The game's names until the board reports its layout (a real board before its first state).
const UNREPORTED = { kind: null, game: "iago", title: "Iago", side_names: { dark: "dark", light: "light" } };

// The layout's game, title and side names, whether or not the board has reported it yet.
export function game() { return shape.layout || UNREPORTED; }

export function makeCells(layout) {
  const square = layout.kind === "square";
  const outer = new Set(layout.outer || []);
  const last = layout.size - 1;
  shape.layout = layout;
  shape.cells = [];
  shape.byName = {};
  shape.rows = [];
  for (let index = 0; index < layout.cells; index++) {
    const name = layout.names[index], row = layout.rows[index], num = layout.columns[index];
    // a square board: rank 1 at the bottom, file a on the left, as `iago show` draws it
    const cell = {
      name, row, num, index, outer: outer.has(name), centre: name === layout.centre,
      x: square ? num * 2 * R : W * (num - row / 2),
      y: square ? (last - row) * 2 * R : (last - row) * 1.5 * R,
    };
    shape.cells.push(cell);
    shape.byName[name] = cell;
    (shape.rows[row] = shape.rows[row] || []).push(cell);
  }
  for (const line of shape.rows) if (line) line.sort((a, b) => a.num - b.num);
  const centre = shape.byName[layout.centre];
  if (shape.focusIndex === null) shape.focusIndex = centre ? centre.index : Math.floor(layout.cells / 2);
  if (shape.focusIndex >= layout.cells) shape.focusIndex = Math.floor(layout.cells / 2);
}

// The cell at `row` and column `num`, or undefined off the board.
function cellAt(row, num) {
  return (shape.rows[row] || []).find((cell) => cell.num === num);
}

// The cell an arrow key leads to from `cell`, or undefined at the edge.
export function neighbour(cell, key) {
  if (shape.layout.kind === "square") {
    const n = shape.layout.size;
    const [dr, df] = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [1, 0], ArrowDown: [-1, 0] }[key] || [0, 0];
    const rank = cell.row + dr, file = cell.num + df;
    return rank >= 0 && rank < n && file >= 0 && file < n ? shape.cells[rank * n + file] : undefined;
  }
  const moves = {
    ArrowLeft: [0, -1], ArrowRight: [0, 1],
    ArrowUp: [1, cellAt(cell.row + 1, cell.num + 1) ? 1 : 0],
    ArrowDown: [-1, cellAt(cell.row - 1, cell.num - 1) ? -1 : 0],
  };
  const [dr, dn] = moves[key] || [0, 0];
  return cellAt(cell.row + dr, cell.num + dn);
}

// {cell name: face} of a position's text: "5/6/7/8/3D1L3/..." rows from the far one (I, or a
// square board's top rank) down, each from its first cell; digits are runs of empty cells.
export function positionCells(text) {
  const out = {};
  const rows = text.split(" ")[0].split("/");
  const top = shape.layout ? shape.layout.size - 1 : -1;
  rows.forEach((rowText, i) => {
    const line = shape.rows[top - i] || [];
    let k = 0;
    for (const ch of rowText) {
      if (ch >= "0" && ch <= "9") k += Number(ch);
      else { if (line[k]) out[line[k].name] = ch; k += 1; }
    }
  });
  return out;
}

export function squarePoints(r) {
  return [[-r, -r], [r, -r], [r, r], [-r, r]].map(([x, y]) => x.toFixed(2) + "," + y.toFixed(2)).join(" ");
}

export function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push((cx + r * Math.cos(a)).toFixed(2) + "," + (cy + r * Math.sin(a)).toFixed(2));
  }
  return pts.join(" ");
}

// The frame around the hex board: a hexagon around its corner hexes, as on the printed board.
export function hexFrame() {
  const centre = shape.byName[shape.layout.centre];
  const corners = shape.layout.corners.map((n) => shape.byName[n])
    .sort((a, b) => Math.atan2(a.y - centre.y, a.x - centre.x) - Math.atan2(b.y - centre.y, b.x - centre.x));
  return corners.map((c) => {
    const dx = c.x - centre.x, dy = c.y - centre.y, d = Math.hypot(dx, dy);
    const k = (d + R * 1.55) / d;
    return (centre.x + dx * k).toFixed(1) + "," + (centre.y + dy * k).toFixed(1);
  }).join(" ");
}
