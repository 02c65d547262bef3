#!/usr/bin/env python3
"""``python tools/emulate/compare_png.py ...`` (``make emulate COMPARE=1``): the emulator's screenshots
against the host's, in RGB565 (sultan_host.board.compare_png)."""

import sys

from sultan_host.board.compare_png import main

if __name__ == "__main__":
    sys.exit(main())
