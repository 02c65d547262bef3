"""The GigaDevice flash model (the PyBadge's GD25Q16C, the PyGamer's GD25Q64C): ids, status, reads, page
program (1 -> 0 only, wrap in the page), erases, WIP for the datasheet's time,
write enable, persistence across boots, power cuts part done."""

import random

import pytest
from samd51.parts import spiflash as F


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        return self.t


@pytest.fixture
def chip():
    c = F.SpiFlash()
    c.clock = Clock()
    c.attach(c.clock)
    return c


def tx(chip, *out, read=0):
    chip.select()
    for b in out:
        chip.send(b)
    got = chip.read(read) if read else b""
    chip.deselect()
    return got


def addr(a):
    return ((a >> 16) & 0xFF, (a >> 8) & 0xFF, a & 0xFF)


def program(chip, a, data):
    tx(chip, F.WREN)
    chip.select()
    for b in (F.PP,) + addr(a):
        chip.send(b)
    chip.write(data)
    chip.deselect()


def wait(chip, ns):
    chip.clock.t += ns


def test_jedec_id_and_device_id(chip):
    assert tx(chip, F.RDID, read=3) == bytes((0xC8, 0x40, 0x15))
    assert tx(chip, F.RDI, 0, 0, 0, read=1) == bytes((0x14,))
    assert tx(chip, F.REMS, 0, 0, 0, read=2) == bytes((0xC8, 0x14))


def gd25q64c(qe=True):
    c = F.SpiFlash(part=F.GD25Q64C, qe=qe)
    c.clock = Clock()
    c.attach(c.clock)
    return c


def test_the_gd25q64c_is_8_mb_with_its_own_ids_and_end():
    chip = gd25q64c()
    assert tx(chip, F.RDID, read=3) == bytes((0xC8, 0x40, 0x17))   # CircuitPython's GD25Q64C entry
    assert tx(chip, F.RDI, 0, 0, 0, read=1) == bytes((0x16,))
    program(chip, 8 * 1024 * 1024 - 4, b"tail")
    wait(chip, F.OP_NS["program"])
    assert tx(chip, F.READ, *addr(8 * 1024 * 1024 - 4), read=6) == b"tail\xff\xff"   # wraps to 0
    assert chip.report()["part"] == "GD25Q64C" and len(chip.image()) == 8 * 1024 * 1024


def test_an_image_larger_than_the_chip_is_refused():
    with pytest.raises(ValueError, match="GD25Q16C"):
        F.SpiFlash(data=bytes(2 * 1024 * 1024 + 1))
    assert F.SpiFlash(data=bytes(3 * 1024 * 1024), part=F.GD25Q64C).size == 8 * 1024 * 1024


def test_on_the_gd25q64c_01h_writes_byte_1_only_and_31h_sets_qe():
    chip = gd25q64c(qe=False)
    tx(chip, F.WREN)
    tx(chip, F.WRSR1, 0x00, F.SR2_QE)                 # the GD25Q16C's way: byte 2 untouched here
    wait(chip, F.OP_NS["write_status"])
    assert not tx(chip, F.RDSR2, read=1)[0] & F.SR2_QE
    tx(chip, F.WREN)
    tx(chip, F.WRSR2, F.SR2_QE)                       # write_status_register_split: CircuitPython's way
    wait(chip, F.OP_NS["write_status"])
    assert tx(chip, F.RDSR2, read=1)[0] & F.SR2_QE


def test_program_then_every_read_command_sees_it(chip):
    program(chip, 0x1234, b"hello")
    assert tx(chip, F.RDSR1, read=1)[0] & F.SR1_WIP
    wait(chip, F.OP_NS["program"])
    assert tx(chip, F.RDSR1, read=1)[0] & 3 == 0  # WIP and WEL both clear
    assert tx(chip, F.READ, *addr(0x1234), read=5) == b"hello"
    for cmd in (F.FAST_READ, F.DUAL_OUT, F.QUAD_OUT):
        assert tx(chip, cmd, *addr(0x1234), 0xFF, read=5) == b"hello"


def test_program_only_clears_bits_and_wraps_inside_the_page(chip):
    program(chip, 0x100, b"\x0f")
    wait(chip, F.OP_NS["program"])
    program(chip, 0x100, b"\xf3")
    wait(chip, F.OP_NS["program"])
    assert tx(chip, F.READ, *addr(0x100), read=1) == b"\x03"
    program(chip, 0x2FE, b"abcd")  # past the page's end: back to its start
    wait(chip, F.OP_NS["program"])
    assert tx(chip, F.READ, *addr(0x2FE), read=2) == b"ab"
    assert tx(chip, F.READ, *addr(0x200), read=2) == b"cd"


def test_no_write_enable_no_program_and_busy_ignores_commands(chip):
    chip.select()
    for b in (F.PP,) + addr(0):
        chip.send(b)
    chip.write(b"\x00")
    chip.deselect()
    assert chip.counts["ignored_no_write_enable"] == 1
    tx(chip, F.WREN)
    tx(chip, F.SE, *addr(0))
    assert tx(chip, F.READ, *addr(0), read=1) == b"\xff"  # ignored while the erase runs: no data
    assert chip.counts["ignored_busy"] == 1


def test_sector_erase_takes_its_time_and_erases_4k(chip):
    program(chip, 0x0FFF, b"\x00")
    wait(chip, F.OP_NS["program"])
    program(chip, 0x1000, b"\x00")
    wait(chip, F.OP_NS["program"])
    tx(chip, F.WREN)
    tx(chip, F.SE, *addr(0x0800))
    wait(chip, F.OP_NS["erase_4k"] - 1)
    assert tx(chip, F.RDSR1, read=1)[0] & F.SR1_WIP
    wait(chip, 1)
    assert not tx(chip, F.RDSR1, read=1)[0] & F.SR1_WIP
    assert tx(chip, F.READ, *addr(0x0FFF), read=2) == b"\xff\x00"
    assert chip.report()["ops"][-1]["op"] == "erase_4k"


def test_quad_enable_is_written_and_kept_and_needed_for_quad_reads():
    chip = F.SpiFlash(qe=False)
    clock = Clock()
    chip.attach(clock)
    chip.mem[0:2] = b"ok"
    assert tx(chip, F.QUAD_OUT, *addr(0), 0xFF, read=2) == b"\xff\xff"
    tx(chip, F.WREN)
    tx(chip, F.WRSR1, 0x00, F.SR2_QE)
    clock.t += F.OP_NS["write_status"]
    assert tx(chip, F.RDSR2, read=1)[0] & F.SR2_QE
    chip.power_cut(random.Random(1))
    assert tx(chip, F.QUAD_OUT, *addr(0), 0xFF, read=2) == b"ok"


def test_bytes_survive_a_power_cycle_and_a_new_clock(chip):
    program(chip, 0, b"keep")
    wait(chip, F.OP_NS["program"])
    chip.power_cut(random.Random(0))
    chip.attach(Clock())
    assert tx(chip, F.READ, *addr(0), read=4) == b"keep"


def test_a_cut_inside_a_sector_erase_leaves_it_part_done(chip):
    chip.mem[0:F.SECTOR] = b"\x00" * F.SECTOR
    tx(chip, F.WREN)
    tx(chip, F.SE, *addr(0))
    wait(chip, F.OP_NS["erase_4k"] // 2)
    cut = chip.power_cut(random.Random(5))
    assert cut["during"] == "erase_4k" and cut["progress"] == pytest.approx(0.5)
    ones = sum(bin(b).count("1") for b in chip.mem[:F.SECTOR]) / (8 * F.SECTOR)
    assert 0.45 < ones < 0.55
    assert chip.mem[F.SECTOR] == 0xFF and not chip.busy


def test_a_reset_between_boots_keeps_the_operation_running_on_the_new_clock(chip):
    tx(chip, F.WREN)
    tx(chip, F.SE, *addr(0))
    wait(chip, F.OP_NS["erase_4k"] // 2)
    fresh = Clock()
    chip.attach(fresh)
    assert tx(chip, F.RDSR1, read=1)[0] & F.SR1_WIP
    fresh.t = F.OP_NS["erase_4k"] // 2
    assert not tx(chip, F.RDSR1, read=1)[0] & F.SR1_WIP


def test_unknown_commands_are_counted(chip):
    tx(chip, 0x5C)
    assert chip.report()["unknown"] == {"0x5c": 1}
