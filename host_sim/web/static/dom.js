// What the board page and the table page both need of the document: elements by id, SVG
// elements, the question before a game in progress is thrown away, a file to download.

const SVG_NS = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

// An SVG element `tag` with attributes `attrs`, appended to `parent` if one is given.
export function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (parent) parent.appendChild(node);
  return node;
}

// Whether `what` may go ahead: it throws away a game in progress of `moves` placements (0: no
// game to lose) only if the player says so.
export function keepsNoGame(what, moves) {
  if (!moves) return true;
  return confirm(`${what}? The game in progress (${moves} placement${moves === 1 ? "" : "s"}) will be lost; ` +
                 "Save record keeps it.");
}

export function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

export function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
