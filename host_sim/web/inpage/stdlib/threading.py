# In the page the simulator has no threads: the worker calls the driver in turn, so a lock is
# always free and an event is a flag.


class Event:
    def __init__(self):
        self._set = False

    def set(self):
        self._set = True

    def clear(self):
        self._set = False

    def is_set(self):
        return self._set

    def wait(self, timeout=None):
        return self._set


class Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


Condition = Lock
RLock = Lock
Thread = None
