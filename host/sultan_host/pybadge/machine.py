"""A badge (the PyBadge or the PyGamer) across power cycles: each power-on is a new ``samd51.Mcu`` (RAM,
peripherals, clock lost); the QSPI flash chip (CIRCUITPY) and the internal flash's NVM block are carried over,
as on the board.

Time is one timeline for the whole run: ``now_ns()`` = the boots before this one + this boot's clock, and
the flash chip is given that clock so its operations' times are on it.  NVMCTRL lives in each Mcu, so its
operations and cuts are moved onto the timeline and kept here when the power goes.
"""

import random

from samd51 import boards
from samd51.mcu import Mcu
from samd51.parts.spiflash import SpiFlash
from samd51.usbhost import UsbHost

from sultan_host.pybadge.image import NVM_ADDR, NVM_LEN

WRITE = "write"  # the stop reason when an erase or program starts and a CUT@WRITE waits for it
DIRECTIONS = ("RIGHT", "DOWN", "UP", "LEFT")  # the words a joystick takes where there are no such buttons


class Machine:
    """``on_serial(bytes)`` hears the CDC console; ``power_cycle(kind)`` cuts and boots again."""

    def __init__(self, uf2, flash, on_serial, board="pybadge", seed=1, flash_time_scale=1.0, usb=True,
                 log=None):
        self.uf2 = uf2
        self.board_class = boards.load(board)
        self.on_serial = on_serial
        self.seed = seed
        self.usb = usb
        self.log = log or (lambda text: None)
        self.chip = SpiFlash(data=flash, part=self.board_class.FLASH, time_scale=flash_time_scale)
        self.time_scale = flash_time_scale
        self.nvm = None                # the NVM block's bytes to load into the next Mcu (None: erased)
        self.base_ns = 0
        self.mcu = self.board = self.host = None
        self.boots = []                # {boot, cause, at_ms, ready_ms, ready}
        self.nvm_ops, self.nvm_cuts = [], []   # NVMCTRL's, on the run's timeline (boots before this one)
        self.cuts = []                 # each power cycle: {at_ms, kind, flash: chip's cut, nvm: NVMCTRL's}
        self.resets = 0                # the firmware's own SYSRESETREQs (a warm reset: RAM kept)
        self.watch_writes = False      # stop the CPU when an erase or program starts (CUT@WRITE)
        # the boots before this one: DAC changes, NeoPixel frames, RAMWRs
        self.dac_kept, self.frames_kept, self.ramwr_kept = [], [], []
        self.writes = 0                # erases and programs started, NVM and QSPI flash, every boot
        self.last_write_ms = None      # when the last of them started
        self.backlight_changes = []    # {at_ms, duty} at each change, looked at every simulated ms
        self._duty, self._duty_ns = None, -10 ** 9
        self.power_on("power-on")

    # -- time ---------------------------------------------------------------------------------------------
    def now_ns(self):
        return self.base_ns + (self.mcu.now_ns() if self.mcu is not None else 0)

    def now_ms(self):
        return self.now_ns() / 1e6

    def run_ms(self, ms, until_write=False):
        """Run ``ms`` simulated ms (a firmware reset on the way is a warm reset, and the run goes on);
        ``until_write``: or until an erase or program starts (NVM or QSPI flash), then returns "write"."""
        end = self.mcu.now_ns() + int(ms * 1e6)
        # an event at the end: the Bus's poll skipping jumps to the next event, never past one (an aimed cut
        # inside a page write lands on time while the firmware spins on NVMCTRL's READY)
        mark = self.mcu.at(end - self.mcu.now_ns(), lambda: None)
        self.watch_writes = until_write
        while self.mcu.now_ns() < end:
            reason = self.mcu.run(until_ns=end)
            if reason == WRITE:
                if until_write:
                    self.watch_writes = False
                    self.mcu.cancel(mark)
                    return WRITE
            elif reason == "SYSRESETREQ":
                self.resets += 1
                self.log("the firmware reset the chip (SYSRESETREQ): warm reset")
                self.mcu.reset()
            elif reason != "cycles":
                raise MachineError("the emulator stopped: %s" % reason)
        self.watch_writes = False
        return None

    # -- the board's parts (this boot's) ----------------------------------------------------------------
    def on_stick(self, name):
        """True when key word ``name`` pushes this board's joystick rather than a button."""
        return self.board.joystick is not None and name in DIRECTIONS and name not in self.board.KEYS

    def press(self, name, down):
        """A key word's button, or on a board with a joystick a direction's push (released: the centre)."""
        stick = self.board.joystick
        if self.on_stick(name):
            if down:
                stick.push(name)
            else:
                stick.release()
            return
        keys = self.board.keys
        (keys.press if down else keys.release)(name)

    @property
    def panel(self):
        return self.board.display

    def backlight(self):
        return self.board.backlight()

    def _watch_backlight(self):
        now = self.now_ns()
        if now - self._duty_ns < 1_000_000:
            return
        self._duty_ns = now
        duty = self.backlight()
        if duty != self._duty:
            self._duty = duty
            self.backlight_changes.append({"at_ms": now / 1e6, "duty": duty})

    # -- power ----------------------------------------------------------------------------------------------
    def power_on(self, cause):
        mcu = Mcu(board=self.board_class)
        mcu.load_uf2(self.uf2)
        if self.nvm is not None:
            mcu.load_bin(NVM_ADDR, self.nvm)
        board = mcu.board
        board.attach_flash(self.chip)       # the board made a blank chip: the one kept across boots instead
        self.chip.attach(self.now_ns_of(mcu), lambda text: mcu.log("flash", text))
        nvmctrl = mcu.peripheral("NVMCTRL")
        nvmctrl.time_scale = self.time_scale
        self._hear_writes(mcu, nvmctrl)
        self._hear_writes(mcu, self.chip)
        board.display.clock = self.now_ns_of(mcu)   # RAMWRs on the run's timeline (the board wires the rest)
        self.host = UsbHost(mcu, on_serial=self.on_serial) if self.usb else None
        self.mcu, self.board = mcu, board
        mcu.on_look = self._watch_backlight
        self.boots.append({"boot": len(self.boots), "cause": cause, "at_ms": self.base_ns / 1e6,
                           "ready_ms": None, "ready": None})
        mcu.reset()

    def _hear_writes(self, mcu, part):
        """Count each erase/program ``part.start`` begins, and end the CPU slice there if a cut waits."""
        start = type(part).start

        def started(*args):
            start(part, *args)
            self.writes += 1
            self.last_write_ms = self.now_ms()
            if self.watch_writes:
                mcu.stop(WRITE)
        part.start = started

    def now_ns_of(self, mcu):
        base = self.base_ns
        return lambda: base + mcu.now_ns()

    def power_cycle(self, kind):
        """Power lost now (RESET or CUT): an erase or program under way is left part done (seeded), the NVM
        block kept as the cut left it; then a fresh Mcu boots.  Returns the cut's record."""
        rand = random.Random((self.seed * 0x9E3779B1 + len(self.cuts) * 0x85EBCA6B + 1) & 0xFFFFFFFF)
        at_ms = self.now_ms()
        chip_cut = self.chip.power_cut(rand)
        nvmctrl = self.mcu.peripheral("NVMCTRL")
        nvm_cut = nvmctrl.power_cut(rand)
        cut = {"at_ms": at_ms, "kind": kind, "flash": chip_cut, "nvm": self._on_timeline(nvm_cut)}
        self.cuts.append(cut)
        self._keep_nvmctrl(nvmctrl)
        self._keep_sound_and_lights()
        self.nvm = self.mcu.mem_read(NVM_ADDR, NVM_LEN)
        self.base_ns += self.mcu.now_ns()
        self.power_on(kind)
        return cut

    def _on_timeline(self, record):
        base = self.base_ns / 1e6
        out = dict(record)
        for key in ("at_ms", "start_ms", "end_ms", "cut_ms"):
            if out.get(key) is not None:
                out[key] = out[key] + base
        return out

    def _keep_nvmctrl(self, nvmctrl):
        self.nvm_ops += [self._on_timeline(op) for op in nvmctrl.ops]
        self.nvm_cuts += [self._on_timeline(c) for c in nvmctrl.cuts]
        nvmctrl.ops, nvmctrl.cuts = [], []

    def nvm_report(self):
        """NVMCTRL's operations and cuts over every boot so far (this one's included), on the timeline."""
        nvmctrl = self.mcu.peripheral("NVMCTRL")
        ops = self.nvm_ops + [self._on_timeline(op) for op in nvmctrl.ops]
        cuts = self.nvm_cuts + [self._on_timeline(c) for c in nvmctrl.cuts]
        counts = {}
        for op in ops:
            counts[op["op"]] = counts.get(op["op"], 0) + 1
        return {"addr": NVM_ADDR, "len": NVM_LEN, "counts": counts, "ops": ops, "cuts": cuts,
                "time_scale": self.time_scale}

    def _keep_sound_and_lights(self):
        self.dac_kept += self._dac_now()
        self.ramwr_kept += self.panel.updates
        self.frames_kept += self._frames_now()

    def _dac_now(self):
        base = self.base_ns / 1e6
        return [[round(base + ns / 1e6, 6), code] for ns, code in self.board.speaker_samples()]

    def _frames_now(self):
        pixels = self.board.neopixels
        pixels.flush()  # a frame whose latch time has not passed still counts
        return [self._on_timeline(f) for f in pixels.frames]

    def sound_and_lights(self):
        """(the DAC's report, the NeoPixel frames) over every boot so far."""
        dac = self.mcu.peripheral("DAC")
        return ({"samples": self.dac_kept + self._dac_now(), "conversions": dac.conversions[0],
                 "underruns": dac.underruns[0]}, self.frames_kept + self._frames_now())

    def ramwr(self):
        """Every RAMWR so far: [ns, x0, y0, x1, y1, pixels] on the timeline."""
        return self.ramwr_kept + self.panel.updates

    def nvm_bytes(self):
        return self.mcu.mem_read(NVM_ADDR, NVM_LEN)


class MachineError(RuntimeError):
    """The emulator stopped in a way no step asked for (a CPU error, a WFI with nothing to wake it)."""
