"""Command-line arguments for the host tools: anything wrong is one line and exit status 2.

Shared by the CLI (``sultan_host.cli``), the simulator, the screenshot tool and the ``python -m`` tools
(``ToolParser``), so that they read numbers, deal ranges and output paths alike:

- numbers are ASCII digits only: no sign, no ``1_000``, no ``٣`` or ``３`` (Python's
  ``int()`` takes all of those);
- an option given twice (``--deal 7 --deal 8``) is an error, not "the last one wins";
- nothing the user typed is echoed back longer than ``CLIP`` characters.
"""

import argparse
import os
import sys

from sultan.rules.engine import MAX_DEAL

CLIP = 40  # the most of one argument an error message shows


class UsageError(Exception):
    """A bad command-line argument: reported in one line, exit status 2."""


def clip(text, limit=CLIP):
    """``text`` as an error message may show it: one line, at most ``limit`` characters (and its length)."""
    s = str(text).replace("\r", " ").replace("\n", " ")
    if len(s) <= limit:
        return s
    return "%s... (%d characters)" % (s[:limit - 10], len(s))


def one_line(message):
    """An error message on one line, every long word in it clipped (argparse repeats arguments)."""
    return " ".join(clip(w) for w in str(message).split())


class Parser(argparse.ArgumentParser):
    """argparse whose errors raise UsageError (the caller prints one line and exits 2)."""

    def error(self, message):
        raise UsageError(message)


class ToolParser(argparse.ArgumentParser):
    """argparse for a ``python -m`` tool: an error is ``name: message`` on stderr, one line, exit status 2."""

    def __init__(self, name, **kwargs):
        super().__init__(**kwargs)
        self.name = name

    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.name, one_line(message)))
        sys.exit(2)


def count(text):
    """An argparse type: a count, at most 7 ASCII digits."""
    if not (text.isascii() and text.isdigit()) or len(text) > 7:
        raise argparse.ArgumentTypeError("not a count: %r" % clip(text))
    return int(text)


def real_in(lo, hi, lo_open=False):
    """An argparse type: a number (a float) in lo..hi, ``hi`` left out, and ``lo`` too when ``lo_open``."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("not a number: %r" % clip(text)) from None
        if not (lo < value if lo_open else lo <= value) or not value < hi:
            raise argparse.ArgumentTypeError("out of range: %r" % clip(text))
        return value
    return parse


class Once(argparse.Action):
    """Store an option's value, refusing the option twice (``--deal 7 --deal 8``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", set())
        if self.dest in given:
            raise UsageError("%s given twice" % option_string)
        given.add(self.dest)
        setattr(namespace, self.dest, values)


def whole(text, what, lo, hi):
    """The whole number ``text`` (ASCII digits only) in lo..hi, else UsageError."""
    if not (text.isascii() and text.isdigit()):
        raise UsageError("%s must be a whole number, not %r" % (what, clip(text)))
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(hi)) or not lo <= int(digits) <= hi:
        raise UsageError("%s must be %d..%d, not %s" % (what, lo, hi, clip(text)))
    return int(digits)


def deal_number(text, what="deal"):
    """A deal number 1..MAX_DEAL."""
    return whole(text, what, 1, MAX_DEAL)


def deal_range(text):
    """``A-B`` -> (A, B) with 1 <= A <= B <= MAX_DEAL."""
    a, sep, b = text.partition("-")
    if not (sep and a and b):  # "-5", "5-", "7": no negative deals, no open ends
        raise UsageError("deal range must look like A-B, two deal numbers 1..%d (e.g. 1-100), not %r"
                         % (MAX_DEAL, clip(text)))
    lo, hi = deal_number(a), deal_number(b)
    if lo > hi:
        raise UsageError("deal range %s is empty (A must not exceed B)" % clip(text))
    return lo, hi


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def read_only(path, real):
    """UsageError if the file at ``real`` (``path`` followed) is read-only by its mode: the saves' rule,
    which holds for root too (root may write anything, so ``os.access`` alone would let it)."""
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return  # missing: a new file
    if not mode & 0o222:
        raise UsageError("%s is read-only: left alone" % clip(path))


def png_out(path, what="--out"):
    """Check that a PNG may be written at ``path`` before any work is done; UsageError if not.

    Written only where nothing is lost: a missing file (in a directory that exists), an empty
    one, or a PNG.  A symlink is followed to its target, which the same holds for: never a
    symlink onto a text file, a directory, a FIFO or a device.
    """
    if not path:
        raise UsageError("%s needs a file name" % what)
    if not path.lower().endswith(".png"):
        raise UsageError("%s must name a .png file, not %r" % (what, clip(path)))
    if os.path.isdir(path):
        raise UsageError("%s is a directory: %s" % (what, clip(path)))
    real = os.path.realpath(path)  # through any symlink: what would really be written
    d = os.path.dirname(real)
    if not os.path.isdir(d):
        raise UsageError("no such directory: %s" % clip(d))
    if os.path.lexists(real) and not os.path.isfile(real):
        raise UsageError("%s is not a regular file: %s" % (what, clip(path)))
    if not os.access(d, os.W_OK) or (os.path.exists(real) and not os.access(real, os.W_OK)):
        raise UsageError("cannot write %s" % clip(path))
    read_only(path, real)
    if os.path.isfile(real):
        try:
            with open(real, "rb") as f:
                head = f.read(len(PNG_MAGIC))
        except OSError as e:
            raise UsageError("cannot read %s: %s" % (clip(path), e.strerror)) from None
        if head and head != PNG_MAGIC:
            raise UsageError("%s is not a PNG picture: left alone" % clip(path))
    return path


GIF_MAGIC = b"GIF8"


def gif_out(path, what="--out"):
    """A GIF may be written at ``path``: a new file, an empty one or a GIF, in a directory that exists."""
    if os.path.isdir(path):
        raise UsageError("%s is a directory: %s" % (what, clip(path)))
    if not path.lower().endswith(".gif"):
        raise UsageError("%s must name a .gif file, not %r" % (what, clip(path)))
    real = os.path.realpath(path)
    if not os.path.isdir(os.path.dirname(real)):
        raise UsageError("no such directory: %s" % clip(os.path.dirname(real)))
    if os.path.lexists(real) and not os.path.isfile(real):
        raise UsageError("%s is not a regular file: %s" % (what, clip(path)))
    read_only(path, real)
    if os.path.isfile(real) and os.path.getsize(real):
        try:
            with open(real, "rb") as f:
                head = f.read(len(GIF_MAGIC))
        except OSError as e:
            raise UsageError("cannot read %s: %s" % (clip(path), e.strerror)) from None
        if head != GIF_MAGIC:
            raise UsageError("not overwriting %s: it is not a GIF" % clip(path))
    return path
