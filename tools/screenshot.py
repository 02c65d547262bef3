#!/usr/bin/env python3
"""``python3 tools/screenshot.py ...``: a PNG of the screen after some keys; with ``--gif``, an
animated GIF of every frame (``sultan_host.desktop.gif``)."""

from host_shim import run

run("sultan_host.desktop.screenshot", "screenshot")  # it hands --gif to sultan_host.desktop.gif
