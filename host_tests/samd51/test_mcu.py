"""The core's machine: MMIO dispatch and the unmodelled log, the clocks, the RTC, PORT, time and poll
skipping, the CLI's arguments; with hand-encoded Thumb code in RAM (no firmware)."""

import struct

import pytest
from samd51.__main__ import main as cli_main
from samd51.periph.port import pin_number
from thumb_asm import B_NEXT, Machine, b_back, b_self, ldr, ldr32, movs, str_
from unicorn import arm_const as A

PDEC = 0x42001C00
GCLK = 0x40001C00
OSCCTRL = 0x40001000
RTC = 0x40002400
PORT = 0x41008000


def test_an_access_no_model_answers_is_kept_and_logged_once():
    main = (ldr32(0, PDEC + 0x10) + movs(1, 0x5A) + str_(1, 0) + B_NEXT + ldr(2, 0) + B_NEXT + ldr(3, 0)
            + b_self())
    m = Machine(main)
    m.mcu.run(cycles=200)
    assert m.reg(A.UC_ARM_REG_R2) == 0x5A and m.reg(A.UC_ARM_REG_R3) == 0x5A
    lines = [text for _, kind, text in m.mcu.lines if kind == "unmodelled"]
    assert len(lines) == 1 and lines[0].startswith("PDEC+0x010 write32 0x5A block@0x2000")
    assert list(m.mcu.unmodelled_seen) == [("PDEC", 0x10)]


EVSYS = 0x4100E000
PAC_INTFLAGB = 0x40000018


def test_a_write_past_a_register_map_is_the_pacs_illegal_access():
    # audio_dma_stop's disable_event_channel(0xff) for a single-buffered sample: CHANNEL[255] is at 0x818,
    # in EVSYS's 8 KB slot but past USER[66]. The write is dropped, a read gives 0, PAC INTFLAGB.EVSYS is set.
    main = (ldr32(0, EVSYS + 0x818) + movs(1, 0x5A) + str_(1, 0) + B_NEXT + ldr(2, 0)
            + ldr32(4, EVSYS + 0x20) + ldr(3, 4) + ldr32(5, PAC_INTFLAGB) + ldr(6, 5) + b_self())
    m = Machine(main)
    m.mcu.run(cycles=200)
    assert m.reg(A.UC_ARM_REG_R2) == 0 and m.reg(A.UC_ARM_REG_R3) == 0      # nothing kept; CHANNEL[0] as was
    assert m.reg(A.UC_ARM_REG_R6) == 1 << 7                                  # slot 7 of bridge B
    lines = [text for _, kind, text in m.mcu.lines if kind == "unmodelled"]
    assert lines[0].startswith("EVSYS+0x818 unimplemented write32 0x5A")
    m.mcu.mem_write(PAC_INTFLAGB, (1 << 7).to_bytes(4, "little"))          # write 1 to clear
    assert m.mcu.mem_read(PAC_INTFLAGB, 4) == bytes(4)


def test_the_pac_interrupt_follows_its_flags_when_err_is_enabled():
    m = Machine(b_self())
    mcu = m.mcu
    mcu.mem_write(0x40000009, b"\x01")                  # PAC INTENSET.ERR
    mcu.mem_write(EVSYS + 0x1000, bytes(4))              # past the register map
    assert 16 + 41 in mcu.nvic.pending
    mcu.mem_write(PAC_INTFLAGB, (1 << 7).to_bytes(4, "little"))
    assert 16 + 41 not in mcu.nvic.pending


def test_the_cpu_clock_follows_gclk0_onto_dpll0():
    # As CircuitPython's clock_init: GCLK5 = DFLL/24 (2 MHz) feeds FDPLL0 (PCHCTRL 1), LDR 59 -> 120 MHz.
    m = Machine(b_self())
    mcu = m.mcu
    assert mcu.hz == 48_000_000
    mcu.mem_write(GCLK + 0x20 + 4 * 5, struct.pack("<I", 0x180906))
    mcu.mem_write(GCLK + 0x80 + 4 * 1, struct.pack("<I", 0x45))
    mcu.mem_write(OSCCTRL + 0x34, struct.pack("<I", 59))
    mcu.mem_write(OSCCTRL + 0x30, b"\x02")
    mcu.mem_write(GCLK + 0x20, struct.pack("<I", 0x10907))
    assert mcu.hz == 120_000_000
    assert mcu.mem_read(OSCCTRL + 0x40, 4) == b"\x03\x00\x00\x00"   # DPLL0 LOCK | CLKRDY at once
    assert mcu.peripheral("GCLK").channel_hz(1) == 2_000_000


def rtc_machine():
    m = Machine(b_self())
    # Mode 0, PRESCALER DIV2, ENABLE, COUNTSYNC: 16,384 counts a second
    m.mcu.mem_write(RTC, struct.pack("<H", 0x8202))
    return m


def test_rtc_count_follows_simulated_time():
    m = rtc_machine()
    m.mcu.run(until_ns=500_000_000)
    count = int.from_bytes(m.mcu.mem_read(RTC + 0x18, 4), "little")
    assert count == 8192


def test_rtc_compare_interrupts_and_wakes_wfi():
    m = rtc_machine()
    mcu = m.mcu
    rtc = mcu.peripheral("RTC")
    mcu.mem_write(RTC + 0x20, struct.pack("<I", 1638))         # COMP0: 100 ms
    mcu.mem_write(RTC + 0x0A, struct.pack("<H", 1 << 8))       # INTENSET CMP0
    mcu.run(until_ns=99_000_000)
    assert not rtc.flags & (1 << 8) and 11 not in {e - 16 for e in mcu.nvic.pending}
    mcu.run(until_ns=101_000_000)
    assert rtc.flags & (1 << 8) and 16 + 11 in mcu.nvic.pending


def test_rtc_per2_ticks_1024_times_a_second():
    m = rtc_machine()
    mcu = m.mcu
    mcu.mem_write(RTC + 0x0A, struct.pack("<H", 1 << 2))       # INTENSET PER2
    ticks = []
    rtc = mcu.peripheral("RTC")
    for i in range(1, 11):
        mcu.run(until_ns=i * 1_000_000)
        if rtc.flags & 4:
            ticks.append(i)
            mcu.mem_write(RTC + 0x0C, struct.pack("<H", 4))    # clear PER2
    assert ticks == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def test_port_outputs_reach_listeners_and_inputs_read_what_parts_drive():
    m = Machine(b_self())
    mcu = m.mcu
    port = mcu.port
    seen = []
    port.on_change("PA23", lambda level: seen.append((level, mcu.cycles)))
    mcu.mem_write(PORT + 0x08, struct.pack("<I", 1 << 23))      # DIRSET
    mcu.mem_write(PORT + 0x18, struct.pack("<I", 1 << 23))      # OUTSET
    mcu.mem_write(PORT + 0x1C, struct.pack("<I", 1 << 23))      # OUTTGL
    assert [level for level, _ in seen] == [0, 1, 0]    # an output from DIRSET on, driving OUT's 0
    port.drive("PB30", 1)
    assert int.from_bytes(mcu.mem_read(PORT + 0x80 + 0x20, 4), "little") >> 30 & 1
    port.drive("PB30", 0)
    assert not int.from_bytes(mcu.mem_read(PORT + 0x80 + 0x20, 4), "little") >> 30 & 1
    assert pin_number("PB23") == 55


def test_a_poll_that_sees_no_change_skips_to_the_next_event():
    # The CPU reads a status word that an event 2 ms away sets; polling must not cost 2 ms of emulated
    # instructions, and the time must still come out right.
    main = ldr32(0, PDEC + 0x20) + ldr(1, 0) + movs(2, 0) + b"\x91\x42" + b"\xfb\xd0" + movs(7, 1) + b_self()
    m = Machine(main)
    mcu = m.mcu
    pdec = mcu.bus.owner(PDEC)
    mcu.at(2_000_000, lambda: pdec.store(0x20, 4, 1))
    mcu.run(until_ns=3_000_000)
    assert m.reg(A.UC_ARM_REG_R7) == 1
    assert mcu.bus.polls_skipped > 0.9 * 0.002 * mcu.hz
    assert 2_000_000 <= mcu.now_ns()


def test_the_cli_refuses_bad_arguments_with_one_line(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        cli_main(["--uf2", str(tmp_path / "missing.uf2")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    bad = tmp_path / "bad.uf2"
    bad.write_bytes(b"\0" * 1024)
    assert cli_main(["--uf2", str(bad), "--quiet"]) == 2


def test_without_a_c_compiler_the_python_block_hook_runs_with_a_cycle_a_halfword(monkeypatch):
    import samd51.mcu

    def no_compiler(uc):
        raise OSError("no cc")

    monkeypatch.setattr(samd51.mcu, "NativeCounter", no_compiler)
    slow = Machine(movs(5, 0) + b"\x01\x35" + b_back(1))
    assert slow.mcu.native is None
    assert any(kind == "native" and "a cycle a halfword" in text for _, kind, text in slow.mcu.lines)
    slow.mcu.run(cycles=10_001)
    assert abs(slow.reg(A.UC_ARM_REG_R5) - 5_000) <= 2   # adds + b: two halfwords an iteration


def test_poll_skipping_never_carries_a_run_past_its_end():
    main = ldr32(0, PDEC + 0x20) + ldr(1, 0) + movs(2, 0) + b"\x91\x42" + b"\xfb\xd0" + movs(7, 1) + b_self()
    m = Machine(main)
    mcu = m.mcu
    mcu.at(50_000_000, lambda: None)            # the only event, far away
    mcu.run(until_ns=1_000_000)
    assert 1_000_000 <= mcu.now_ns() < 1_000_150      # within the poll's block: 6 cycles at 48 MHz
    assert mcu.bus.polls_skipped > 0


def test_a_stop_from_an_event_ends_the_run_at_the_event():
    m = Machine(movs(5, 0) + b"\x01\x35" + b_back(1))
    m.mcu.at(250_000.0, lambda: m.mcu.stop("seen"))        # a float time is fine
    assert m.mcu.run(until_ns=5e6) == "seen"
    assert 250_000 <= m.mcu.now_ns() < 251_000
