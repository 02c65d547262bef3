# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The game's own random number generator, identical on every Python.

A Lehmer (multiplicative congruential) generator ``x = A * x mod M`` with the
prime ``M = 2**30 - 35`` and the primitive root ``A = 32764``, computed with
Schrage's method so that no intermediate value reaches 2**30: on 32-bit boards
every number stays a small int and nothing is allocated.

The state is a plain int in 1..M-1; functions take it and return the new one.
"""

import sys

from sultan import const

M = const(1073741789)  # 2**30 - 35, prime
A = const(32764)  # primitive root of M; A*A < M so Schrage's method applies
_Q = const(32771)  # M // A
_R = const(32745)  # M % A
WARM_UP = const(4)  # steps discarded after seeding, so small seeds look random


def step(x):
    """The next state after ``x``."""
    x = A * (x % _Q) - _R * (x // _Q)
    if x < 0:
        x += M
    return x


def seed(n):
    """The state for seed ``n`` (1 <= n < M), after the warm-up steps."""
    if not 0 < n < M:
        raise ValueError("seed out of range")
    for _ in range(WARM_UP):
        n = step(n)
    return n


def _shuffle_small(dst, src, count, x):
    """Shuffle ``src[0:count]`` into ``dst[0:count]``; returns the new state.

    The "inside-out" Fisher-Yates shuffle, which copies and shuffles in one
    pass: dst[0] = src[0]; then for i = 1 .. count-1: advance the state,
    j = state % (i + 1), dst[i] = dst[j], dst[j] = src[i].  Every order is
    equally likely (up to a bias of ``% (i + 1)`` below 1e-7).
    """
    if count:
        dst[0] = src[0]
    for i in range(1, count):
        x = A * (x % _Q) - _R * (x // _Q)
        if x < 0:
            x += M
        j = x % (i + 1)
        dst[i] = dst[j]
        dst[j] = src[i]
    return x


def _shuffle_bigint(dst, src, count, x):
    """The same shuffle, computing ``A * x % M`` directly.

    Only for CPython, whose ints cost the same above 2**30; the values are
    exactly those of ``_shuffle_small`` (host_tests check it), in a third of
    the operations.
    """
    if count:
        dst[0] = src[0]
    for i in range(1, count):
        x = x * A % M
        j = x % (i + 1)
        dst[i] = dst[j]
        dst[j] = src[i]
    return x


# Boards keep the small-int path; CPython takes the shorter one.
shuffle = _shuffle_bigint if sys.implementation.name == "cpython" else _shuffle_small
