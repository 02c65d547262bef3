#!/usr/bin/env python3
"""``python3 tools/sultan_cli.py ...``: play, scan, stats and resume (sultan_host.cli.main)."""

import _signal  # first, and builtin: a Ctrl-C while the rest imports ends quietly, 130 (as host_shim's)


def _stopped(*_signal_frame):
    raise SystemExit(130)  # not os._exit: os itself may still be importing


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _stopped)

from host_shim import run  # noqa: E402

run("sultan_host.cli.main", "sultan_cli")
