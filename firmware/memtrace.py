# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The heap trace of the emulator's test image (SULTAN_MEMTRACE in settings.toml): code.py
imports this only then, so a board's heap never holds it.

``SULTAN mem <stage> free=<bytes> total=<bytes> [cost=<bytes>]`` lines, after a collection: one
per stage of start-up (code.py calls ``stage``) and one per import that costs any
(``trace_imports``).  total is free + allocated.  On CircuitPython 9 and 10 free counts the
system allocator's largest free block too (the heap grows into it), so total drops when the
heap grows by a piece (its tables, and the block's remains) and rises when one is given back.
"""

import gc


def stage(name, before=None):
    """``SULTAN mem <name> free=<bytes> total=<bytes> [cost=<bytes>]`` after a collection; returns the
    free bytes."""
    gc.collect()
    free = gc.mem_free()  # type: ignore[attr-defined]
    total = free + gc.mem_alloc()  # type: ignore[attr-defined]
    cost = "" if before is None else " cost=%d" % (before - free)
    print("SULTAN mem %s free=%d total=%d%s" % (name, free, total, cost))
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
