"""CircuitPython's `usb_cdc`: `console` and `data`, two USB serial ports. `data` is None
unless boot.py called `usb_cdc.enable(console=True, data=True)` (the simulator's `install`
enables it, as the firmware's boot.py does). A Serial's `read`/`readinto` wait up to
`timeout` seconds (default 1) for what they ask; with timeout 0 they return what is there."""


class Serial:
    def __init__(self):
        self.inbound = bytearray()     # what the host sent, not read yet
        self.outbound = []             # bytes the board wrote, as written
        self.on_write = None           # called with each write's bytes
        self.timeout = 1.0
        self.write_timeout = None
        self.connected = True

    @property
    def in_waiting(self):
        return len(self.inbound)

    @property
    def out_waiting(self):
        return 0

    def _take(self, n):
        if self.timeout != 0 and len(self.inbound) < n:
            # A real port would wait `timeout` seconds for more: the simulator refuses to
            # pretend (the firmware must not block its loop).
            raise AssertionError("usb_cdc.Serial read would block (timeout=%r)" % self.timeout)
        data = bytes(self.inbound[:n])
        del self.inbound[:n]
        return data

    def read(self, size=-1):
        if size is None or size < 0:
            size = len(self.inbound)
        return self._take(size)

    def readinto(self, buf, nbytes=None):
        n = len(buf) if nbytes is None else min(nbytes, len(buf))
        n = min(n, len(self.inbound)) if self.timeout == 0 else n
        data = self._take(n)
        buf[:len(data)] = data
        return len(data)

    def readline(self, size=-1):
        end = self.inbound.find(b"\n")
        n = len(self.inbound) if end < 0 else end + 1
        if size is not None and 0 <= size < n:
            n = size
        return self._take(n)

    def write(self, buf):
        data = bytes(buf)
        self.outbound.append(data)
        if self.on_write is not None:
            self.on_write(data)
        return len(data)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self.inbound.clear()

    def reset_output_buffer(self):
        pass


console = Serial()
data = None


def enable(console=True, data=False):
    """boot.py only, on a Pico; here whenever the simulator sets up a board."""
    _set(console, data)
    return True


def _set(console_on, data_on):
    global console, data
    console = Serial() if console_on else None
    data = Serial() if data_on else None
