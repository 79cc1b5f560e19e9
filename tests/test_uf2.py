"""`make uf2`: the UF2 files read back block by block and their littlefs image mounted, by
littlefs-python and by MicroPython's own VfsLfs2, and compared file by file with what
`make deploy` stages for the same MicroPython version."""

import hashlib
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from littlefs import LittleFS, UserContext

from host_sim import deploy

ROOT = Path(__file__).resolve().parent.parent
# MicroPython's RPI_PICO filesystem, as host_sim/uf2.py cites it: written out again here so
# that a wrong constant there cannot agree with itself.
FS_START = 0x10000000 + 2 * 1024 * 1024 - 1408 * 1024     # 0x100a0000
FS_BYTES = 1408 * 1024
FILES = {"iago-board-mpy6.3-micropython-1.23-and-newer.uf2": (None, 3),
         "iago-board-mpy6.2-micropython-1.22.uf2": ("1.22", 2)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("uf2")
    proc = subprocess.run([sys.executable, "-m", "host_sim.uf2", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "replaces the filesystem, saved games included" in proc.stdout
    return out


def flash_image(data):
    """The filesystem range as the Pico's boot ROM leaves it after the UF2: erased flash
    (0xff) where no block writes. Checks every block on the way."""
    image = bytearray(b"\xff" * FS_BYTES)
    count = len(data) // 512
    assert len(data) == count * 512 and count > 0
    for number in range(count):
        block = data[number * 512:(number + 1) * 512]
        magic0, magic1, flags, address, size, block_no, num_blocks, family = struct.unpack(
            "<8I", block[:32])
        assert (magic0, magic1, struct.unpack("<I", block[508:])[0]) == (
            0x0a324655, 0x9e5d5157, 0x0ab16f30)
        assert flags == 0x2000 and family == 0xe48bff56           # RP2040, family id present
        assert (block_no, num_blocks, size) == (number, count, 256)
        assert address % 256 == 0 and FS_START <= address < FS_START + FS_BYTES - 255
        image[address - FS_START:address - FS_START + 256] = block[32:288]
    return bytes(image)


def littlefs_files(image):
    fs = LittleFS(context=UserContext(len(image), bytearray(image)), block_size=4096,
                  block_count=352, read_size=32, prog_size=256, mount=True)
    files = {}
    for top, _, names in fs.walk("/"):
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                files[path] = f.read()
    return files


def staged(tmp_path, compat):
    out = tmp_path / "staged"
    deploy.stage(out, ROOT / "hardware" / "board.json", compat)
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_image_holds_exactly_what_make_deploy_stages(built, tmp_path, name):
    compat, sub_version = FILES[name]
    files = littlefs_files(flash_image((built / name).read_bytes()))
    expected = staged(tmp_path, compat)
    assert sorted(files) == sorted(expected)
    assert {"main.py", "board.json", "lib/iago/rules.mpy", "lib/gameboard/app.mpy"} <= set(files)
    for path in expected:
        assert files[path] == expected[path], path
    # The viper kernels' machine code is for the bytecode version the file name says.
    assert files["lib/iago/_kernel.mpy"][:2] == b"M\x06"
    assert files["lib/iago/_kernel.mpy"][2] & 3 == sub_version
    assert "mpy6.%d" % sub_version in name


def test_the_files_are_the_same_at_every_build(built, tmp_path):
    again = tmp_path / "again"
    subprocess.run([sys.executable, "-m", "host_sim.uf2", "--out", str(again)], cwd=ROOT,
                   check=True, capture_output=True, timeout=300)
    for name in FILES:
        assert (again / name).read_bytes() == (built / name).read_bytes(), name


@pytest.mark.micropython
def test_micropythons_own_littlefs_mounts_the_image_as_the_pico_does(built):
    """The unix MicroPython VM mounts the image through VfsLfs2 with _boot.py's progsize on a
    block device of the rp2 port's geometry, and reads every file back."""
    import mpvm
    image = flash_image((built / sorted(FILES)[0]).read_bytes())
    expected = littlefs_files(image)
    program = """
import vfs, hashlib, binascii
class Flash:
    def __init__(self, data):
        self.data = bytearray(data)
    def readblocks(self, n, buf, off=0):
        a = n * 4096 + off
        buf[:] = self.data[a:a + len(buf)]
    def ioctl(self, op, arg):
        return {4: 352, 5: 4096}.get(op, 0)
fs = vfs.VfsLfs2(Flash(binascii.unhexlify(%r)), progsize=256)
def walk(d):
    for name, kind, *_ in fs.ilistdir(d):
        p = d + "/" + name if d else name
        if kind == 0x4000:
            walk(p)
        else:
            with fs.open(p, "rb") as f:
                print(p, binascii.hexlify(hashlib.sha256(f.read()).digest()).decode())
walk("")
""" % image.hex()
    out = mpvm.run_unix(program, heap="8m")
    seen = dict(line.split() for line in out.splitlines())
    assert seen == {p: hashlib.sha256(d).hexdigest() for p, d in expected.items()}


def test_a_broken_board_map_makes_no_file(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text("{}")
    proc = subprocess.run([sys.executable, "-m", "host_sim.uf2", "--map", str(bad), "--out",
                           str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("uf2: board map")
    assert not (tmp_path / "out").exists()
