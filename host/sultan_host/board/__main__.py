"""``python -m sultan_host.board``: the board build (``sultan_host.board.cli``)."""

import sys

from sultan_host.board.cli import main

sys.exit(main())
