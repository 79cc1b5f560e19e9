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
# MicroPython's RPI_PICO and RPI_PICO2 filesystems and the chips' UF2 families, as
# host_sim/uf2.py cites them: written out again here so that a wrong constant there cannot
# agree with itself. (filesystem start in the XIP window, its length, UF2 family)
CHIPS = {"RP2040": (0x10000000 + 2 * 1024 * 1024 - 1408 * 1024, 1408 * 1024, 0xe48bff56),
         "RP2350": (0x10000000 + 4 * 1024 * 1024 - 3 * 1024 * 1024, 3 * 1024 * 1024,
                    0xe48bff59)}
FILES = {"iago-board-pico-mpy6.3-micropython-1.23-and-newer.uf2": (None, 3, "RP2040"),
         "iago-board-pico-mpy6.2-micropython-1.22.uf2": ("1.22", 2, "RP2040"),
         "iago-board-pico2-mpy6.3-micropython-1.24-and-newer.uf2": (None, 3, "RP2350")}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("uf2")
    proc = subprocess.run([sys.executable, "-m", "host_sim.uf2", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "replaces the filesystem, saved games included" in proc.stdout
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    return out


def e10_block_is_ignored(block):
    """picotool's RP2350-E10 block (elf2uf2.cpp, gen_abs_block): the absolute family, flagged
    RP2_IGNORE_BLOCK (0x9957e304) so the boot ROM writes nothing, past the 4 MB flash."""
    flags, address, size, block_no, num_blocks, family = struct.unpack("<6I", block[8:32])
    assert (flags, address, size, block_no, num_blocks, family) == (
        0x2000 | 0x8000, 0x10ffff00, 256, 0, 2, 0xe48bff57)
    assert block[32:288] == b"\xef" * 256 and block[288:292] == bytes.fromhex("04e35799")
    assert address >= 0x10000000 + 4 * 1024 * 1024


def flash_image(data, chip="RP2040"):
    """The filesystem range as the boot ROM leaves it after the UF2: erased flash (0xff)
    where no block writes. Checks every block on the way."""
    fs_start, fs_bytes, want_family = CHIPS[chip]
    image = bytearray(b"\xff" * fs_bytes)
    if chip == "RP2350":
        e10_block_is_ignored(data[:512])
        data = data[512:]
    count = len(data) // 512
    assert len(data) == count * 512 and count > 0
    for number in range(count):
        block = data[number * 512:(number + 1) * 512]
        magic0, magic1, flags, address, size, block_no, num_blocks, family = struct.unpack(
            "<8I", block[:32])
        assert (magic0, magic1, struct.unpack("<I", block[508:])[0]) == (
            0x0a324655, 0x9e5d5157, 0x0ab16f30)
        assert flags == 0x2000 and family == want_family          # the chip's family
        assert (block_no, num_blocks, size) == (number, count, 256)
        assert address % 256 == 0 and fs_start <= address < fs_start + fs_bytes - 255
        image[address - fs_start:address - fs_start + 256] = block[32:288]
    return bytes(image)


def littlefs_files(image):
    # Read as the rp2 port's VfsLfs2 reads (host_sim/uf2.py writes with its configuration, a
    # 1 KB cache): littlefs keeps a file of up to a cache's size inline in its directory, and
    # a reader with littlefs-python's smaller default cache calls such a file corrupt (once
    # the FRAM's module moved the 1.22 image's files: usbserial.mpy, 426 bytes).
    fs = LittleFS(context=UserContext(len(image), bytearray(image)), block_size=4096,
                  block_count=len(image) // 4096, read_size=32, prog_size=256,
                  cache_size=1024, lookahead_size=32, mount=True)
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
    compat, sub_version, chip = FILES[name]
    files = littlefs_files(flash_image((built / name).read_bytes(), chip))
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


def test_the_file_of_one_chip_is_refused_for_the_other(built):
    from host_sim import uf2
    pico = (built / "iago-board-pico-mpy6.3-micropython-1.23-and-newer.uf2").read_bytes()
    pico2 = (built / "iago-board-pico2-mpy6.3-micropython-1.24-and-newer.uf2").read_bytes()
    assert len(uf2.read_uf2(pico2, uf2.PICO2)) == len(pico2) // 512 - 1   # less the E10 block
    with pytest.raises(ValueError, match="RP2040 family"):
        uf2.read_uf2(pico2, uf2.PICO)
    with pytest.raises(ValueError, match="RP2350 family"):
        uf2.read_uf2(pico, uf2.PICO2)


@pytest.mark.micropython
@pytest.mark.parametrize("name", sorted(FILES)[::2])
def test_micropythons_own_littlefs_mounts_the_image_as_the_pico_does(built, name):
    """The unix MicroPython VM mounts the image through VfsLfs2 with _boot.py's progsize on a
    block device of the rp2 port's geometry (352 blocks on a Pico, 768 on a Pico 2), and
    reads every file back."""
    import mpvm
    image = flash_image((built / name).read_bytes(), FILES[name][2])
    expected = littlefs_files(image)
    used = {n: image[n * 4096:(n + 1) * 4096].hex() for n in range(len(image) // 4096)
            if image[n * 4096:(n + 1) * 4096] != b"\xff" * 4096}
    program = """
import vfs, hashlib, binascii
class Flash:
    # Erased flash (0xff) but the blocks the UF2 writes.
    def __init__(self, used):
        self.used = {n: binascii.unhexlify(h) for n, h in used.items()}
    def readblocks(self, n, buf, off=0):
        block = self.used.get(n)
        for k in range(len(buf)):
            buf[k] = block[off + k] if block else 0xff
    def ioctl(self, op, arg):
        return {4: %d, 5: 4096}.get(op, 0)
fs = vfs.VfsLfs2(Flash(%r), progsize=256)
def walk(d):
    for name, kind, *_ in fs.ilistdir(d):
        p = d + "/" + name if d else name
        if kind == 0x4000:
            walk(p)
        else:
            with fs.open(p, "rb") as f:
                print(p, binascii.hexlify(hashlib.sha256(f.read()).digest()).decode())
walk("")
""" % (len(image) // 4096, used)
    out = mpvm.run_unix(program, heap="16m")
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
