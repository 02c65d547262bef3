"""What ``play`` and ``resume`` print: the game as JSON (``sultan_host.snapshot``) or one line."""

import json

from sultan_host.snapshot import snapshot


def describe(snap):
    """A short human-readable summary of a snapshot."""
    return "deal %s: %s, pass %d, placed %d/95, missed %d, moves %d" % (
        snap["deal"] or "(order)", snap["status"], snap["pass"], snap["placed"], snap["missed"],
        snap["moves"])


def emit(game, as_json, out):
    snap = snapshot(game)
    out.write((json.dumps(snap) if as_json else describe(snap)) + "\n")
