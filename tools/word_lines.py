#!/usr/bin/env python3
"""``python3 tools/word_lines.py [--check]``: writes lib/sultan/ui/lines.py from the words files'
keys (``sultan_host.word_lines``)."""

from host_shim import run

run("sultan_host.word_lines", "word_lines")
