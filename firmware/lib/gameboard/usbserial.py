"""The Pico's USB serial port (the REPL's stdin/stdout) as the host link's transport.

Reading never blocks: `read()` takes only the bytes already waiting, at most 64 a call, and
allocates nothing when none are. Ctrl-C still interrupts the program, so mpremote can reach
the REPL for `make deploy`.
"""

import select
import sys


class UsbSerial:
    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.buf = bytearray(64)
        self._one = bytearray(1)
        self._view = memoryview(self.buf)

    def read(self):
        """The bytes waiting now (a view valid until the next call), or None."""
        n = 0
        while n < 64:
            ready = False
            for _ in self.poll.ipoll(0):
                ready = True
            if not ready:
                break
            if not self.stdin.readinto(self._one):
                break
            self.buf[n] = self._one[0]
            n += 1
        return self._view[:n] if n else None

    def write(self, text):
        sys.stdout.write(text)
