"""Where CircuitPython's tests are: a folder outside git holding the tag's tests/ subfolders.

Looked for, in order: ``CPTESTS_DIR``; the cache build/cptests/<TAG>/; else the cache is filled from
``CPTESTS_TAR`` or ../shared/cptests/circuitpython-<TAG>-tests.tar.gz (a tar, gzipped or not, of
``git archive <TAG> tests/basics tests/float tests/feature_check tests/testlib/skip_if.py``), or from a
bare git mirror of adafruit/circuitpython (``CIRCUITPYTHON_GIT``, else ../.mirror/adafruit+circuitpython/repo)
with ``git archive``.  Nothing is fetched from the network.
"""

import os
import re
import shutil
import subprocess
import tarfile

from sultan_host.board.sources import ROOT

TAG = "10.2.1"
SUITES = ("basics", "float")
# the feature checks run-tests.py runs first, and testlib's skip_if (imported by some tests)
SUBDIRS = SUITES + ("feature_check", "testlib")
CACHE = os.path.join(ROOT, "build", "cptests", TAG)
SHARED_TAR = os.path.join(os.path.dirname(ROOT), "shared", "cptests", "circuitpython-%s-tests.tar.gz" % TAG)
MIRROR = os.path.join(os.path.dirname(ROOT), ".mirror", "adafruit+circuitpython", "repo")


class NoTests(LookupError):
    """The tests are nowhere this machine can read (the message says where it looked)."""


def complete(folder):
    return all(os.path.isdir(os.path.join(folder, d)) for d in SUBDIRS)


def locate(cache=CACHE):
    """The folder holding basics/, float/, feature_check/ and testlib/; fills ``cache`` if it must."""
    given = os.environ.get("CPTESTS_DIR")
    if given:
        if not complete(given):
            raise NoTests("CPTESTS_DIR=%s: no %s in it" % (given, "/, ".join(SUBDIRS) + "/"))
        return given
    if complete(cache):
        return cache
    tar = os.environ.get("CPTESTS_TAR") or SHARED_TAR
    git = os.environ.get("CIRCUITPYTHON_GIT") or MIRROR
    if os.path.isfile(tar):
        _from_tar(tar, cache)
    elif os.path.isdir(git):
        _from_git(git, cache)
    else:
        raise NoTests("CircuitPython %s's tests are not here: no %s, no tar %s, no git mirror %s "
                      "(set CPTESTS_DIR, CPTESTS_TAR or CIRCUITPYTHON_GIT)" % (TAG, cache, tar, git))
    if not complete(cache):
        raise NoTests("%s: filled, but without all of %s" % (cache, ", ".join(SUBDIRS)))
    return cache


def _fresh(cache):
    part = cache + ".part"
    shutil.rmtree(part, ignore_errors=True)
    os.makedirs(part)
    return part


def _from_tar(tar, cache):
    part = _fresh(cache)
    with tarfile.open(tar) as t:
        members = [m for m in t.getmembers() if _wanted(m.name) and (m.isfile() or m.isdir())]
        for m in members:
            m.name = _inside(m.name)
        t.extractall(part, members=members, filter="data")
    os.replace(part, cache)


def _from_git(git, cache):
    part = _fresh(cache)
    paths = ["tests/" + d for d in SUBDIRS]
    r = subprocess.run(["git", "--git-dir", git, "archive", "--format=tar", TAG] + paths,
                       capture_output=True, check=False)
    if r.returncode != 0:
        why = r.stderr.decode(errors="replace").strip()[:200]
        raise NoTests("git archive %s in %s: %s" % (TAG, git, why))
    tar = part + ".tar"
    with open(tar, "wb") as f:
        f.write(r.stdout)
    try:
        _from_tar(tar, cache)
    finally:
        os.remove(tar)


def _inside(name):
    """A member's path below tests/ (a tar of tests/... or of the subfolders themselves)."""
    return name[len("tests/"):] if name.startswith("tests/") else name


def _wanted(name):
    head = _inside(name).split("/")[0]
    return head in SUBDIRS and ".." not in name.split("/")


def tests(root, only=None):
    """The suites' tests as 'basics/x.py' paths, sorted as run-tests.py sorts them; ``only``: a regex
    searched in each path (run-tests.py's -i)."""
    pattern = re.compile(only) if only else None
    out = []
    for suite in SUITES:
        for name in sorted(os.listdir(os.path.join(root, suite))):
            rel = suite + "/" + name
            if name.endswith(".py") and (pattern is None or pattern.search(rel)):
                out.append(rel)
    return sorted(out)
