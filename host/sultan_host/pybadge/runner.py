"""The steps (``sultan_host.keywords``) against a ``Machine``, as tools/emulate/emulate.js walks them: presses
through the 74HC165 (or the PyGamer's stick), waits for the console's lines, screenshots from the ST7735R,
power cycles."""

import os
import time

from sultan_host.keywords import KEYPAD_SCAN_MS
from sultan_host.pybadge.machine import WRITE

KEY_TIMEOUT_MS = 20000    # simulated: a key whose line has not come by then was lost (as emulate.js)
READY_TIMEOUT_MS = 60000  # simulated: a boot that has not said READY by then never will
PROGRESS_MS = 1000.0      # simulated: how often a long wait logs where it is
SLICE_MS = 5.0            # a wait looks again after this much simulated time
WRITE_SLICE_MS = 1.0      # CUT@WRITE: the CPU stops at the write's start, so slices only bound the release


def ms(duration):
    """A step's delay ("100ms") in ms."""
    text = str(duration)
    if text.endswith("ms"):
        return float(text[:-2])
    if text.endswith("s"):
        return float(text[:-1]) * 1000.0
    return float(text)


class RunFailed(RuntimeError):
    """The run cannot go on (the message says why); the report and failure.png are still written."""


class Runner:
    def __init__(self, machine, console, out, shots=True, log=None, timeout_s=3000):
        self.m = machine
        self.con = console
        self.out = out
        self.shots_on = shots
        self.log = log or (lambda text: None)
        self.deadline = time.time() + timeout_s
        self.shots = []
        self.keys = console.keys
        self.pending_release = None   # the key pressed right before a cut: {name, at_ms}
        self.last_change = {}         # key -> ms of its last press or release
        self.latch_wanted = None
        self._hear_latch()

    # -- waiting ---------------------------------------------------------------------------------------------
    def wait_for(self, what, done, since_ms=None, allow_stop=False, limit_ms=None):
        since = self.m.now_ms() if since_ms is None else since_ms
        told = self.m.now_ms()
        while not done():
            if self.m.now_ms() - told >= PROGRESS_MS:  # a long wait says where it is
                told = self.m.now_ms()
                self.log("waiting for %s: USB %s, %d pixels sent" % (
                    what, self.m.host.state if self.m.host else "off", self.m.panel.pixels_written))
            if time.time() > self.deadline:
                raise RunFailed("timed out (wall clock) waiting for " + what)
            if not allow_stop and self.con.stopped():
                raise RunFailed("the program stopped before " + what)
            if limit_ms is not None and self.m.now_ms() - since > limit_ms:
                raise RunFailed("no %s within %d s simulated (USB %s, %d serial lines)" % (
                    what, limit_ms // 1000, self.m.host.state if self.m.host else "off", len(self.con.lines)))
            self.m.run_ms(SLICE_MS)

    def wait_ready(self, what):
        self.wait_for(what, lambda: self.con.take("SULTAN READY"), limit_ms=READY_TIMEOUT_MS)

    def run_until(self, at_ms):
        if at_ms > self.m.now_ms():
            self.m.run_ms(at_ms - self.m.now_ms())

    # -- the keys --------------------------------------------------------------------------------------------
    def _hear_latch(self):
        """The keypad scan that loads a press: BUTTON_LATCH (PB00) going low after it."""
        def pl(level):
            if not level and self.latch_wanted is not None:
                self.latch_wanted["latch_ms"] = self.m.now_ms()
                self.latch_wanted = None
        self.m.mcu.port.on_change(self.m.board_class.PINS["BUTTON_LATCH"], pl)

    def set_key(self, name, down, record=None):
        since = self.m.now_ms() - self.last_change.get(name, -1e9)
        if since < KEYPAD_SCAN_MS:
            self.log("warning: %s changed after %.1f ms; keypad scans every %d ms and may miss it"
                     % (name, since, KEYPAD_SCAN_MS))
        self.last_change[name] = self.m.now_ms()
        if down and record is not None:
            panel = self.m.panel
            rec = {"name": name, "burst": bool(record.get("burst")), "press_ms": self.m.now_ms(),
                   "latch_ms": None, "line_ms": None, "line": None, "pixels": None,
                   "_pixels": panel.pixels_written, "_panel": panel}
            self.keys.append(rec)
            if self.m.on_stick(name):
                # the stick is read through the ADC, not latched by the 74HC165: timed from the push
                rec["latch_ms"] = rec["press_ms"]
            else:
                self.latch_wanted = rec
        self.m.press(name, down)

    # -- screenshots -----------------------------------------------------------------------------------------
    def shoot(self, name):
        path = os.path.join(self.out, os.path.basename(name))
        self.m.panel.save_png(path)
        self.shots.append(path)
        self.log("screenshot %s" % path)
        return path

    # -- power -----------------------------------------------------------------------------------------------
    def power_cycle(self, kind):
        self.power_off(kind)
        self.wait_ready("SULTAN READY after " + kind)

    def power_off(self, kind):
        """The power goes and comes back: keys waiting for their lines are lost, the new Mcu heard."""
        cut = self.m.power_cycle(kind)
        where = cut["nvm"] if cut["nvm"].get("during") else cut["flash"]
        self.log("%s: power off%s; booting again" % (kind, " during %s at 0x%x (%d%% done)" % (
            where["during"], where["addr"], round(100 * where["progress"])) if where.get("during") else ""))
        self.latch_wanted = None
        for rec in self.keys:
            if rec["line"] is None:
                rec["lost"] = True  # its line will never come
                rec.pop("_panel", None)
                rec.pop("_pixels", None)
        self.con.end_line()
        self._hear_latch()
        return cut

    def cut_at_write(self, write_ms):
        """Run until the next erase or program starts (releasing the key before on time), then on."""
        since = self.m.now_ms()
        while True:
            if self.m.now_ms() - since > KEY_TIMEOUT_MS:
                raise RunFailed("CUT@WRITE: no flash write within %d s simulated" % (KEY_TIMEOUT_MS // 1000))
            if time.time() > self.deadline:
                raise RunFailed("timed out (wall clock) waiting for a flash write")
            pr = self.pending_release
            if pr is not None and self.m.now_ms() >= pr["at_ms"]:
                self.set_key(pr["name"], False)
                self.pending_release = pr = None
            span = WRITE_SLICE_MS
            if pr is not None:
                span = max(0.001, min(span, pr["at_ms"] - self.m.now_ms()))
            if self.m.run_ms(span, until_write=True) == WRITE:
                break
        started = self.m.last_write_ms
        if self.pending_release is not None:
            self.set_key(self.pending_release["name"], False)
        self.run_until(started + write_ms)

    def cut_after(self, after_ms, frm):
        last = self.keys[-1] if self.keys else None
        target = (last["press_ms"] if frm == "press" and last else self.m.now_ms()) + after_ms
        pr = self.pending_release
        if pr is not None and pr["at_ms"] < target:
            self.run_until(pr["at_ms"])
            self.set_key(pr["name"], False)
        if target < self.m.now_ms():
            self.log("warning: CUT@%g lands %.1f ms in the past; cutting now"
                     % (after_ms, self.m.now_ms() - target))
        self.run_until(target)

    # -- the steps -------------------------------------------------------------------------------------------
    def run(self, steps):
        for step in steps:
            kind, arg = next(iter(step.items()))
            getattr(self, "step_" + kind.replace("-", "_"))(arg, step)

    def step_wait_serial(self, text, _step):
        self.log("wait-serial %r" % text)
        if text == "SULTAN READY":
            self.wait_ready(text)
        else:
            self.wait_for(repr(text), lambda: self.con.take(text),
                          limit_ms=KEY_TIMEOUT_MS if text.startswith("SULTAN key") else None)

    def step_wait_key_lines(self, n, _step):
        pending = lambda: [r for r in self.keys if r["line"] is None and not r.get("lost")]  # noqa: E731
        self.wait_for("SULTAN key= lines of a burst of %d" % n, lambda: not pending(),
                      limit_ms=KEY_TIMEOUT_MS)
        self.con.consumed = len(self.con.text)

    def step_soft_reload(self, _arg, _step):
        self.log("soft reload: Ctrl-C")
        self.m.host.write(b"\x03")
        start = self.con.consumed
        self.wait_for("the REPL prompt after Ctrl-C",
                      lambda: "to reload" in self.con.text[start:] and self.con.text.endswith(("\n", "> ")),
                      allow_stop=True)
        self.con.consumed = len(self.con.text)
        self.log("soft reload: Ctrl-D")
        self.m.host.write(b"\x04")
        self.m.run_ms(100)
        self.wait_ready("SULTAN READY after the reload")

    def step_power_cycle(self, arg, _step):
        if arg["kind"] == "CUT" and "write_ms" in arg:
            self.cut_at_write(arg["write_ms"])
        elif arg["kind"] == "CUT":
            self.cut_after(arg["after_ms"], arg.get("from"))
        self.pending_release = None
        self.power_cycle(arg["kind"])

    def step_release_before_cut(self, arg, _step):
        self.pending_release = {"name": arg["part-id"], "at_ms": self.m.now_ms() + arg["ms"]}

    def step_delay(self, arg, _step):
        self.m.run_ms(ms(arg))

    def step_set_control(self, arg, step):
        self.set_key(arg["part-id"], bool(arg["value"]), step if step.get("key") else None)

    def step_take_screenshot(self, arg, _step):
        if self.shots_on:
            self.shoot(arg.get("save-to") or "screenshot-%d.png" % (len(self.shots) + 1))
