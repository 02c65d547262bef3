"""The battery on real CircuitPython: the Pico's backlight, a PWM pin (diagram.json's
ILI9341 LED on GP13), dims to a fifth 30 s after the last key, goes off 2 minutes after it, and the next
key lights it again without being played.  tools/emulate reports the pin's duty as the firmware drives
it (the PWM slice's compare / TOP); the 2.5 minutes are simulated, most of them with the core asleep."""

import json
import os

import pytest
from PIL import Image
from test_firmware_emulator import NEWEST, emulate, image
from test_firmware_emulator import pytestmark as _needs_firmware

pytestmark = [_needs_firmware, pytest.mark.slow]

SIZE = (160, 128)


def press(button, line=None):
    steps = ["  - set-control: {part-id: %s, control: pressed, value: 1}" % button, "  - delay: 60ms",
             "  - set-control: {part-id: %s, control: pressed, value: 0}" % button]
    if line:
        steps.append("  - wait-serial: '%s'" % line)
    return steps


def scenario():
    """START (played), 125 s with no key, A (wakes the screen only), RIGHT (played)."""
    steps = ["  - wait-serial: 'SULTAN READY'"]
    steps += press("btnStart", "SULTAN key=START")
    steps += ["  - delay: 500ms", "  - take-screenshot: {part-id: lcd1, save-to: before.png}",
              "  - delay: 124500ms"]
    steps += press("btnA") + ["  - delay: 1000ms", "  - take-screenshot: {part-id: lcd1, save-to: woke.png}"]
    steps += press("btnRight", "SULTAN key=RIGHT")
    return "name: battery\nversion: 1\nsteps:\n" + "\n".join(steps) + "\n"


def test_dim_off_and_wake_on_circuitpython(tmp_path, tmp_path_factory):
    plan = tmp_path / "battery.yaml"
    plan.write_text(scenario())
    report = tmp_path / "report.json"
    shots = tmp_path / "shots"
    proc = emulate(image(tmp_path_factory, NEWEST, size=SIZE, deal=7), "--scenario", str(plan),
                   "--window", "%dx%d" % SIZE, "--out", str(shots), "--report", str(report))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    data = json.loads(report.read_text())
    start = next(ln["ms"] for ln in data["lines"] if ln["text"].startswith("SULTAN key=START"))
    changes = [(c["at_ms"] - start, c["duty"]) for c in data["backlight"]["changes"]]
    assert data["backlight"]["gpio"] == 13
    lit = [c for c in changes if c[0] < 0]
    assert lit and lit[-1][1] == 1.0, "the backlight not full at READY: %r" % changes
    after = [c for c in changes if c[0] >= 0]
    assert len(after) == 3, "want dim, off, wake after START: %r" % changes
    (dim_ms, dim), (off_ms, off), (wake_ms, wake) = after
    print("backlight after START: %s" % ", ".join("%.0f ms %.0f %%" % (t, 100 * d) for t, d in after))
    assert 29_000 < dim_ms < 31_500 and 0.15 < dim < 0.25, changes
    assert 119_000 < off_ms < 121_500 and off == 0, changes
    assert 125_000 < wake_ms < 125_500 and wake == 1.0, changes
    texts = [ln["text"] for ln in data["lines"]]
    assert not any(t.startswith("SULTAN key=A") for t in texts), "the waking key was played"
    before = Image.open(os.path.join(shots, "before.png")).convert("RGB")
    woke = Image.open(os.path.join(shots, "woke.png")).convert("RGB")
    assert before.tobytes() == woke.tobytes(), "A changed the screen: it was played"
