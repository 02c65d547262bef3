"""The save reader's answers, fuzzed: whatever a file holds, ``sultan resume`` and ``sultan stats --save``
answer with one of the documented lines, true of that file, and write nothing.

The inputs (seeded): empty, 1 and 2 bytes; real saves cut at every record boundary and one byte either
side; every bit of every header field, statistics row, game head and CRC flipped, and seeded bits of the
move logs; foreign files (text, PNG, zip, zeros, 0xFF, noise); a real save of a newer format.  The
expected answer is worked out here from the record format (``sultan.saves.reader.decode`` a slot), not
from the code under test.
"""

import contextlib
import io
import json
import os
import pathlib
import random
import re
import zipfile

import pytest
from sultan.rules.engine import Game
from sultan.saves import reader, record
from sultan.saves.record import MIN_RECORD, SEQ_MAX, SLOT_MAX, VERSION
from sultan_host import filesave
from sultan_host.cli import main as cli_main
from sultan_host.cli.report import emit

FULL = 2 * SLOT_MAX
# Every line the reader may answer with (the file's name is F): docs/saves.md lists them.
LINES = {
    "foreign": r"sultan: error: F is not a Sultan save: left alone",
    "newer": r"sultan: error: F was made by a newer Sultan \(save format \d+; this one reads %d\): left alone"
             % VERSION,
    "damaged": r"sultan: error: save data corrupt in F( \(cut short: \d+ of %d bytes\))?: left alone" % FULL,
    "none": r"sultan: error: no game saved in F",
    "cut": r"resume: F was cut short \(\d+ of %d bytes\); resuming the record it kept" % FULL,
    "newest": r"resume: the newest save in F is damaged; resuming the one before it",
    "part": r"resume: part of F is damaged; resuming the record that still reads",
    "replay": r"resume: the newest save in F is damaged \(its moves do not replay\); resuming the one "
              r"before it",
}


def base_saves():
    """Real save files' bytes: two records of a game in play; one record (slot 1 erased); a won game's."""
    out = []
    for deal, first, then in ((21, 30, 10), (5, 0, None), (8, 3, 400)):
        st = filesave.Store(filesave.MemoryRegion(FULL), max_pending=10**6)
        g = Game(deal=deal)
        st.save(g)
        for _ in range(first):
            g.step()
            st.save(g)
        st.flush()
        if then is not None:
            for _ in range(then):
                if not g.step() or g.status():
                    break
                st.save(g)
            st.save(g)
            st.flush()
        out.append(bytes(st.region.data))
    return out


def record_spans(data):
    """(start, length) of each record in a two-slot file's bytes."""
    spans = []
    for at in (0, SLOT_MAX):
        if data[at:at + 2] == b"SU":
            spans.append((at, int.from_bytes(data[at + 8:at + 10], "little")))
    return spans


def field_bytes(data, at, n):
    """The offsets of every field's bytes in the record at ``at`` but the move log's middle."""
    rec = reader.decode(data[at:at + SLOT_MAX])
    head = list(range(at, at + rec.log_at if rec.has_game else at + n - 4))
    log = range(at + rec.log_at, at + n - 4) if rec.has_game else range(0)
    crc = list(range(at + n - 4, at + n))
    return head + list(log[:4]) + list(log[-4:]) + crc, list(log)


def inputs():
    """(name, bytes): every input of the fuzz, seeded, each once."""
    seen = set()
    for name, data in _inputs():
        if name not in seen:
            seen.add(name)
            yield name, data


def _inputs():
    rnd = random.Random(39)
    yield "empty", b""
    for b in (0x00, 0x53, 0xFF, 0x0A):
        yield "1 byte %02x" % b, bytes([b])
    for two in (b"SU", b"PK", b"\xff\xff", b"\x00\x00", b"S\xff"):
        yield "2 bytes %r" % two, two
    for k, data in enumerate(base_saves()):
        yield "save %d" % k, data
        for at, n in record_spans(data):
            for cut in (at, at + n, at + 2, at + 10, at + 19):
                for d in (-1, 0, 1):
                    if 0 <= cut + d <= FULL:
                        yield "save %d cut at %d" % (k, cut + d), data[:cut + d]
            fields, log = field_bytes(data, at, n)
            for i in fields + rnd.sample(log, min(len(log), 24)):
                for bit in range(8):
                    flipped = bytearray(data)
                    flipped[i] ^= 1 << bit
                    yield "save %d byte %d bit %d" % (k, i, bit), bytes(flipped)
        for _ in range(40):  # a burst of noise over a record
            noisy = bytearray(data)
            i = rnd.randrange(FULL - 16)
            noisy[i:i + 16] = rnd.randbytes(16)
            yield "save %d noise at %d" % (k, i), bytes(noisy)
    yield "text", b"SUMMARY of my notes\n"
    yield "text 2", ("Wi-Fi password: hunter2\n" * 20).encode()
    png = io.BytesIO()
    from PIL import Image

    Image.new("RGB", (4, 4)).save(png, "PNG")
    yield "png", png.getvalue()
    z = io.BytesIO()
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("a.txt", "hello")
    yield "zip", z.getvalue()
    for n in (1, 100, FULL, FULL + 1, 4096):
        yield "zeros %d" % n, bytes(n)
    for n in (100, FULL, FULL + 1, 4096):
        yield "0xFF %d" % n, b"\xff" * n
    for n in (10, 500, FULL):
        yield "noise %d" % n, rnd.randbytes(n)
    yield "newer", newer_save(base_saves()[0])


def newer_save(data):
    """A real save of a newer format: each record's version raised, its CRC made right again."""
    out = bytearray(data)
    for at, n in record_spans(data):
        out[at + 2] = VERSION + 1
        record.crc_into(out, at + n - 4, out, at + n - 4)
    return bytes(out)


# ---------------------------------------------------------------- the expected answer
def header_of_ours(slot):
    """The magic, and a version this Sultan knows or a length a record may have (docs/saves.md)."""
    if slot[:2] != b"SU":
        return False
    if len(slot) <= 2:
        return True
    n = int.from_bytes(slot[8:10], "little") if len(slot) >= 10 else 0
    return 1 <= slot[2] <= VERSION or MIN_RECORD <= n <= SLOT_MAX


def newer_record(slot):
    n = int.from_bytes(slot[8:10], "little") if len(slot) >= 10 else 0
    return (slot[:2] == b"SU" and MIN_RECORD <= n <= len(slot) and slot[2] > VERSION
            and record.crc_ok(slot, n - 4))


def expected(data):
    """(kind, the game resumed or None, what the note says or None): from the format alone."""
    if not data or (len(data) <= FULL and data.count(0xFF) == len(data)):
        return "none", None, None
    if len(data) > FULL:
        return "foreign", None, None
    slots = [data[0:SLOT_MAX], data[SLOT_MAX:FULL]]
    if any(newer_record(s) for s in slots):
        return "newer", None, None
    recs = [(reader.decode(s + bytes(SLOT_MAX - len(s))), s) for s in slots]
    good = [(r, s) for r, s in recs if r is not None]
    if not good:
        return ("damaged" if any(header_of_ours(s) for s in slots) else "foreign"), None, None
    good.sort(key=lambda rs: rs[0].seq)
    if len(good) == 2 and (good[1][0].seq - good[0][0].seq) % SEQ_MAX > SEQ_MAX // 2:
        good.reverse()  # the numbers wrapped
    newest = good[-1][0]
    if not newest.has_game:
        return "none", None, None
    for k, (r, s) in enumerate(reversed(good)):  # noqa: B007 (k: which one replays)
        game = reader.restore(r, s + bytes(SLOT_MAX - len(s)))
        if game is not None:
            break
    else:
        return "damaged", None, None
    if k:
        return "ok", game, "replay"
    if len(good) == 2:
        return "ok", game, None  # the other slot holds an older record: nothing lost
    other = slots[1] if good[0][1] is slots[0] else slots[0]
    if not other:
        return "ok", game, "cut"  # the file ends before the other slot
    if other.count(0xFF) == len(other) or older_header(other, newest.seq):
        return "ok", game, None  # it held nothing, or an older record's start
    if len(data) < FULL:
        return "ok", game, "cut"
    return "ok", game, "newest" if newer_header(other, newest.seq) else "part"


def newer_header(slot, seq):
    """The slot begins with a record header whose sequence number is newer than ``seq``."""
    if slot[:2] != b"SU" or len(slot) < 8 or slot[7] > 0x3F:
        return False
    s = int.from_bytes(slot[4:8], "little")
    return 0 < s and 0 < (s - seq) % SEQ_MAX < SEQ_MAX // 2


def older_header(slot, seq):
    """The slot begins with a record header whose sequence number is older than ``seq`` (a cut write's)."""
    if slot[:2] != b"SU" or len(slot) < 8 or slot[7] > 0x3F:
        return False
    s = int.from_bytes(slot[4:8], "little")
    return 0 < s and 0 < (seq - s) % SEQ_MAX < SEQ_MAX // 2


# ---------------------------------------------------------------- the runs
def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli_main.main(list(argv), out)
    return code, out.getvalue(), err.getvalue()


def line(kind, path):
    return re.compile(LINES[kind].replace("F", re.escape(str(path))) + "\n")


def test_the_fuzz_covers_what_it_says():
    names = [name for name, _ in inputs()]
    assert len(names) > 2500 and len(set(names)) == len(names)
    kinds = {expected(data)[0] for _, data in inputs()}
    notes = {expected(data)[2] for _, data in inputs()}
    assert kinds == {"none", "foreign", "newer", "damaged", "ok"}, kinds
    assert {"cut", "part", "newest"} <= notes, notes


@pytest.mark.parametrize("part", range(4))
def test_every_answer_is_a_documented_line_true_of_the_file_and_nothing_written(tmp_path, monkeypatch, part):
    monkeypatch.chdir(tmp_path)  # a short name: the lines clip a long one
    f = pathlib.Path("s.sav")
    for k, (name, data) in enumerate(inputs()):
        if k % 4 != part:
            continue
        f.write_bytes(data)
        os.utime(f, ns=(10**18, 10**18))
        kind, game, note = expected(data)
        code, out, err = run("resume", str(f), "--json")
        if kind == "ok":
            assert code == 0, (name, err)
            want = io.StringIO()
            emit(game, True, want)
            assert json.loads(out) == json.loads(want.getvalue()), name
            assert (line(note, f).fullmatch(err) if note else err == ""), (name, note, err)
        else:
            assert code == 2 and out == "", (name, code, out, err)
            assert line(kind, f).fullmatch(err), (name, kind, err)
            if kind == "damaged" and len(data) < FULL:
                assert "(cut short: %d of %d bytes)" % (len(data), FULL) in err, (name, err)
        code, out, err = run("stats", "--save", str(f))
        if kind in ("ok", "none") and data.count(0xFF) < len(data):
            assert code == 0 and err == "", (name, err)
        elif kind not in ("ok", "none"):
            assert code == 2 and line(kind, f).fullmatch(err), (name, kind, err)
        assert f.read_bytes() == data and os.stat(f).st_mtime_ns == 10**18, name  # nothing written
        assert os.listdir(tmp_path) == ["s.sav"], name  # and nothing beside it


def test_a_real_newer_save_still_says_newer_and_a_flipped_version_says_damaged(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = base_saves()[1]  # one record, slot 1 erased
    f = pathlib.Path("s.sav")
    f.write_bytes(newer_save(data))
    assert line("newer", f).fullmatch(run("resume", str(f))[2])
    flipped = bytearray(data)
    flipped[2] ^= 0x40  # format 66, its CRC now wrong: a damaged save, not a newer one
    f.write_bytes(bytes(flipped))
    assert line("damaged", f).fullmatch(run("resume", str(f))[2])


def test_the_issues_three_files(tmp_path, monkeypatch):
    """A 2-byte save, a text file starting SU, a save cut to its one whole record."""
    monkeypatch.chdir(tmp_path)
    f = pathlib.Path("s.sav")
    f.write_bytes(b"SU")
    err = run("resume", str(f))[2]
    assert err == "sultan: error: save data corrupt in %s (cut short: 2 of 2048 bytes): left alone\n" % f
    f.write_bytes(b"SUMMARY of my notes\n")
    assert run("play", "--deal", "1", "--save", str(f))[2] == (
        "sultan: error: %s is not a Sultan save: left alone\n" % f)
    f.write_bytes(base_saves()[1][:SLOT_MAX])
    assert run("resume", str(f))[2] == (
        "resume: %s was cut short (1024 of 2048 bytes); resuming the record it kept\n" % f)
