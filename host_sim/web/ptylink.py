"""The simulated board's USB serial port offered as a pseudo-terminal (`iago serve --pty`).

Host tools, or a second `iago serve --port PATH`, open `path` and talk to the simulated board
as to a real one. The sim thread calls `read()` and `write()`; neither blocks. Lines written
while nobody reads are lost once the terminal's buffer is full, as on a real board.
"""

import os
import tty


class PtyLink:
    def __init__(self, hub):
        self.hub = hub
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)         # no echo, no line editing: bytes as they are
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._line = bytearray()

    def read(self):
        """The bytes the other end wrote since the last call (b"" if none)."""
        try:
            data = os.read(self._master, 4096)
        except OSError:                 # nothing waiting (BlockingIOError) or nobody there
            return b""
        self._line.extend(data)
        while b"\n" in self._line:
            line, _, rest = bytes(self._line).partition(b"\n")
            self._line = bytearray(rest)
            if line.strip():
                self.hub.log("out", line.decode("utf-8", "replace"), "pty")
        return data

    def write(self, line):
        try:
            os.write(self._master, line.encode() + b"\n")
        except OSError:
            pass

    def close(self):
        for fd in (self._master, self._slave):
            os.close(fd)
