# The simulator's job queue is never used in the page: the worker calls the driver directly.


class Empty(Exception):
    pass


class Queue:
    def __init__(self):
        self.items = []
