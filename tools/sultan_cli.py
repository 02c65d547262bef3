#!/usr/bin/env python3
"""``python3 tools/sultan_cli.py ...``: play, scan, stats and resume (sultan_host.cli.main)."""

from host_shim import run  # first: it sets the early Ctrl-C handler

run("sultan_host.cli.main", "sultan_cli")
