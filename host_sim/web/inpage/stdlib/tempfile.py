# The page's flash folder is always given; a board made without one gets /flash.
import os


def mkdtemp(prefix=""):
    try:
        os.mkdir("/flash")
    except OSError:
        pass
    return "/flash"
