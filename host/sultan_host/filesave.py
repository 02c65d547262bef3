"""Saves in a file, for the desktop simulator and the CLI (written atomically).

The file holds the same two slots as the device's NVM (``sultan.save``), and
every write replaces the whole file: the bytes go to ``FILE.tmp``, which is
flushed, synced and renamed over ``FILE`` (``os.replace``; ``os.rename`` on
MicroPython), so a reader sees the old file or the new one, never a mix.

    from sultan_host.filesave import open_store
    store = open_store()               # in the user's data directory
    store = open_store("game.sav")     # or at a given path
"""

import os

from sultan.saves.record import SLOT_MAX
from sultan.saves.store import MemoryRegion, Store


def default_path():
    """``$SULTAN_SAVE``, else ``sultan/save.bin`` under the user's data directory."""
    env = os.getenv
    p = env("SULTAN_SAVE")
    if p:
        return p
    base = env("XDG_DATA_HOME")
    if not base:
        home = env("HOME") or env("USERPROFILE") or "."
        mac = home + "/Library/Application Support"
        if env("APPDATA"):  # Windows
            base = env("APPDATA")
        elif _exists(mac):  # macOS
            base = mac
        else:
            base = home + "/.local/share"
    return base + "/sultan/save.bin"


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _dirname(path):
    i = path.rfind("/")
    j = path.rfind("\\")
    i = i if i > j else j
    return path[:i] if i > 0 else ""


def _makedirs(d):
    if not d or _exists(d):
        return
    _makedirs(_dirname(d))
    try:
        os.mkdir(d)
    except OSError:
        pass


class FileRegion(MemoryRegion):
    """Two slots in a file, kept in RAM and rewritten whole, atomically, on each write.

    A missing file is an empty (fresh) region.
    """

    def __init__(self, path, size=2 * SLOT_MAX):
        MemoryRegion.__init__(self, size)
        self.path = path
        try:
            with open(path, "rb") as f:
                raw = f.read(size)
        except OSError:
            return
        self.fresh = False  # a file was there: if it holds no valid save, it is damaged
        self.data[0:len(raw)] = raw

    def write(self, offset, data):
        MemoryRegion.write(self, offset, data)
        _makedirs(_dirname(self.path))
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self.data)
            f.flush()
            if hasattr(os, "fsync"):
                os.fsync(f.fileno())
        if hasattr(os, "replace"):
            os.replace(tmp, self.path)
        else:  # MicroPython: rename replaces on POSIX
            os.rename(tmp, self.path)


def open_store(path=None, max_pending=32, idle_ms=10000):
    """A Store in ``path`` (default: ``default_path()``)."""
    return Store(FileRegion(path or default_path()), max_pending, idle_ms)
