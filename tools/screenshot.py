#!/usr/bin/env python3
"""``python3 tools/screenshot.py ...``: a PNG of the screen after some keys; with ``--gif``, an
animated GIF of every frame (``sultan_host.desktop.gif``)."""

import sys

from host_shim import run

if "--gif" in sys.argv[1:]:  # as the installed sultan-screenshot (sultan_host.desktop.entry)
    run("sultan_host.desktop.gif", "screenshot")
else:
    run("sultan_host.desktop.screenshot", "screenshot")
