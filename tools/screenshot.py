#!/usr/bin/env python3
"""``python3 tools/screenshot.py ...``: a PNG of the screen after some keys."""

from host_shim import run

run("sultan_host.desktop.screenshot", "screenshot")
