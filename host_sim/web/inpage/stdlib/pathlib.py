# Only what host_sim's modules do with paths at import time and with the flash folder.
import os


class Path:
    def __init__(self, path):
        self.path = str(path)

    def __str__(self):
        return self.path

    def __truediv__(self, other):
        return Path(self.path.rstrip("/") + "/" + str(other))

    def resolve(self):
        return self

    @property
    def parent(self):
        return Path(self.path.rstrip("/").rsplit("/", 1)[0] or "/")

    @property
    def name(self):
        return self.path.rstrip("/").rsplit("/", 1)[-1]

    def mkdir(self, parents=False, exist_ok=False):
        try:
            os.mkdir(self.path)
        except OSError:
            if not exist_ok:
                raise
