import os

import pytest
from hypothesis import settings

import mpvm

# CI machines are small and shared: no per-example deadline there.
settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# The fixtures that hand a test a MicroPython VM; their users are marked `micropython`.
_VM_FIXTURES = {"micropython", "unix_micropython", "wasm_micropython"}


def pytest_collection_modifyitems(items):
    for item in items:
        if _VM_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.micropython)


def _refuse_unmarked(item):
    def check(vm):
        if item.get_closest_marker("micropython") is None:
            pytest.fail("%s starts the %s MicroPython VM but lacks the `micropython` mark"
                        % (item.nodeid, vm), pytrace=False)
    return check


def _guarded(item):
    mpvm.before_vm = _refuse_unmarked(item)
    try:
        return (yield)
    finally:
        mpvm.before_vm = None


# `-m "not micropython"` must leave out every test that needs a VM: one that starts a VM
# without the mark fails, in its set-up (a fixture) or its body.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _guarded(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _guarded(item))


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
