#!/usr/bin/env python3
"""``python3 tools/deploy_circuitpy.py ...``: onto the board's drive (sultan_host.board.deploy)
for this checkout."""

import os

from host_shim import run

os.environ["SULTAN_CHECKOUT"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
run("sultan_host.board.deploy", "deploy_circuitpy")
