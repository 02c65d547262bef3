"""mypy of the device code against CircuitPython's stubs, once per board.

    python tools/typecheck_device.py [-v]

(``python -m sultan_host.board.typecheck`` the same.)

Each board profile is checked against that board's pin stub (circuitpython-stubs ships one per
board under board_definitions/): a pin the board does not have, or a misspelt CircuitPython API
(``keypad.ShiftRegisterKey``, ``display.root_grup``) fails.  code.py and lib/ are checked with the
Pico's board (they use only ``board.board_id``).  Exit status is mypy's.
"""

import os
import subprocess
import sys
import sysconfig

from sultan_host.board.sources import ROOT

WORK = os.path.join(ROOT, "build", "typecheck")
CONFIG = os.path.join(ROOT, "tools", "mypy_device.ini")

# board_id -> files checked against that board's pins
GROUPS = (
    ("raspberry_pi_pico",
     ["firmware/code.py", "firmware/launch.py", "firmware/profile_pico_ili9341.py", "lib/sultan"]),
    ("pybadge", ["firmware/profile_pybadge.py"]),
    ("edgebadge", ["firmware/profile_pybadge.py"]),
    ("pygamer", ["firmware/profile_pygamer.py"]),
)


def board_stub_dir(board_id):
    """A directory holding board/__init__.pyi for ``board_id`` (to put first on MYPYPATH)."""
    site = sysconfig.get_paths()["purelib"]
    src = os.path.join(site, "board_definitions", board_id, "__init__.pyi")
    if not os.path.isfile(src):
        raise SystemExit(
            "no pin stub for %s in circuitpython-stubs (pip install -r requirements.txt)" % board_id
        )
    out = os.path.join(WORK, board_id)
    os.makedirs(os.path.join(out, "board"), exist_ok=True)
    with open(src, encoding="utf-8") as f:
        stub = f.read()
    # circuitpython-stubs 10.x still types DISPLAY as displayio.Display, which its own displayio stub
    # no longer has (CircuitPython 9 moved it to busdisplay.BusDisplay)
    if "displayio.Display" in stub:
        stub = stub.replace("displayio.Display", "busdisplay.BusDisplay").replace(
            "import displayio", "import busdisplay\nimport displayio", 1
        )
    with open(os.path.join(out, "board", "__init__.pyi"), "w", encoding="utf-8") as f:
        f.write(stub)
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    status = 0
    for board_id, files in GROUPS:
        env = dict(
            os.environ,
            MYPYPATH=os.pathsep.join(
                [board_stub_dir(board_id), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "lib")]
            ),
        )
        cmd = (
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                CONFIG,
                "--cache-dir",
                os.path.join(WORK, "cache-" + board_id),
            ]
            + argv
            + files
        )
        print("mypy [%s] %s" % (board_id, " ".join(files)), flush=True)
        proc = subprocess.run(cmd, cwd=ROOT, env=env)
        status = status or proc.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
