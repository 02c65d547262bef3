"""Copies of the working tree for tests that run ``make`` as a fresh clone meets it."""

import os
import subprocess
import sys

from runners import ROOT


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split("\0") if p and os.path.isfile(os.path.join(ROOT, p))]


def clone(dst, venv=True):
    """The tracked files of the working tree in ``dst``, with (``venv``) a stand-in .venv made current."""
    for rel in tracked_files():
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        with open(os.path.join(ROOT, rel), "rb") as f, open(os.path.join(dst, rel), "wb") as g:
            g.write(f.read())
    if venv:
        bin_ = os.path.join(dst, ".venv", "bin")
        os.makedirs(bin_)
        python = os.path.join(bin_, "python")
        with open(python, "w") as f:
            f.write('#!/bin/sh\nexec "%s" "$@"\n' % sys.executable)
        os.chmod(python, 0o755)
        stamp = subprocess.run("cat requirements.txt pyproject.toml | cksum | cut -d' ' -f1", shell=True,
                               cwd=dst, capture_output=True, text=True, check=True).stdout.strip()
        open(os.path.join(dst, ".venv", ".installed-" + stamp), "w").close()
    return dst


def make(cwd, *args, env=None):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "CIRCUITPY", "CP", "RP2040"))}
    base.update(env or {})
    return subprocess.run(["make", "--no-print-directory"] + list(args), cwd=cwd, env=base,
                          capture_output=True, text=True, timeout=600)
