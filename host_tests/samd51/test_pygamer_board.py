"""The PyGamer board: its parts on pins.c's pins and each badge's CIRCUITPY as big as its chip (no
firmware), then CircuitPython 10.2.1 on it: its own format of the erased chip, analogio reading the joystick
and the light sensor through the ADC model as a test moves them, os.statvfs.  The firmware tests skip with
one reason without vendor-local/pygamer's UF2 (SULTAN_EMULATOR=required makes that a failure)."""

import glob
import os

import pytest
from conftest import ROOT
from samd51 import boards, fatimage
from samd51.mcu import Mcu
from samd51.parts.spiflash import GD25Q16C, GD25Q64C, SpiFlash
from sultan_host.pybadge import image as badge_image

FLASH_8MB = 8 * 1024 * 1024


def test_the_pygamer_wires_its_parts_on_its_own_pins():
    board = Mcu(board=boards.load("pygamer")).board
    assert board.flash.part is GD25Q64C and board.flash.size == FLASH_8MB
    assert board.keys.keys == ("B", "A", "START", "SELECT")
    sercom = board.mcu.peripheral("SERCOM4")
    assert sercom.part is board.display and sercom.cs == 32 + 12     # TFT_CS on PB12, not the PyBadge's PB07
    adc1 = board.mcu.peripheral("ADC1")
    assert {ain: pin for ain, (pin, _) in adc1.sources.items()} == {9: "PB07", 8: "PB06", 6: "PB04"}
    assert board.joystick.position() == (0.0, 0.0)                    # centred at rest
    board.joystick.push("LEFT")
    assert adc1.sources[9][1]() == 0.0 and adc1.sources[8][1]() == pytest.approx(1.65)
    board.joystick.set(0.5, 1.0)
    assert adc1.sources[9][1]() == pytest.approx(2.475) and adc1.sources[8][1]() == pytest.approx(3.3)
    with pytest.raises(ValueError, match="direction"):
        board.joystick.push("NORTH")
    with pytest.raises(ValueError, match="no RIGHT button"):
        board.keys.press("RIGHT")


def test_a_chip_of_the_other_badge_is_refused():
    board = Mcu(board=boards.load("pygamer")).board
    with pytest.raises(ValueError, match="the pygamer has a GD25Q64C, not a GD25Q16C"):
        board.attach_flash(SpiFlash(part=GD25Q16C))
    with pytest.raises(ValueError, match="does not fit the GD25Q16C"):
        Mcu(board=boards.load("pybadge")).board.load_flash(bytes(FLASH_8MB))


def test_the_cli_refuses_a_flash_image_larger_than_the_boards_chip(tmp_path, capsys):
    import struct

    from samd51.__main__ import main as cli_main

    uf2 = tmp_path / "one.uf2"      # one UF2 block of main flash at 0x4000
    header = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0, 0x4000, 256, 0, 1, 0)
    uf2.write_bytes(header + b"\xff" * 476 + struct.pack("<I", 0x0AB16F30))
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(FLASH_8MB + 1))
    assert cli_main(["--uf2", str(uf2), "--board", "pygamer", "--flash", str(big), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not fit the GD25Q64C" in err


def bpb(sector):
    """The boot sector's layout fields: bytes per sector .. sectors, and the FAT type's name."""
    return {"sector": int.from_bytes(sector[11:13], "little"), "per_cluster": sector[13],
            "reserved": int.from_bytes(sector[14:16], "little"), "fats": sector[16],
            "root": int.from_bytes(sector[17:19], "little"),
            "sectors": int.from_bytes(sector[19:21], "little") or int.from_bytes(sector[32:36], "little"),
            "fat_sectors": int.from_bytes(sector[22:24], "little"), "type": bytes(sector[54:62])}


@pytest.mark.parametrize("name, fat, fat_sectors", [("pybadge", 12, 6), ("pygamer", 16, 32)])
def test_each_badges_circuitpy_fills_its_chip_but_the_scratch_sector(tmp_path, name, fat, fat_sectors):
    (tmp_path / "code.py").write_text("pass\n")
    chip = boards.load(name).FLASH
    image = badge_image.flash_image(str(tmp_path), name)
    assert len(image) == chip.size and image[-4096:] == b"\xff" * 4096
    assert image[510:512] == b"\x55\xaa"
    # oofatfs f_mkfs(FM_FAT, au=0) on (size - 4 KB) / 512 blocks: 1 KB clusters, one FAT, 512 root entries
    assert bpb(image[:512]) == {"sector": 512, "per_cluster": 2, "reserved": 1, "fats": 1, "root": 512,
                                "sectors": (chip.size - 4096) // 512, "fat_sectors": fat_sectors,
                                "type": b"FAT     "}
    geo = fatimage.geometry(chip.size)
    assert geo.fat_type == fat
    assert geo.cluster_count * geo.cluster_bytes > chip.size * 0.98   # statvfs: the chip, less the FAT's own


def test_fatimage_command_line_takes_the_boards_chip(tmp_path, capsys):
    (tmp_path / "code.py").write_text("pass\n")
    out = tmp_path / "gamer.bin"
    assert fatimage.main([str(tmp_path), str(out), "pygamer"]) == 0
    assert out.stat().st_size == FLASH_8MB and "8188 KB" in capsys.readouterr().out
    assert fatimage.main([str(tmp_path), str(tmp_path / "no.bin"), "gameboy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no board 'gameboy'" in err and not (tmp_path / "no.bin").exists()


def pygamer_uf2():
    given = os.environ.get("PYGAMER_UF2")
    if given:
        return given if os.path.isfile(given) else None
    pattern = os.path.join(ROOT, "vendor-local", "pygamer", "adafruit-circuitpython-pygamer-*-10.*.uf2")
    found = glob.glob(pattern)
    return found[0] if found else None


UF2 = pygamer_uf2()
needs_uf2 = pytest.mark.skipif(
    UF2 is None and os.environ.get("SULTAN_EMULATOR") != "required",
    reason="no PyGamer CircuitPython 10 UF2 in vendor-local/pygamer/: link ../shared/firmware/pygamer there "
           "(or set PYGAMER_UF2)")

CODE = """import analogio, board, supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
x = analogio.AnalogIn(board.JOYSTICK_X)
y = analogio.AnalogIn(board.JOYSTICK_Y)
light = analogio.AnalogIn(board.LIGHT)
n = 0
while True:
    print("ADC", n, x.value, y.value, light.value)
    n += 1
    time.sleep(0.02)
"""


def analogio_value(volts):
    """What analogio.AnalogIn.value gives for ``volts`` on a 3.3 V reference: 12 bits stretched to 16."""
    code = min(round(volts / 3.3 * 4096), 4095)
    return code << 4 | code >> 8


class Console:
    def __init__(self, mcu):
        from samd51.usbhost import UsbHost

        self.mcu = mcu
        self.text = ""
        self.host = UsbHost(mcu, on_serial=self.heard)

    def heard(self, data):
        self.text += bytes(data).decode("utf-8", "replace")

    def readings(self):
        return [[int(v) for v in line.split()[1:]] for line in self.text.splitlines()
                if line.startswith("ADC ") and len(line.split()) == 5]

    def next_reading(self, limit_ms=500):
        """Run until two more lines come (the first may have sampled before the change): the second."""
        want = len(self.readings()) + 2
        end = self.mcu.now_ns() + limit_ms * 1_000_000
        while len(self.readings()) < want and self.mcu.now_ns() < end:
            assert self.mcu.run(until_ns=min(end, self.mcu.now_ns() + 10_000_000)) == "cycles"
        assert len(self.readings()) >= want, self.text[-500:]
        return self.readings()[-1][1:]

    def wait_for(self, marker, limit_ns):
        """Run until ``marker`` is heard or the clock reaches ``limit_ns``."""
        while marker not in self.text and self.mcu.now_ns() < limit_ns:
            self.mcu.run(until_ns=self.mcu.now_ns() + 50_000_000)


def boot(folder):
    """The PyGamer's CircuitPython with ``folder`` as CIRCUITPY, reset, its console heard from the start."""
    mcu = Mcu(board=boards.load("pygamer"))
    mcu.load_uf2(UF2)
    mcu.board.load_flash(badge_image.flash_image(str(folder), "pygamer"))   # as the harness lays it
    console = Console(mcu)
    mcu.reset()
    return console


@needs_uf2
def test_circuitpython_reads_the_stick_and_the_light_as_the_test_sets_them(tmp_path):
    (tmp_path / "code.py").write_text(CODE)
    console = boot(tmp_path)
    mcu = console.mcu
    assert console.next_reading(limit_ms=8000) == [analogio_value(1.65)] * 2 + [analogio_value(0.33)]
    board = mcu.board
    seen = []
    for x, y, light in ((1.0, 0.0, 0.1), (-1.0, 0.5, 0.9), (0.25, -1.0, 0.0)):
        board.joystick.set(x, y)
        board.light.set_fraction(light)
        seen.append(console.next_reading())
        assert seen[-1] == [analogio_value((x + 1) * 1.65), analogio_value((y + 1) * 1.65),
                            analogio_value(light * 3.3)]
    assert seen[0][0] == 65535 and seen[1][0] == 0                     # the stick's ends are the scale's
    adc1 = mcu.peripheral("ADC1")
    assert adc1.conversions >= 6 * len(console.readings())             # analogio converts twice a read
    assert adc1.value(0x00) == 0                                       # and leaves it reset (adc_sync_deinit)
    # every conversion had the NVM row's trims in CALIB, a clock, and its pin on function B (else logged)
    assert not [text for _, kind, text in mcu.lines if kind == "adc"]


KEYS_CODE = """import supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
time.sleep(0.2)  # a line printed at once after DTR never reaches the host model
import profile_pygamer
keys = profile_pygamer.make_keys()
print("KEYS READY")
while True:
    e = keys.events.get()
    if e is not None:
        print("EVENT", e.key_number, e.pressed)
    time.sleep(0.01)
"""


@needs_uf2
def test_the_pygamer_profile_turns_the_stick_into_direction_keys_on_the_firmware(tmp_path):
    from sultan_host.board.tree import build

    tree = tmp_path / "tree"
    build(10, str(tree), quiet=True)       # the game's CIRCUITPY, our code.py in place of its own
    (tree / "code.py").write_text(KEYS_CODE)
    console = boot(tree)
    mcu = console.mcu
    console.wait_for("KEYS READY", 10_000_000_000)
    assert "KEYS READY" in console.text, (mcu.now_ns(), console.text[-800:], mcu.lines[-5:])
    stick, buttons = mcu.board.joystick, mcu.board.keys
    steps = [(lambda: stick.set(0.4, 0.0), None),            # inside _PUSH of the centre: no key
             (lambda: stick.push("RIGHT"), "EVENT 4 True"), (stick.release, "EVENT 4 False"),
             (lambda: stick.push("UP"), "EVENT 6 True"), (stick.release, "EVENT 6 False"),
             (lambda: buttons.press("A"), "EVENT 1 True"), (lambda: buttons.release("A"), "EVENT 1 False")]
    for act, want in steps:
        before = console.text.count("EVENT")
        act()
        mcu.run(until_ns=mcu.now_ns() + 150_000_000)
        got = [line for line in console.text.splitlines() if line.startswith("EVENT")][before:]
        assert got == ([want] if want else []), (want, got)


@needs_uf2
def test_the_pygamer_image_boots_to_its_repl_on_its_own_board(tmp_path):
    console = boot(tmp_path)   # no code.py
    mcu = console.mcu
    while not console.host.is_open() and mcu.now_ns() < 6_000_000_000:
        mcu.run(until_ns=mcu.now_ns() + 50_000_000)
    mcu.run(until_ns=mcu.now_ns() + 300_000_000)
    console.host.write(b"\r")
    mcu.run(until_ns=mcu.now_ns() + 300_000_000)
    console.host.write(b"import board, microcontroller; print(board.board_id, microcontroller.cpu.uid)\r")
    mcu.run(until_ns=mcu.now_ns() + 300_000_000)
    console.host.write(b"import os; s = os.statvfs('/'); print('DRIVE', s[0] * s[2])\r")
    mcu.run(until_ns=mcu.now_ns() + 300_000_000)
    assert "Adafruit CircuitPython 10.2.1" in console.text
    assert "Adafruit PyGamer with samd51j19" in console.text
    assert "pygamer bytearray(b'TLUS" in console.text                 # the Mcu's made-up serial number
    assert mcu.board.flash.counts["jedec_id"] >= 1                    # found by its JEDEC id: the GD25Q64C
    geo = fatimage.geometry(GD25Q64C.size)                            # CIRCUITPY is the 8 MB chip's
    assert "DRIVE %d" % (geo.cluster_count * geo.cluster_bytes) in console.text and geo.cluster_count > 8000
    assert not [key for key in mcu.unmodelled_seen if key[0] in ("QSPI", "ADC0", "ADC1", "SERCOM4")]


@needs_uf2
def test_circuitpythons_own_format_of_the_erased_chip_is_the_layout_the_harness_lays(tmp_path):
    mcu = Mcu(board=boards.load("pygamer"))         # the chip erased: CircuitPython formats CIRCUITPY
    mcu.load_uf2(UF2)
    console = Console(mcu)
    mcu.reset()
    console.wait_for("Done |", 10_000_000_000)       # the default code.py it writes has run
    chip = mcu.board.flash
    assert chip.mem[510:512] == b"\x55\xaa", console.text[-500:]
    ours = badge_image.flash_image(str(tmp_path), "pygamer")
    assert bpb(chip.mem[:512]) == bpb(ours[:512])
    assert bpb(ours[:512])["sectors"] == (GD25Q64C.size - 4096) // 512


PARTS_CODE = """import array, audiocore, audioio, board, digitalio, neopixel_write, supervisor, time
while not supervisor.runtime.serial_connected:
    time.sleep(0.01)
time.sleep(0.2)
pixels = digitalio.DigitalInOut(board.NEOPIXEL)
pixels.switch_to_output()
neopixel_write.neopixel_write(pixels, bytes((1, 2, 3) * 4 + (0x40, 0x20, 0x10)))
board.DISPLAY.brightness = 0.25
amp = digitalio.DigitalInOut(board.SPEAKER_ENABLE)
amp.switch_to_output(value=True)
wave = audiocore.RawSample(array.array("H", [0x1000, 0xF000] * 8), sample_rate=8000)
audio = audioio.AudioOut(board.SPEAKER)
# looped: CircuitPython's SAMD audio_dma ends a one-shot only from the DMA block event's EVSYS
# interrupt, set up for double-buffered samples alone: a single-buffer one-shot stays "playing"
audio.play(wave, loop=True)
time.sleep(0.05)
audio.stop()
print("PARTS DONE")
while True:
    time.sleep(1)
"""


@needs_uf2
def test_the_pygamers_pixels_backlight_and_speaker_follow_the_firmware(tmp_path):
    (tmp_path / "code.py").write_text(PARTS_CODE)
    console = boot(tmp_path)
    mcu = console.mcu
    console.wait_for("PARTS DONE", 8_000_000_000)
    assert "PARTS DONE" in console.text, console.text[-800:]
    board = mcu.board
    board.neopixels.flush()
    assert board.neopixels.frames[-1]["pixels"] == [[2, 1, 3]] * 4 + [[0x20, 0x40, 0x10]]   # GRB on the wire
    assert board.backlight() == pytest.approx(0.25, abs=0.01)
    assert board.speaker_on()
    codes = {code for _, code in board.speaker_samples()}
    assert {0x100, 0xF00} <= codes                                     # 16-bit samples, the DAC's 12 bits
    assert board.display.report()["on"]
