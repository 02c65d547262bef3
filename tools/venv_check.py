#!/usr/bin/env python3
"""Is this Python's environment whole?  ``make`` asks before every target (.venv repairs itself).

    .venv/bin/python tools/venv_check.py requirements.txt [MODULE ...]

Whole means: every distribution the requirements file pins is installed at its pin; everything
they require (their own requirements, transitively, as the markers select) is installed at a
version they accept; every file the distributions' RECORDs list is still there (bytecode aside);
and each MODULE imports.

Exit 0 when whole.  Otherwise one line per fault on stderr, exit 1, and on stdout ``name==version``
of each installed distribution with files gone: pip takes a distribution whose record is intact
for installed however many of its files were deleted, so those need ``--force-reinstall``.
"""

import importlib
import os
import sys
from importlib import metadata


def pinned(path):
    """The requirement lines of a requirements file (comments and blank lines dropped)."""
    with open(path, encoding="utf-8") as f:
        return [line.split("#", 1)[0].strip() for line in f if line.split("#", 1)[0].strip()]


def missing_files(dist):
    """The files ``dist``'s RECORD lists that are gone (compiled bytecode is left out: Python remakes it)."""
    files = dist.files or ()
    return [str(f) for f in files if f.suffix != ".pyc" and not os.path.exists(dist.locate_file(f))]


def faults(requirements, modules=()):
    """([fault lines], [name==version to force-reinstall]) for the requirement strings and modules."""
    try:
        from packaging.requirements import InvalidRequirement, Requirement
        from packaging.utils import canonicalize_name
    except ImportError as e:  # packaging (pytest's) is itself broken: repair it first
        return ["packaging: %s" % e], reinstall_spec("packaging")
    found, redo, todo, seen = [], [], [], set()
    for text in requirements:
        try:
            todo.append((Requirement(text), None))
        except InvalidRequirement as e:
            found.append("%s: %s" % (text, e))
    while todo:
        req, parent = todo.pop(0)
        key = (canonicalize_name(req.name), tuple(sorted(req.extras)))
        if key in seen:
            continue
        seen.add(key)
        why = "" if parent is None else " (%s requires it)" % parent
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            found.append("%s: not installed%s" % (req, why))
            continue
        version = dist.version
        if not req.specifier.contains(version, prereleases=True):
            found.append("%s: %s is installed, want %s%s" % (req.name, version, req.specifier, why))
        gone = missing_files(dist)
        if gone:
            found.append("%s %s: %d of its files are gone (%s)" % (req.name, version, len(gone), gone[0]))
            redo.append("%s==%s" % (dist.metadata["Name"], version))
        for text in dist.requires or ():
            sub = Requirement(text)
            extras = sorted(req.extras) or [""]
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in extras):
                todo.append((sub, "%s %s" % (req.name, version)))
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as e:  # anything: a half-deleted package fails in many ways
            found.append("import %s: %s: %s" % (name, type(e).__name__, e))
    return found, redo


def reinstall_spec(name):
    try:
        return ["%s==%s" % (name, metadata.version(name))]
    except metadata.PackageNotFoundError:
        return []


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        sys.stderr.write("usage: venv_check.py REQUIREMENTS [MODULE ...]\n")
        return 2
    try:
        requirements = pinned(argv[0])
    except OSError as e:
        sys.stderr.write("venv_check: %s: %s\n" % (argv[0], e.strerror))
        return 2
    found, redo = faults(requirements, argv[1:])
    for line in found:
        sys.stderr.write("venv_check: %s\n" % line)
    for spec in redo:
        print(spec)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
