#!/usr/bin/env python3
"""``python3 tools/wokwi_image.py ...``: the Wokwi UF2 and the wokwi.com folder (sultan_host.board.wokwi)
for this checkout."""

import os

from host_shim import run

os.environ["SULTAN_CHECKOUT"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
run("sultan_host.board.wokwi", "wokwi_image")
