#!/usr/bin/env python3
"""``python3 tools/build_circuitpy.py ...``: the board build (sultan_host.board.cli)
for this checkout."""

import os

from host_shim import run

os.environ["SULTAN_CHECKOUT"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
run("sultan_host.board.cli", "build_circuitpy")
