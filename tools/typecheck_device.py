#!/usr/bin/env python3
"""``python3 tools/typecheck_device.py ...``: mypy of the device code (sultan_host.board.typecheck)
for this checkout."""

import os

from host_shim import run

os.environ["SULTAN_CHECKOUT"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
run("sultan_host.board.typecheck", "typecheck_device")
