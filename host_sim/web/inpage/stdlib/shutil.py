# The page never removes its flash folder: the worker keeps it in the browser's storage.


def rmtree(path, ignore_errors=False):
    pass
