"""Saves in a file, for the desktop simulator and the CLI (written atomically, never over a stranger).

The file holds the same two slots as the device's NVM (``sultan.saves.store``), and
every write replaces the whole file: the bytes go to a temporary file of a unique
name beside it, which is flushed, synced, given the file's mode and renamed over
it (``os.replace``), so a reader sees the old file or the new one, never a mix.
A symlink is written through, to its target.

    from sultan_host.filesave import open_store
    store = open_store()               # in the user's data directory
    store = open_store("game.sav")     # or at a given path

A file given on a command line (``--save FILE``, ``$SULTAN_SAVE``, the simulator's default file) is
first checked with ``check_save_file``: only a missing or empty file, or a readable save of ours,
is ever written.  ``newer_lost(store)`` tells, after a load, whether a newer record than the one
loaded was in the file and could not be used (the CLI and the simulator say so on stderr).
"""

import os
import stat
import tempfile

from sultan.saves.memory import MemoryRegion
from sultan.saves.reader import decode
from sultan.saves.record import MIN_RECORD, SEQ_MAX, SLOT_MAX, VERSION, crc_ok
from sultan.saves.store import Store

MAGIC = b"SU"  # sultan.saves.record: every record starts so


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


def _umask():
    u = os.umask(0)
    os.umask(u)
    return u


class FileRegion(MemoryRegion):
    """Two slots in a file, kept in RAM and rewritten whole, atomically, on each write.

    A missing or empty file reads as erased (all 0xFF): no save; so does the rest of a file
    cut short (``length``: the bytes it held; every write is ``size`` bytes).  A path that is
    there but is no regular file (a directory, a FIFO, a device) is never opened: reading
    and writing it raise OSError, which the store reports as damage and as a write
    error.  ``make_dirs``: create the file's missing directories on the first write.
    """

    def __init__(self, path, size=2 * SLOT_MAX, make_dirs=True):
        MemoryRegion.__init__(self, size)
        self.path = path
        self.make_dirs = make_dirs
        self.problem = None  # why the path cannot hold a save, if it cannot
        self.length = 0  # the bytes the file held (below ``size``: cut short)
        try:
            st = os.stat(path)
        except OSError:
            return  # missing: a fresh region
        if not stat.S_ISREG(st.st_mode):
            self.problem = "%s is not a regular file" % path
            self.fresh = False
            return
        try:
            with open(path, "rb") as f:
                raw = f.read(size)
        except OSError as e:
            self.problem = "cannot read %s: %s" % (path, e.strerror)
            self.fresh = False
            return
        self.fresh = not raw  # an empty file is no save; anything else that holds none is damage
        self.length = len(raw)
        self.data[0:len(raw)] = raw

    def read(self, offset, n):
        if self.problem:
            raise OSError(self.problem)
        return MemoryRegion.read(self, offset, n)

    def write(self, offset, data):
        if self.problem:
            raise OSError(self.problem)
        MemoryRegion.write(self, offset, data)
        real = os.path.realpath(self.path)  # through a symlink, to its target
        d = os.path.dirname(real)
        if self.make_dirs:
            os.makedirs(d, exist_ok=True)
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        try:  # an error names the user's file, never the temporary one beside it
            fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(real) + ".", suffix=".tmp", dir=d)
        except OSError as e:
            raise OSError(e.errno, e.strerror) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self.data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, real)
        except BaseException as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise OSError(e.errno, e.strerror) from None
            raise


class NotOurs(ValueError):
    """The file is not a save of ours (a text file, a big file, zeros): never written."""


class Damaged(ValueError):
    """The file is a save of ours in which nothing reads: never written (its statistics would be lost)."""

    detail = ""  # " (cut short: N of M bytes)" when the file is shorter than a save


class Newer(ValueError):
    """The file holds a record of a newer save format than this Sultan reads: never written."""


class ReadOnly(ValueError):
    """The file (or its folder) is not to be written: its mode says so, whoever we are (root too)."""


def why(err):
    """An OSError's reason as a message says it: ``permission denied``, not ``Permission denied``."""
    text = err.strerror or str(err)
    return text[:1].lower() + text[1:]


def check_save_file(path, make_dirs=False, write=True):
    """``path`` if a save may be written there (``write``; else read), else ValueError with one line
    saying why.

    Written only when the file is missing (in a directory that exists, unless ``make_dirs``:
    none is made), empty or erased (all 0xFF), or a readable save of ours (by its magic and its
    records); never a name that ends in a slash (a folder's), never a directory, a FIFO or a
    device (not opened: nothing hangs), never a file we may not read, never a stranger's file
    (``NotOurs``), never a damaged save (``Damaged``: its statistics would be lost), never a save
    of a newer format (``Newer``), never a file whose mode has no write bit (``ReadOnly``: root,
    who may write anything, leaves it too).
    """
    if not path:
        raise ValueError("the save file needs a name")
    if path.endswith(("/", os.sep)) or os.path.basename(path) in (".", ".."):
        raise ValueError("%s names a folder: give the save a file name" % path)
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        d = os.path.dirname(real)
        if not (make_dirs or os.path.isdir(d)):
            raise ValueError("no such directory: %s" % os.path.dirname(os.path.abspath(path))) from None
        if write and os.path.isdir(d) and not os.access(d, os.W_OK):
            raise ReadOnly("cannot write %s: permission denied in its folder" % path) from None
        return path
    except OSError as e:
        raise ValueError("cannot use %s: %s" % (path, why(e))) from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError("%s is a directory" % path)
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("%s is not a regular file" % path)
    if st.st_size == 0:
        return _writable(path, real, st, write)
    try:
        with open(real, "rb") as f:
            head = f.read(2 * SLOT_MAX + 1)
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (path, why(e))) from None
    kind, cut = survey(head)
    if kind == "erased":
        return _writable(path, real, st, write)  # erased, as a new board's NVM is: no save
    if kind == "foreign":
        raise NotOurs("%s is not a Sultan save: left alone" % path)
    if kind == "newer":  # a slot a newer Sultan wrote: writing the other could lose it
        raise Newer("%s was made by a newer Sultan (save format %d; this one reads %d): left alone"
                    % (path, cut, VERSION))
    if kind == "damaged":
        err = Damaged("%s holds a damaged save%s: left alone (remove it to start afresh)" % (path, cut))
        err.detail = cut
        raise err
    probe = Store(FileRegion(real))
    probe.load(repair=False)
    if probe.message and not probe.seq:
        raise Damaged("%s holds a damaged save: left alone (remove it to start afresh)" % path)
    return _writable(path, real, st, write)


def survey(head):
    """What a save file's bytes ``head`` (at most ``2 * SLOT_MAX + 1`` of them) hold, by their slots:
    (kind, detail).

    ``"erased"``: nothing, or every byte 0xFF (no save); ``"foreign"``: bigger than a save, or no slot
    begins with a header of ours (text, a picture, an archive, zeros); ``"newer"`` (detail: its format):
    a slot holds a whole record of a newer format, its length and CRC right; ``"record"``: a slot holds
    a record this Sultan reads (the CRC checked; its game is replayed by the store); ``"damaged"``
    (detail: what says so, "" or "(cut short: N of M bytes)"): a header of ours, but no record reads.
    A header of ours: the magic, and a version this Sultan knows or a length a record may have.
    """
    full = 2 * SLOT_MAX
    if len(head) > full:
        return "foreign", None
    if head.count(0xFF) == len(head):
        return "erased", None
    kinds = []
    for at in (0, SLOT_MAX):
        slot = head[at:at + SLOT_MAX]
        kinds.append(_slot_kind(slot))
    newer = [k for k in kinds if isinstance(k, int)]
    if newer:
        return "newer", max(newer)
    if "record" in kinds:
        return "record", None
    if "ours" in kinds:
        short = " (cut short: %d of %d bytes)" % (len(head), full) if len(head) < full else ""
        return "damaged", short
    return "foreign", None


def _slot_kind(slot):
    """One slot's bytes: "record", a newer format's number, "ours" (a header, no record), or None."""
    if slot[:2] != MAGIC:
        return None
    if decode(slot + bytes(SLOT_MAX - len(slot))) is not None:
        return "record"
    if len(slot) <= 2:
        return "ours"  # the magic alone: a save cut short
    n = int.from_bytes(slot[8:10], "little") if len(slot) >= 10 else 0
    fits = MIN_RECORD <= n <= len(slot)
    if slot[2] > VERSION and fits and crc_ok(slot, n - 4):
        return slot[2]
    if 1 <= slot[2] <= VERSION or MIN_RECORD <= n <= SLOT_MAX:
        return "ours"
    return None


def _writable(path, real, st, write):
    """``path``, unless it is to be written and its mode (not just ``os.access``: root may write
    anything) or its folder says no."""
    if write and (not st.st_mode & 0o222 or not os.access(real, os.W_OK)):
        raise ReadOnly("%s is read-only: left alone" % path)
    if write and not os.access(os.path.dirname(real), os.W_OK):
        raise ReadOnly("cannot write %s: permission denied in its folder" % path)
    return path


def _older(data, seq, newer=False):
    """True if slot bytes ``data`` start with a record header whose sequence number is older than ``seq``
    (``newer``: newer than it)."""
    if data[:2] != MAGIC or data[7] > 0x3F:
        return False
    s = int.from_bytes(data[4:8], "little")
    if newer:
        s, seq = seq, s
    return 0 < s and 0 < (seq - s) % SEQ_MAX < SEQ_MAX // 2


def newer_lost(store):
    """After ``store.load()`` of a file: why a newer record than the one loaded may have been there
    and was not used ("damaged", "cut short ..."), or None.

    A newest record that does not replay (the store's damage message); a slot that holds no
    record, is not erased and does not show an older record in its header (a bad CRC, a record
    cut short); a slot the file's end (``FileRegion.length``) cuts off before any byte of it
    survived, or with a record begun in it.  (A record starts at its slot's start: a slot whose
    surviving bytes are all 0xFF held none.)
    """
    if store.message:
        return "damaged"
    size = store.slot_size
    data = store.region.data
    length = getattr(store.region, "length", len(data)) or len(data)
    for s in range(2):
        part = bytes(data[s * size:min((s + 1) * size, length)])
        if not part:
            return "cut short: %d of %d bytes" % (length, len(data))
        if decode(part + bytes(size - len(part))) is not None or part.count(0xFF) == len(part):
            continue
        if not _older(part + bytes(8), store.seq):
            if len(part) < size:
                return "cut short: %d of %d bytes" % (length, len(data))
            return "damaged"
    return None


def resume_note(store, name):
    """After ``store.load()`` of file ``name`` gave a game: the one line that says the file's newest
    record may not be the one loaded (``newer_lost``), true of the file, or None."""
    lost = newer_lost(store)
    if lost is None:
        return None
    if store.message:  # the newest record's CRC holds, its game does not replay
        return "the newest save in %s is damaged (its moves do not replay); resuming the one before it" % name
    if lost.startswith("cut short"):
        return "%s was %s; resuming the record it kept" % (name, lost.replace(": ", " (", 1) + ")")
    size = store.slot_size
    data = bytes(store.region.data)
    if any(_older(data[at:at + size], store.seq, newer=True) for at in (0, size)):
        return "the newest save in %s is damaged; resuming the one before it" % name
    return "part of %s is damaged; resuming the record that still reads" % name


def open_store(path=None, max_pending=32, idle_ms=10000):
    """A Store in ``path`` (default: ``default_path()``)."""
    return Store(FileRegion(path or default_path()), max_pending, idle_ms)
