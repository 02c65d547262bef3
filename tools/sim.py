#!/usr/bin/env python3
"""``python3 tools/sim.py ...``: the desktop simulator (sultan_host.desktop.sim)."""

from host_shim import run

run("sultan_host.desktop.sim", "sim")
