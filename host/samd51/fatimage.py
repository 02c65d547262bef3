"""A badge's CIRCUITPY: a FAT image of a folder, laid at offset 0 of its QSPI flash chip, as big as
CircuitPython makes it on that chip (``flash_size=`` the chip's bytes; the PyBadge's GD25Q16C by default).

    python -m samd51.fatimage FOLDER OUT.bin [BOARD]     (BOARD: pybadge, the default, or pygamer)

CircuitPython's external-flash driver (supervisor/shared/external_flash/external_flash.c) offers the
filesystem (total_size - one 4 KB erase sector) / 512 blocks from address 0: the last sector is its scratch
space, and total_size is the chip's whole array.  So the volume is the chip less 4 KB (the PyBadge's 2 MB:
4088 sectors, FAT12, 1 KB clusters; the PyGamer's 8 MB: 16376 sectors, FAT16, 1 KB clusters), and the
chip's image is that volume followed by the erased scratch sector.  The FAT layout is PyPI folder2uf2's (it
writes what CircuitPython's own oofatfs f_mkfs(FM_FAT, au=0) would, and the Pico image in
sultan_host.board.wokwi already comes from it); only its UF2 wrapping is left out.
"""

import os
import sys

from folder2uf2 import SECTOR, FatBuilder, Geometry, Node, build_tree

from samd51.parts.spiflash import GD25Q16C

FLASH_SIZE = GD25Q16C.size      # the default chip: the PyBadge's
ERASE_SECTOR = 4096
VOLUME_BYTES = FLASH_SIZE - ERASE_SECTOR
VOLUME_ID = 0x53554C54  # "SULT", as the Pico's image


def geometry(flash_size=FLASH_SIZE):
    """The FAT layout CircuitPython gives a chip of ``flash_size`` bytes (folder2uf2.Geometry)."""
    return Geometry((flash_size - ERASE_SECTOR) // SECTOR)


def volume(folder, label="CIRCUITPY", build_ts=None, extra=None, flash_size=FLASH_SIZE):
    """The FAT volume (the chip less its scratch sector) holding ``folder``'s files, plus ``extra``
    {name: bytes} at its top.

    ``extra`` is for files CircuitPython would write itself, e.g. boot_out.txt: with the very text it writes,
    the first boot writes nothing to CIRCUITPY (9.1.1 rewrites boot_out.txt only when its text differs).
    """
    fat = FatBuilder(geometry(flash_size), label=label, volume_id=VOLUME_ID, build_ts=build_ts)
    root = build_tree(folder, extra_files=False, build_ts=build_ts)
    for name, data in sorted((extra or {}).items()):
        root.children = [c for c in root.children if c.name != name]
        root.children.append(Node(name, data=bytes(data), ts=root.ts))
    fat.layout(root)
    return bytes(fat.image)


def flash_image(folder, flash_size=FLASH_SIZE, **kw):
    """The whole chip: the volume, then the erased scratch sector."""
    return volume(folder, flash_size=flash_size, **kw) + b"\xff" * ERASE_SECTOR


def write(folder, out, **kw):
    data = flash_image(folder, **kw)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(data)
    return len(data)


def board_flash_size(name):
    """The bytes of board ``name``'s flash chip, as its description (samd51.boards) names the part."""
    from samd51 import boards

    return boards.load(name).FLASH.size


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3) or not os.path.isdir(args[0]):
        print("usage: python -m samd51.fatimage FOLDER OUT.bin [BOARD]  (FOLDER: an existing directory)",
              file=sys.stderr)
        return 2
    try:
        size = board_flash_size(args[2]) if len(args) == 3 else FLASH_SIZE
        n = write(args[0], args[1], flash_size=size)
    except (LookupError, OSError, ValueError) as err:
        print("fatimage: %s" % err, file=sys.stderr)
        return 2
    print("wrote %s: %d bytes (FAT volume %d KB at 0)" % (args[1], n, (n - ERASE_SECTOR) // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
