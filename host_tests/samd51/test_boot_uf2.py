"""The real CircuitPython 9.1.1 UF2 for the PyBadge boots on the core: clocks to 120 MHz, the RTC runs its
ticks, the one-second safe-mode wait passes and the CPU sleeps in WFI (about 1.2 s simulated, a few seconds
of host time). Skips with one reason without the firmware; SULTAN_EMULATOR=required makes that a failure."""



from pybadge_uf2 import firmware, missing

UF2 = firmware()
if UF2 is None:
    pytestmark = missing()


def test_the_pybadge_firmware_boots_to_its_first_sleep(tmp_path):
    from samd51 import boards, fatimage
    from samd51.mcu import Mcu

    mcu = Mcu(board=boards.load("pybadge"))
    mcu.load_uf2(UF2)
    (tmp_path / "code.py").write_text("print('hi')\n")
    mcu.board.load_flash(fatimage.flash_image(str(tmp_path)))   # a formatted CIRCUITPY: no format at boot
    mcu.reset()
    assert mcu.run(until_ns=1_200_000_000) == "cycles"
    rtc = mcu.peripheral("RTC")
    assert mcu.hz == 120_000_000                      # GCLK0 on DPLL0, as clock_init sets it
    assert rtc.enabled() and rtc.divider() == 2       # 16,384 counts a second: 1/1024 s ticks
    assert mcu.sleeps >= 1                            # port_idle_until_interrupt reached WFI
    assert mcu.nvic.entries >= 1                      # and an interrupt (the RTC's) woke it
    core = {"SUPC", "OSCCTRL", "OSC32KCTRL", "GCLK", "MCLK", "CMCC", "PM", "RSTC", "PAC", "WDT", "RTC",
            "PORT", "EIC", "TRNG", "SCS", "DWT"}
    assert not [key for key in mcu.unmodelled_seen if key[0] in core]
