import os

import pytest
from hypothesis import settings

import mpvm

# CI machines are small and shared: no per-example deadline there.
settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(params=[pytest.param(name, marks=pytest.mark.micropython) for name in mpvm.RUNNERS])
def micropython(request):
    """A runner for each MicroPython VM: ``micropython(source, lib=None) -> stdout``.

    Its name ("unix" or "wasm") is ``micropython.vm``.
    """
    runner = mpvm.RUNNERS[request.param]

    def run(source, lib=None):
        return runner(source, lib=lib)

    run.vm = request.param
    return run


@pytest.fixture
def unix_micropython():
    """``mpvm.run_unix``: the unix port, with a heap limit (``heap="200k"``)."""
    return mpvm.run_unix


@pytest.fixture
def wasm_micropython():
    """``mpvm.run_wasm``: the WebAssembly port."""
    return mpvm.run_wasm
