"""``python -m sultan_host.pybadge``: the game on a badge's own CircuitPython, in the SAMD51 emulator.

    python -m sultan_host.pybadge [--board pybadge|pygamer] [--cp 9|10 | --uf2 FW.uf2]
        [--deal N | --tree DIR | --flash-in IMG | --bare]
        [--keys "RIGHT A START*3! RESET CUT@WRITE+5 ..."] [--random-keys N] [--seed S] [--out DIR]
        [--report FILE.json] [--no-shots] [--quiet] [--after-ms N] [--flash-time-scale X]
        [--flash-out IMG] [--nvm-out FILE] [--key-ms 60] [--gap-ms 100] [--timeout-s 3000]

The words are sultan_host.keywords's; screenshots NN-NAME.png (160x128) in --out; the console
goes to stdout; --report as emulate.js's, with the DAC, the backlight and the NVM's operations.  A bad
argument: one line, exit 2.  A failed run: failure.png, the report with its error, exit 1.
"""

import json
import os
import sys
import time

from sultan_host.args import ToolParser, count, real_in
from sultan_host.board.sources import ROOT
from sultan_host.pybadge import image


def _bad(text):
    sys.stderr.write("pybadge: %s\n" % text)
    sys.exit(2)


NONNEG = real_in(0, 1e9)


def parse(argv):
    p = ToolParser("pybadge", prog="python -m sultan_host.pybadge", description=__doc__.splitlines()[0])
    p.add_argument("--board", choices=image.BOARDS, default="pybadge", help="the badge (default pybadge)")
    p.add_argument("--cp", type=int, choices=(9, 10), help="its CircuitPython major (default: the newest)")
    p.add_argument("--uf2", help="the UF2 (default: PYBADGE_UF2 / PYGAMER_UF2, else vendor-local/<board>/'s)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--tree", help="an existing CIRCUITPY folder (default: build one for the UF2's major)")
    src.add_argument("--flash-in", help="a QSPI flash image (as --flash-out writes)")
    src.add_argument("--bare", action="store_true", help="CIRCUITPY: a code.py printing the bare heap")
    p.add_argument("--deal", type=count, help="the deal to start on (settings.toml SULTAN_DEAL)")
    p.add_argument("--memtrace", action="store_true", help="settings.toml SULTAN_MEMTRACE")
    p.add_argument("--keys", default="", help="the words (sultan_host.keywords)")
    p.add_argument("--random-keys", type=count, default=0, help="N random keys after --keys (seeded)")
    p.add_argument("--seed", type=count, default=1, help="random keys and power cuts' part-done bits")
    p.add_argument("--out", default=os.path.join(ROOT, "build", "emulate"), help="screenshots' folder")
    p.add_argument("--report", help="write the run's report JSON here")
    p.add_argument("--no-shots", dest="shots", action="store_false", help="no screenshots")
    p.add_argument("--quiet", action="store_true", help="no console echo or progress lines")
    p.add_argument("--after-ms", type=NONNEG, default=0.0, help="run this long after the last step")
    p.add_argument("--ready-only", action="store_true", help="stop at the first SULTAN READY (or BARE) line")
    p.add_argument("--flash-time-scale", type=NONNEG, default=1.0, help="erase/program times x (0: instant)")
    p.add_argument("--flash-out", help="write the QSPI flash's bytes here at the end")
    p.add_argument("--nvm-out", help="write microcontroller.nvm's 8 KB here at the end")
    p.add_argument("--key-ms", type=NONNEG, default=60.0, help="how long a key is held")
    p.add_argument("--gap-ms", type=NONNEG, default=100.0, help="the pause after each key's line")
    p.add_argument("--timeout-s", type=NONNEG, default=3000.0, help="wall-clock limit (a safety net)")
    a = p.parse_args(argv)
    if a.uf2 is not None and a.cp is not None:
        p.error("--uf2 names the image; --cp picks one when it is not named: give one of them")
    a.uf2 = a.uf2 or image.firmware(a.board, a.cp)
    if a.uf2 is None:
        p.error(image.missing(a.board, a.cp) or "no firmware")
    for name in ("uf2", "tree", "flash_in"):
        path = getattr(a, name)
        if path is not None and not (os.path.isdir(path) if name == "tree" else os.path.isfile(path)):
            what = "folder" if name == "tree" else "file"
            p.error("--%s %s: no such %s" % (name.replace("_", "-"), path, what))
    if a.key_ms <= 20:
        p.error("--key-ms %g: keypad scans every 20 ms, press longer" % a.key_ms)
    if a.deal is not None and (a.tree or a.flash_in or a.bare):
        p.error("--deal goes into the tree this tool builds; not with --tree, --flash-in or --bare")
    return a


def flash_of(a, log):
    """The QSPI chip's bytes for the run (a flash image, or a CIRCUITPY volume; the rest is erased)."""
    if a.flash_in:
        data = open(a.flash_in, "rb").read()
        if len(data) not in (2 * 1024 * 1024, 8 * 1024 * 1024):
            _bad("--flash-in %s: %d bytes, want a 2 or 8 MB flash image (as --flash-out writes)"
                 % (a.flash_in, len(data)))
        return data
    tree = a.tree
    if tree is None:
        try:
            cp = image.version_of(a.uf2)[0]  # the tree is built for the image's major
        except (OSError, ValueError) as err:
            _bad("--uf2 %s: %s" % (a.uf2, err))
        # the bare code.py in a folder of its own: the game's tree (lib/ and all) is left as it is
        tree = os.path.join(ROOT, "build", a.board, "BARE" if a.bare else "CIRCUITPY-%d" % cp)
        if a.bare:
            from sultan_host.board.wokwi import BARE_CODE

            os.makedirs(tree, exist_ok=True)
            with open(os.path.join(tree, "code.py"), "w") as f:
                f.write(BARE_CODE)
        else:
            from sultan_host.board.sources import BuildError

            try:
                image.build_tree(tree, cp, deal=a.deal, memtrace=a.memtrace)
            except BuildError as err:
                _bad("build: %s" % err)
        log("CIRCUITPY built in %s" % os.path.relpath(tree, ROOT))
    return image.flash_image(tree, a.board)


def main(argv=None):
    a = parse(sys.argv[1:] if argv is None else argv)
    from sultan_host.keywords import WordError, words_and_steps
    from sultan_host.pybadge import report
    from sultan_host.pybadge.console import Console
    from sultan_host.pybadge.machine import Machine, MachineError
    from sultan_host.pybadge.runner import RunFailed, Runner

    started = time.time()
    holder = {}

    def log(text):
        if not a.quiet:
            m = holder.get("m")
            sim = m.now_ms() / 1000 if m is not None else 0.0
            sys.stderr.write("[%s %.3fs sim, %.1fs wall] %s\n" % (a.board, sim, time.time() - started, text))

    try:
        # no keys: READY and its screenshot (00-ready.png), as the grammar gives for ""
        words, steps = words_and_steps(a.keys, a.board, a.key_ms, a.gap_ms, a.shots, a.random_keys, a.seed)
    except WordError as err:
        _bad("--keys: %s" % err)
    flash = flash_of(a, log)
    os.makedirs(a.out, exist_ok=True)
    con = Console(lambda: holder["m"].now_ms(),
                  echo=None if a.quiet else (lambda t: (sys.stdout.write(t), sys.stdout.flush())))
    m = holder["m"] = Machine(a.uf2, flash, con.hear, board=a.board, seed=a.seed,
                              flash_time_scale=a.flash_time_scale, log=log)
    con.boots = m.boots
    runner = Runner(m, con, a.out, shots=a.shots, log=log, timeout_s=a.timeout_s)
    error = None
    try:
        if a.ready_only:
            runner.wait_for("SULTAN READY", lambda: con.take("SULTAN READY") or con.take("SULTAN BARE"),
                            limit_ms=60000)
        else:
            runner.run([{"wait-serial": "SULTAN READY"}] + steps)
        if a.after_ms:
            m.run_ms(a.after_ms)
        errors = con.errors()
        if errors:
            error = "the serial console shows " + "; ".join(errors)
    except (RunFailed, MachineError) as err:
        error = str(err)
    if error:
        log("FAILED: " + error)
        m.panel.save_png(os.path.join(a.out, "failure.png"))
    if a.report:
        with open(a.report, "w") as f:
            json.dump(report.build(m, con, runner, a, started, error), f, indent=1)
    if a.flash_out:
        with open(a.flash_out, "wb") as f:
            f.write(m.chip.image())
    if a.nvm_out:
        with open(a.nvm_out, "wb") as f:
            f.write(m.nvm_bytes())
    log("done: %s%d keys, %d screenshots, %d power cycles, %d pixels; NVM %s" % (
        "words %r, " % words[:60] if words else "", len(runner.keys), len(runner.shots), len(m.cuts),
        m.panel.pixels_written, m.nvm_report()["counts"]))
    return 1 if error else 0
