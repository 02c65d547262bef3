"""QSPI in front of the GD25Q16C, driven with the register sequences of CircuitPython 9.1.1's
ports/atmel-samd/supervisor/qspi_flash.c (spi_flash_command / read_command / write_data / read_data...),
and the CIRCUITPY image (samd51.fatimage) read back through it."""

import os

import pytest
from fakes import UnicornMcu
from samd51 import fatimage
from samd51.parts import spiflash as F
from samd51.periph import qspi as Q

SINGLE, QUAD_OUTPUT = 0, 2
ADDRLEN_24 = 0


def frame(width, tfrtype, data=False, addr=False, dummy=0):
    return (width | Q.INSTRFRAME_INSTREN | (Q.INSTRFRAME_DATAEN if data else 0)
            | (Q.INSTRFRAME_ADDREN if addr else 0)
            | (tfrtype << 12) | (dummy << 16) | ADDRLEN_24)


@pytest.fixture
def rig():
    mcu = UnicornMcu()
    qspi = Q.Qspi(mcu)
    chip = F.SpiFlash()
    qspi.attach(chip)
    qspi.write(Q.CTRLA, 4, Q.CTRLA_SWRST)
    qspi.write(Q.BAUD, 4, 2 << 8)
    qspi.write(Q.CTRLB, 4, Q.CTRLB_MODE_MEMORY | (1 << 4))
    qspi.write(Q.CTRLA, 4, Q.CTRLA_ENABLE)
    return mcu, qspi, chip


def finish(mcu, qspi):
    """LASTXFER, then poll INSTREND as the driver does (the fake clock moves 100 ns a poll)."""
    qspi.write(Q.CTRLA, 4, Q.CTRLA_ENABLE | Q.CTRLA_LASTXFER)
    polls = 0
    while not qspi.read(Q.INTFLAG, 4) & Q.INTFLAG_INSTREND:
        mcu.t += 100
        polls += 1
    qspi.write(Q.INTFLAG, 4, Q.INTFLAG_INSTREND)
    return polls


def command(mcu, qspi, op):
    qspi.write(Q.INSTRCTRL, 4, op)
    qspi.write(Q.INSTRFRAME, 4, frame(SINGLE, Q.TFRTYPE_READ))
    finish(mcu, qspi)


def read_command(mcu, qspi, op, n):
    qspi.write(Q.INSTRCTRL, 4, op)
    qspi.write(Q.INSTRFRAME, 4, frame(SINGLE, Q.TFRTYPE_READ, data=True))
    qspi.read(Q.INSTRFRAME, 4)
    out = bytes(qspi.ahb_read(k, 1) for k in range(n))
    finish(mcu, qspi)
    return out


def sector_command(mcu, qspi, op, address):
    qspi.write(Q.INSTRCTRL, 4, op)
    qspi.write(Q.INSTRADDR, 4, address)
    qspi.write(Q.INSTRFRAME, 4, frame(SINGLE, Q.TFRTYPE_WRITE, addr=True))
    finish(mcu, qspi)


def write_data(mcu, qspi, address, data):
    qspi.write(Q.INSTRCTRL, 4, F.PP)
    qspi.write(Q.INSTRFRAME, 4, frame(SINGLE, Q.TFRTYPE_WRITEMEMORY, data=True, addr=True))
    for k in range(0, len(data), 4):
        qspi.ahb_write(address + k, 4, int.from_bytes(data[k: k + 4], "little"))
    finish(mcu, qspi)


def read_data(mcu, qspi, address, n):
    qspi.write(Q.INSTRCTRL, 4, F.QUAD_OUT)
    qspi.write(Q.INSTRFRAME, 4, frame(QUAD_OUTPUT, Q.TFRTYPE_READMEMORY, data=True, addr=True, dummy=8))
    out = b"".join(qspi.ahb_read(address + k, 4).to_bytes(4, "little") for k in range(0, n, 4))
    polls = finish(mcu, qspi)
    return out, polls


def wait_ready(mcu, qspi):
    while read_command(mcu, qspi, F.RDSR1, 1)[0] & 3:
        mcu.t += 10_000


def test_jedec_id_through_the_window(rig):
    mcu, qspi, chip = rig
    assert read_command(mcu, qspi, F.RDID, 3) == bytes((0xC8, 0x40, 0x15))


def test_page_program_then_quad_read_back(rig):
    mcu, qspi, chip = rig
    page = bytes(range(256))
    command(mcu, qspi, F.WREN)
    write_data(mcu, qspi, 0x3000, page)
    assert read_command(mcu, qspi, F.RDSR1, 1)[0] & F.SR1_WIP
    wait_ready(mcu, qspi)
    got, _ = read_data(mcu, qspi, 0x3000, 256)
    assert got == page
    assert chip.report()["ops"][0]["op"] == "program"


def test_sector_erase_through_instraddr(rig):
    mcu, qspi, chip = rig
    chip.mem[0x5000:0x5010] = b"\x00" * 16
    command(mcu, qspi, F.WREN)
    sector_command(mcu, qspi, F.SE, 0x5000)
    wait_ready(mcu, qspi)
    assert mcu.t >= F.OP_NS["erase_4k"]
    assert read_data(mcu, qspi, 0x5000, 16)[0] == b"\xff" * 16


def test_a_non_sequential_window_read_starts_the_instruction_again(rig):
    mcu, qspi, chip = rig
    chip.mem[0:8] = b"abcdefgh"
    chip.mem[0x100:0x104] = b"WXYZ"
    qspi.write(Q.INSTRCTRL, 4, F.QUAD_OUT)
    qspi.write(Q.INSTRFRAME, 4, frame(QUAD_OUTPUT, Q.TFRTYPE_READMEMORY, data=True, addr=True, dummy=8))
    assert qspi.ahb_read(4, 4).to_bytes(4, "little") == b"efgh"
    assert qspi.ahb_read(0x100, 4).to_bytes(4, "little") == b"WXYZ"
    finish(mcu, qspi)
    # the memory-mapped read mode: after LASTXFER, a window read runs the frame again
    assert qspi.ahb_read(0, 2).to_bytes(2, "little") == b"ab"
    assert chip.counts["quad_output_read"] == 3


def test_instrend_waits_for_the_frame_clocks(rig):
    mcu, qspi, chip = rig
    # 512 B quad read at 40 MHz: 8 + 24 + 8 dummy + 1024 data clocks = 26.6 us
    mcu.t = 0
    _, polls = read_data(mcu, qspi, 0, 512)
    assert 250 <= polls <= 270
    assert qspi.report()["bus_ms"] == pytest.approx(0.0266, abs=0.0005)


@pytest.mark.parametrize("cpu_hz, baud, us", [(48_000_000, 2, 66.5), (120_000_000, 32, 292.6)])
def test_sck_is_the_cpu_clock_over_baud_plus_one(rig, cpu_hz, baud, us):
    mcu, qspi, chip = rig
    mcu.hz = cpu_hz                              # before DPLL0 locks, or a slow BAUD for a logic analyser
    qspi.write(Q.BAUD, 4, baud << 8)
    read_data(mcu, qspi, 0, 512)                 # 1064 clocks at cpu_hz / (baud + 1)
    assert qspi.stats["bus_ns"] / 1000 == pytest.approx(us, abs=0.1)


def test_instrend_raises_the_interrupt_when_enabled(rig):
    mcu, qspi, chip = rig
    qspi.write(Q.INTENSET, 4, Q.INTFLAG_INSTREND)
    command(mcu, qspi, F.WREN)
    assert 134 not in mcu.pending  # finish() cleared the flag
    qspi.write(Q.INSTRFRAME, 4, frame(SINGLE, Q.TFRTYPE_READ))
    qspi.write(Q.CTRLA, 4, Q.CTRLA_ENABLE | Q.CTRLA_LASTXFER)
    mcu.t += 10_000
    qspi.read(Q.INTFLAG, 4)
    qspi.write(Q.INTENSET, 4, 0)  # any register write re-evaluates the line
    assert 134 in mcu.pending


def test_the_circuitpy_image_reads_back_through_the_qspi(rig, tmp_path):
    mcu, qspi, chip = rig
    (tmp_path / "code.py").write_text('print("hi")\n')
    image = fatimage.flash_image(str(tmp_path), build_ts=0)
    assert len(image) == F.SIZE and image[-4096:] == b"\xff" * 4096
    chip.mem[:] = image
    boot, _ = read_data(mcu, qspi, 0, 512)
    assert boot[510:512] == b"\x55\xaa"
    sectors = int.from_bytes(boot[19:21], "little") or int.from_bytes(boot[32:36], "little")
    assert sectors == fatimage.VOLUME_BYTES // 512
    assert b'print("hi")' in image and "code.py".encode("utf-16-le")[:10] in image  # its long name


def test_fatimage_command_line_refuses_a_missing_folder(tmp_path, capsys):
    assert fatimage.main([str(tmp_path / "nope"), str(tmp_path / "out.bin")]) == 2
    assert not os.path.exists(tmp_path / "out.bin")
    assert "usage" in capsys.readouterr().err


def test_fatimage_extra_files_join_the_folder(tmp_path):
    (tmp_path / "code.py").write_text("pass\n")
    text = b"Adafruit CircuitPython 9.1.1 on 2024-07-22; Adafruit Pybadge with samd51j19\r\n"
    image = fatimage.flash_image(str(tmp_path), build_ts=0, extra={"boot_out.txt": text})
    assert text in image and b"pass\n" in image
    assert fatimage.flash_image(str(tmp_path), build_ts=0).find(text) == -1


class SkippingMcu(UnicornMcu):
    """The core's skip_poll: up to 16 << n ns of polling at once, never past the next event."""

    def __init__(self):
        super().__init__()
        self.skipped = 0

    def skip_poll(self, n):
        due = [e[0] for e in self.events if e[1] is not None]
        step = min([16 << min(n, 16)] + [d - self.t for d in due])
        if step <= 0:
            return 0
        self.t += step
        self.skipped += step
        self.advance(0)
        return step


def test_a_busy_status_poll_skips_its_time_and_stops_at_the_erase_end():
    mcu = SkippingMcu()
    qspi = Q.Qspi(mcu)
    chip = F.SpiFlash()
    qspi.attach(chip)
    qspi.write(Q.BAUD, 4, 2 << 8)
    qspi.write(Q.CTRLB, 4, Q.CTRLB_MODE_MEMORY | (1 << 4))
    qspi.write(Q.CTRLA, 4, Q.CTRLA_ENABLE)
    command(mcu, qspi, F.WREN)
    sector_command(mcu, qspi, F.SE, 0x5000)
    end = chip.busy_until()
    start = end - F.OP_NS["erase_4k"]                # CS rose at the end of the erase's frame
    assert mcu.t - start < 2_000
    polls = 0
    while read_command(mcu, qspi, F.RDSR1, 1)[0] & F.SR1_WIP:
        mcu.t += 100                                 # the firmware's own loop, a frame's worth
        polls += 1
    assert mcu.skipped > 0.9 * (end - start)         # the wait passed in skips, not in frames
    assert polls < 100                               # 50 ms at 100 ns a poll would be 500,000
    assert end <= mcu.t < end + 2_000                # and it stopped at the erase's end
    assert chip.busy_until() is None and qspi.report()["polls_skipped_cycles"] == mcu.skipped
