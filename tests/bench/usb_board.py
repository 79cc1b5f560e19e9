"""An emulated Pico plugged into this computer (tests/bench/usb_pico.mjs): its USB serial
port on a pseudo-terminal that mpremote, `make deploy PORT=...` or `iago serve --port` open
as they open /dev/ttyACM0, its reed switches and buttons worked from Python, and what it
sends and shows (link lines, LED frames, resets) collected as events.

    with UsbPico("micropython", emu_dir, config) as pico:
        pico.wait(lambda e: "usb" in e)
        subprocess.run(["make", "deploy", "PORT=" + pico.port])
        pico.place("E4")
        flash = pico.off()          # unplugged: the flash kept for the next power-on

The bridge relays bytes between the pseudo-terminal's master side and the emulator (bytes
the board sends while no program has the port open wait in the terminal's buffer, and are
dropped once it is full, as a closed port's are).
"""

import json
import os
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "usb_pico.mjs"
ECHO = bool(os.environ.get("USB_PICO_ECHO"))     # every event on stderr as it comes


class UsbPico:
    def __init__(self, runtime, emu_dir, config, work, fw=None, flash_in=None, uf2=None,
                 hold=None, disks=()):
        """Power on an emulated Pico. config: the emulator's board config (dict); work: a
        folder for its files (the flash is saved there as flash.bin when it is unplugged);
        flash_in: a flash image to start from (else `fw` alone, with `uf2` over it);
        hold: a GPIO held low at power-on (a button), until pin(gpio, 1); disks: the cells
        with a disk on them at power-on."""
        work = Path(work)
        work.mkdir(parents=True, exist_ok=True)
        (work / "board.json").write_text(json.dumps(config))
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)      # no echo: the board's bytes must not come back to it
        self.port = os.ttyname(self.slave)
        argv = ["node", str(SCRIPT), "--runtime", runtime, "--config", str(work / "board.json")]
        for name, value in (("fw", fw), ("flash-in", flash_in), ("uf2", uf2)):
            if value is not None:
                argv += ["--" + name, str(Path(value).resolve())]
        if hold is not None:
            argv += ["--hold", str(hold)]
        if disks:
            argv += ["--disks", ",".join(disks)]
        self.flash_out = work / "flash.bin"
        argv += ["--flash-out", str(self.flash_out)]
        cmd_r, self._cmd_w = os.pipe()
        self._ev_r, ev_w = os.pipe()
        argv += ["--commands", str(cmd_r), "--events", str(ev_w)]
        env = dict(os.environ)
        env["RP2EMU" if runtime == "micropython" else "CPEMU"] = str(Path(emu_dir).resolve())
        self._log = work / "emulator.log"
        with open(self._log, "wb") as log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=log, pass_fds=(cmd_r, ev_w), env=env,
                                         cwd=emu_dir, bufsize=0)
        os.close(cmd_r)
        os.close(ev_w)
        self.events = []
        self.to_board = 0           # bytes the host sent to the board
        self._lock = threading.Condition()
        self._stop = False
        self._threads = [threading.Thread(target=self._relay, daemon=True),
                         threading.Thread(target=self._collect, daemon=True)]
        for thread in self._threads:
            thread.start()

    # --- the threads -------------------------------------------------------------------------
    def _relay(self):
        board = self.proc.stdout.fileno()
        os.set_blocking(self.master, False)
        pending = b""
        while not self._stop:
            ready, _, _ = select.select([self.master, board], [], [], 0.1)
            if board in ready:
                data = os.read(board, 65536)
                if not data:
                    return
                pending = (pending + data)[-65536:]
            if self.master in ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    data = b""
                if data:
                    self.to_board += len(data)
                    self.proc.stdin.write(data)
            if pending:
                try:
                    pending = pending[os.write(self.master, pending):]
                except BlockingIOError:
                    pending = b""       # nobody reads the port: dropped
                except OSError:
                    pending = b""

    def _collect(self):
        with os.fdopen(self._ev_r, "r") as events:
            for line in events:
                event = json.loads(line)
                event["wall"] = time.monotonic()
                if ECHO:
                    sys.stderr.write("[usb-pico] %s\n" % line.strip())
                with self._lock:
                    self.events.append(event)
                    self._lock.notify_all()
        with self._lock:
            self.events.append({"exit": self.proc.wait()})
            self._lock.notify_all()

    # --- what the host does ------------------------------------------------------------------
    def _command(self, **command):
        os.write(self._cmd_w, (json.dumps(command) + "\n").encode())

    def place(self, cell):
        self._command(cmd="place", cell=cell)

    def lift(self, cell):
        self._command(cmd="lift", cell=cell)

    def pin(self, gpio, level):
        self._command(cmd="pin", gpio=gpio, level=level)

    def wait(self, match, timeout=120, since=0):
        """The first event from index `since` on for which match(event) is true; RuntimeError
        (with the board's last lines) after `timeout` wall seconds or if the emulator ends."""
        end = time.monotonic() + timeout
        with self._lock:
            while True:
                for event in self.events[since:]:
                    if match(event):
                        return event
                    if "exit" in event:
                        raise RuntimeError("the emulator ended: %s" % self.stderr())
                left = end - time.monotonic()
                if left <= 0:
                    raise RuntimeError("no such event within %d s; the board's last lines:\n%s"
                                       % (timeout, "\n".join(self.lines()[-12:])))
                self._lock.wait(left)

    def line(self, predicate, timeout=120, since=0):
        """The first link line (parsed JSON) from event `since` on that predicate accepts."""
        def match(event):
            text = event.get("line", "")
            if not text.startswith("{"):
                return False
            try:
                return predicate(json.loads(text))
            except ValueError:
                return False
        return json.loads(self.wait(match, timeout, since)["line"])

    def leds(self):
        mark = len(self.events)
        self._command(cmd="leds")
        return self.wait(lambda e: "leds" in e, 60, mark)["leds"]

    def lines(self):
        with self._lock:
            return [e["line"] for e in self.events if "line" in e]

    def mark(self):
        with self._lock:
            return len(self.events)

    def stderr(self):
        return self._log.read_text(errors="replace")[-3000:]

    def off(self):
        """Unplug: the emulator ends, its flash saved; returns the flash image's path."""
        if self.proc.poll() is None:
            self._command(cmd="off")
            self.wait(lambda e: "off" in e, 120)
            os.close(self._cmd_w)   # the emulator's read of its commands ends: it can exit
            self._cmd_w = -1
            self.proc.wait(60)
        return self.flash_out

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._stop = True
        for fd in (self.master, self.slave, self._cmd_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
