"""The run's report JSON: emulate.js's fields where they apply, and the badge's own (the DAC's samples,
the backlight's duty, the NVM's operations with their times).  ms are on the run's one timeline."""

import time


def _boot_of(boots, at_ms):
    return sum(1 for b in boots if b["at_ms"] <= at_ms) - 1


def first_after(ramwr, ms):
    """The first RAMWR at or after ``ms``: a key's first frame."""
    ns = ms * 1e6
    return next((u[0] / 1e6 for u in ramwr if u[0] >= ns), None)


def build(machine, console, runner, opts, started, error=None):
    m = machine
    boots = m.boots
    ready = [ln for ln in console.lines if ln["text"].startswith("SULTAN READY")]
    panel = m.panel
    dac, frames = m.sound_and_lights()
    chip = m.chip.report()
    ramwr = m.ramwr()
    return {
        "board": m.board_class.NAME,
        "firmware": opts.uf2,
        "flash_in": getattr(opts, "flash_in", None),
        "error": error,
        "sim_ms": m.now_ms(),
        "wall_s": time.time() - started,
        "pixels": panel.pixels_written,
        "first_line_ms": console.lines[0]["ms"] if console.lines else None,
        "ready": [dict(ms=ln["ms"], text=ln["text"], boot=_boot_of(boots, ln["ms"]),
                       boot_ms=ln["ms"] - boots[_boot_of(boots, ln["ms"])]["at_ms"]) for ln in ready],
        "keys": [dict({k: v for k, v in r.items() if not k.startswith("_")},
                      first_ramwr_ms=first_after(ramwr, r["press_ms"])) for r in runner.keys],
        "ramwr": [[ns / 1e6] + rest for ns, *rest in ramwr],  # [ms, x0, y0, x1, y1, pixels] each
        "neopixel_chain": {"pin": m.board_class.PINS["NEOPIXEL"], "count": m.board_class.NEOPIXELS},
        "neopixels": frames,
        "display": panel.report(),
        "backlight": {"pin": m.board_class.PINS["TFT_LITE"], "duty": m.backlight(),
                      "changes": m.backlight_changes},
        "dac": dac,  # samples: [ms, 12-bit code] at each change of the output; conversions: this boot's
        # the QSPI chip (CIRCUITPY) as emulate.js's `flash`, with the cuts and boots; the NVM beside it
        "flash": dict(chip, boots=boots,
                      cuts=[dict(c["flash"], kind=c["kind"], at_ms=c["at_ms"]) for c in m.cuts]),
        "nvm": m.nvm_report(),
        "power_cycles": m.cuts,
        "firmware_resets": m.resets,
        "lines": console.lines,
    }
