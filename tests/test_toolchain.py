"""Tests of the test harness itself: the MicroPython VMs and mpy-cross."""

import pytest

import mpvm


def test_runs_micropython(micropython):
    assert micropython("import sys\nprint(sys.implementation.name)") == "micropython\n"


def test_output_is_returned_verbatim(micropython):
    source = """
        print("a", 1)
        print("b", end="")
    """
    assert micropython(source) == "a 1\nb"


def test_failure_raises_with_traceback(micropython):
    source = """
        def f():
            raise ValueError("boom")
        print("before")
        f()
    """
    with pytest.raises(mpvm.MicroPythonError) as info:
        micropython(source)
    error = info.value
    assert error.stdout == "before\n"
    assert "ValueError: boom" in error.stderr
    assert "line 3, in f" in error.stderr
    assert micropython.vm in str(error) and "ValueError: boom" in str(error)


def test_sys_exit_status(micropython):
    assert micropython("import sys\nprint('x')\nsys.exit(0)") == "x\n"
    with pytest.raises(mpvm.MicroPythonError) as info:
        micropython("import sys\nsys.exit(3)")
    assert info.value.returncode == 3


def test_frozen_modules_are_not_importable(micropython):
    # A stock Pico has no functools; the WebAssembly port freezes one.
    assert ".frozen" not in micropython("import sys\nprint(sys.path)")
    with pytest.raises(mpvm.MicroPythonError, match="ImportError"):
        micropython("import functools")


def test_firmware_lib_is_importable(micropython):
    assert micropython("import iago\nprint(iago.__name__)") == "iago\n"


def test_extra_lib_dir_is_importable(micropython, tmp_path):
    package = tmp_path / "probe_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from probe_pkg.inner import VALUE\n")
    (package / "inner.py").write_text("VALUE = 6 * 7\n")
    assert micropython("import probe_pkg\nprint(probe_pkg.VALUE)", lib=tmp_path) == "42\n"


def test_unix_heap_limit_is_enforced(unix_micropython):
    source = """
        import gc
        gc.collect()
        print(gc.mem_free() + gc.mem_alloc() <= 200 * 1024)
        try:
            buf = bytearray(300 * 1024)
        except MemoryError:
            print("MemoryError")
    """
    assert unix_micropython(source, heap="200k") == "True\nMemoryError\n"
    # The same allocation fits a bigger heap: the limit is what stopped it.
    assert unix_micropython("buf = bytearray(300 * 1024)\nprint(len(buf))", heap="1m") == "307200\n"


def test_unix_heap_lock(unix_micropython):
    source = """
        import micropython
        micropython.heap_lock()
        try:
            data = [1, 2, 3]
            outcome = "allocated"
        except MemoryError:
            outcome = "MemoryError"
        micropython.heap_unlock()
        print(outcome)
    """
    assert unix_micropython(source) == "MemoryError\n"


def test_unix_runs_viper(unix_micropython):
    source = """
        import micropython

        @micropython.viper
        def add(a: int, b: int) -> int:
            return a + b

        print(add(2, 3))
    """
    assert unix_micropython(source) == "5\n"


def test_wasm_rejects_viper(wasm_micropython):
    # A limitation of the WebAssembly port that firmware tests must allow for.
    source = """
        import micropython

        @micropython.viper
        def f() -> int:
            return 1
    """
    with pytest.raises(mpvm.MicroPythonError, match="SyntaxError"):
        wasm_micropython(source)


def test_mpy_cross_compiles(tmp_path):
    source = tmp_path / "good.py"
    source.write_text("import micropython\n\n"
                      "@micropython.viper\ndef f(x: int) -> int:\n    return x\n")
    out = mpvm.mpy_cross(source, tmp_path)
    assert out.read_bytes()[:1] == b"M"  # .mpy magic


def test_mpy_cross_reports_errors(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("x = 1\ndef f(:\n")
    with pytest.raises(mpvm.MicroPythonError, match=r"(?s)line 2.*SyntaxError"):
        mpvm.mpy_cross(source, tmp_path)


def test_a_test_without_the_mark_cannot_start_a_vm():
    # This test has no `micropython` mark, so conftest refuses it a VM before one starts.
    with pytest.raises(pytest.fail.Exception, match="lacks the `micropython` mark"):
        mpvm.run_unix("print(1)")
    with pytest.raises(pytest.fail.Exception, match="lacks the `micropython` mark"):
        mpvm.run_wasm("print(1)")
