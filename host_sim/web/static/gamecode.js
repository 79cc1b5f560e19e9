// A remote game's code in the page (docs/remote.md), as host_sim/remote/codes.py has it: twelve
// digits with Damm's check digit; PBKDF2-HMAC-SHA256 of the digits gives 40 bytes, the first 32
// the key of the HMAC every message is signed with, the last 8 the game's id in its topics.
// WebCrypto does the hashing: browsers offer it on https and on localhost only.
const SALT = "iago-remote-v1";
const ROUNDS = 100000;
const DAMM = ["0317598642", "7092154863", "4206871359", "1750983426", "6123045978",
              "3674209581", "5869720134", "8945362017", "9438617205", "2581436790"];

// The twelve digits of a typed code, or an Error saying what is wrong with it.
export function parseCode(text) {
  const digits = String(text || "").replace(/[\s-]/g, "");
  if (!digits) throw new Error("no game code given (twelve digits, such as 4821-0937-5516)");
  if (!/^[0-9]+$/.test(digits)) throw new Error("a game code has digits only");
  if (digits.length !== 12) throw new Error(`a game code has twelve digits, not ${digits.length}`);
  let interim = 0;
  for (const d of digits) interim = Number(DAMM[interim][Number(d)]);
  if (interim !== 0) throw new Error(`${shown(digits)} is not a game code: a digit is wrong or two are swapped`);
  return digits;
}

export function shown(digits) { return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`; }

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// {code, gameId, root, key}: the topics and the HMAC key of the game with this code.
export async function gameKeys(text) {
  const digits = parseCode(text);
  if (!globalThis.crypto || !crypto.subtle) {
    throw new Error("this page is not on https or localhost, so the browser offers no cryptography to check the game's messages with");
  }
  const enc = new TextEncoder();
  const base = await crypto.subtle.importKey("raw", enc.encode(digits), "PBKDF2", false, ["deriveBits"]);
  const bits = new Uint8Array(await crypto.subtle.deriveBits(
    { name: "PBKDF2", salt: enc.encode(SALT), iterations: ROUNDS, hash: "SHA-256" }, base, 320));
  const key = await crypto.subtle.importKey("raw", bits.slice(0, 32), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const gameId = hex(bits.slice(32));
  return { code: shown(digits), gameId, root: `iago/v1/${gameId}`, key };
}

// The body of a message on `topic` signed with the game's key, or null (not this game's).
export async function openSigned(keys, topic, payload) {
  let outer;
  try { outer = JSON.parse(new TextDecoder().decode(payload)); } catch { return null; }
  if (!outer || typeof outer.body !== "string" || typeof outer.mac !== "string" || !/^[0-9a-f]{64}$/.test(outer.mac)) return null;
  const mac = new Uint8Array(outer.mac.match(/../g).map((h) => parseInt(h, 16)));
  const ok = await crypto.subtle.verify("HMAC", keys.key, mac, new TextEncoder().encode(topic + "\n" + outer.body));
  if (!ok) return null;
  const body = JSON.parse(outer.body);
  return body && body.game === keys.gameId ? body : null;
}
