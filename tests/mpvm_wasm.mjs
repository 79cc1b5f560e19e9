// Run MicroPython source (read from stdin) under the WebAssembly port.
//
//   node tests/mpvm_wasm.mjs LIBDIR [EXTRA_LIBDIR...] < program.py
//
// LIBDIR's files are copied to /lib in the port's in-memory filesystem,
// each EXTRA_LIBDIR to /lib1, /lib2, ...  '.frozen' is removed from sys.path:
// this port freezes modules (functools, abc, ...) that a stock Pico lacks.
//
// The program's output goes to stdout.  An uncaught exception prints the
// MicroPython traceback to stderr and exits with status 1; SystemExit exits
// with its code.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

function copyTree(FS, hostDir, vmDir) {
  FS.mkdirTree(vmDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (entry.name === "__pycache__") continue;
    const hostPath = path.join(hostDir, entry.name);
    const vmPath = `${vmDir}/${entry.name}`;
    if (entry.isDirectory()) copyTree(FS, hostPath, vmPath);
    else if (entry.isFile()) FS.writeFile(vmPath, fs.readFileSync(hostPath));
  }
}

const libDirs = process.argv.slice(2);
if (libDirs.length === 0) {
  console.error("usage: node mpvm_wasm.mjs LIBDIR [EXTRA_LIBDIR...] < program.py");
  process.exit(2);
}
const source = fs.readFileSync(0, "utf8");

const output = [];
const mp = await loadMicroPython({
  linebuffer: false,
  stdout: (bytes) => output.push(...bytes),
  stderr: (bytes) => output.push(...bytes),
});

const vmDirs = libDirs.map((dir, i) => (i === 0 ? "/lib" : `/lib${i}`));
libDirs.forEach((dir, i) => copyTree(mp.FS, dir, vmDirs[i]));
mp.runPython(
  "import sys\n" +
  "sys.path[:] = [p for p in sys.path if p not in ('.frozen', '/lib')]\n" +
  `sys.path.extend(${JSON.stringify(vmDirs)})\n` +
  "del sys\n",
);

let status = 0;
try {
  mp.runPython(source);
} catch (error) {
  if (error.name !== "PythonError") throw error;
  const exit = /SystemExit(?::\s*(-?\d+)?)?\s*$/.exec(error.message);
  if (error.type === "SystemExit" && exit) {
    status = exit[1] === undefined ? 0 : Number(exit[1]);
  } else {
    process.stderr.write(error.message);
    status = 1;
  }
}
process.stdout.write(Buffer.from(output), () => process.exit(status));
