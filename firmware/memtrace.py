# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The heap trace of the emulator's test image (SULTAN_MEMTRACE in settings.toml): code.py
imports this only then, so a board's heap never holds it.

``SULTAN mem <stage> free=<bytes> [cost=<bytes>]`` lines, after a collection: one per stage
of start-up (code.py calls ``stage``) and one per import that costs any (``trace_imports``).
"""

import gc


def stage(name, before=None):
    """``SULTAN mem <name> free=<bytes> [cost=<bytes>]`` after a collection; returns the free bytes."""
    gc.collect()
    free = gc.mem_free()  # type: ignore[attr-defined]
    print("SULTAN mem %s free=%d%s" % (name, free, "" if before is None else " cost=%d" % (before - free)))
    return free


def trace_imports():
    """With SULTAN_MEMTRACE: the heap after each import that costs any, nested by depth."""
    import builtins

    real = builtins.__import__
    depth = [0]

    def traced(name, *args):
        gc.collect()
        before = gc.mem_free()  # type: ignore[attr-defined]
        depth[0] += 1
        try:
            return real(name, *args)
        finally:
            depth[0] -= 1
            gc.collect()
            if before - gc.mem_free() > 64:  # type: ignore[attr-defined]
                stage("%simport=%s" % ("  " * depth[0], name), before)

    try:
        builtins.__import__ = traced
    except Exception as e:  # a port that cannot override builtins
        print("SULTAN mem no import trace:", e)
