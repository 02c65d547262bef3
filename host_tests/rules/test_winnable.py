"""The winnable-deal tables in lib/sultan: format, freshness (fingerprint), re-played samples, the reader."""

import os

import pytest
from runners import LIB, run_micropython
from sultan.rules import engine, winnable
from sultan.rules.engine import RULES_CLASSIC, RULES_SEED, Game
from sultan_host.analysis import solver as classic_solver
from sultan_host.analysis import winnable_table

TABLES = {RULES_SEED: winnable.table_path(RULES_SEED), RULES_CLASSIC: winnable.table_path(RULES_CLASSIC)}
MIN_COUNT = {RULES_SEED: 2000, RULES_CLASSIC: 1000}


@pytest.fixture(scope="module", params=[RULES_SEED, RULES_CLASSIC], ids=["seed", "classic"])
def table(request):
    rules = request.param
    return (rules,) + winnable_table.read_all(TABLES[rules])


def test_format_and_size(table):
    rules, file_rules, width, _fp, deals = table
    path = TABLES[rules]
    assert file_rules == rules and width in (3, 4)
    assert len(deals) >= MIN_COUNT[rules]
    assert os.path.getsize(path) == winnable.HEADER + width * len(deals)
    assert deals == sorted(set(deals)) and 1 <= deals[0] and deals[-1] <= engine.MAX_DEAL
    with open(path, "rb") as f:
        assert f.read(5) == winnable.MAGIC + bytes((winnable.VERSION,))


def test_fingerprint_matches_the_current_engine(table):
    # Fails when the generator or the rules change: run `make winnable` and commit the new tables.
    rules, _r, _w, fp, _deals = table
    assert fp == winnable_table.fingerprint(rules), "stale table %s: run `make winnable`" % TABLES[rules]


def sample(deals, k):
    step = max(1, len(deals) // k)
    return sorted(set(deals[::step] + [deals[0], deals[-1]]))


def test_seed_table_sample_is_won_by_canonical_autoplay():
    _r, _w, _fp, deals = winnable_table.read_all(TABLES[RULES_SEED])
    g = Game(deal=1)
    for n in sample(deals, 400):
        g.new_deal(n)
        assert g.autoplay() == engine.WON, n


def test_classic_table_sample_is_won_on_the_engine():
    _r, _w, _fp, deals = winnable_table.read_all(TABLES[RULES_CLASSIC])
    for n in sample(deals, 12):
        g = Game(deal=n, rules=RULES_CLASSIC)
        if g.autoplay() == engine.WON:
            continue
        r = classic_solver.solve(n)
        assert r.status == classic_solver.WON, n
        assert classic_solver.replay(Game(deal=n, rules=RULES_CLASSIC), r.line) == engine.WON, n


def test_reader_agrees_with_the_whole_file(table):
    rules, _r, _w, _fp, deals = table
    t = winnable.open_table(rules)
    try:
        assert t.count == len(deals) and t.rules == rules
        for i in sample(list(range(len(deals))), 50):
            assert t.deal(i) == deals[i]
        members = set(deals)
        for n in deals[:30] + deals[-30:]:
            assert t.contains(n)
        for n in [1, 2, 3, deals[0] - 1, deals[-1] + 1, 999999999] + [d + 1 for d in deals[:40]]:
            assert t.contains(n) == (n in members), n
        assert t.pick(0) == deals[0] and t.pick(len(deals)) == deals[0] and t.pick(7) == deals[7]
        with pytest.raises(IndexError):
            t.deal(len(deals))
    finally:
        t.close()
    assert winnable.is_winnable(deals[5], rules) and winnable.random_deal(12345, rules) in members


def test_four_byte_entries_and_bad_files(tmp_path):
    p = tmp_path / "t.tbl"
    deals = [5, 1 << 24, 999999999]
    p.write_bytes(winnable_table.encode(RULES_SEED, deals, fp=0))
    assert winnable_table.read_all(str(p))[1] == 4
    with winnable.WinnableTable(str(p)) as t:
        assert [t.deal(i) for i in range(3)] == deals and t.contains(1 << 24) and not t.contains(6)
    assert winnable.open_table(RULES_CLASSIC, str(p)) is None  # a seed table is not a classic one
    p.write_bytes(b"junk" * 8)
    assert winnable.open_table(RULES_SEED, str(p)) is None
    assert winnable.open_table(RULES_SEED, str(tmp_path / "missing.tbl")) is None


@pytest.mark.micropython
def test_reader_on_micropython_reads_entries_by_seek():
    _r, _w, _fp, deals = winnable_table.read_all(TABLES[RULES_SEED])
    size = os.path.getsize(TABLES[RULES_SEED])
    out = run_micropython(
        "import gc\n"
        "from sultan.rules import winnable\n"
        "t = winnable.WinnableTable(%r)\n" % TABLES[RULES_SEED]
        + "def probe(t):\n"
        "    gc.collect()\n"
        "    a = gc.mem_alloc()\n"
        "    hits = 0\n"
        "    for d in (%d, %d, %d, 4):\n" % (deals[0], deals[len(deals) // 2], deals[-1])
        + "        hits += t.contains(d)\n"
        "    return hits, gc.mem_alloc() - a\n"
        "hits, grew = probe(t)\n"
        "print(t.count, t.deal(0), t.pick(123456789), hits, grew)\n"
        "t.close()\n"
        "print(winnable.table_path(0))\n",
        path=LIB,
    )
    first, second = out.splitlines()
    count, d0, picked, hits, grew = (int(x) for x in first.split())
    assert (count, d0, picked, hits) == (len(deals), deals[0], deals[123456789 % len(deals)], 3)
    assert grew <= 64 < size  # lookups by seek into a buffer made once: nothing on the heap (0 measured)
    assert second.endswith("sultan/rules/winnable_seed.tbl")


def test_make_winnable_writes_each_tables_last_deal_into_the_module(tmp_path):
    """winnable.LAST_SEED / LAST_CLASSIC are the tables' highest deals, and ``make winnable``
    rewrites just those lines (a new table, a new end)."""
    for rules in (RULES_SEED, RULES_CLASSIC):
        t = winnable.open_table(rules)
        assert t.deal(t.count - 1) == (winnable.LAST_CLASSIC if rules else winnable.LAST_SEED)
        t.close()
    src = tmp_path / "winnable.py"
    with open(winnable.__file__, encoding="utf-8") as f:
        text = f.read()
    src.write_text(text, encoding="utf-8")
    winnable_table.write_last(RULES_CLASSIC, 1234, str(src))
    new = src.read_text(encoding="utf-8")
    assert "LAST_CLASSIC = const(1234)" in new and "LAST_SEED = const(%d)" % winnable.LAST_SEED in new
    assert new.count("\n") == text.count("\n")
    src.write_text(text.replace("LAST_SEED = const(", "# LAST_SEED = "), encoding="utf-8")
    with pytest.raises(SystemExit):
        winnable_table.write_last(RULES_SEED, 5, str(src))
