"""The PyBadge's own sections of docs/figures.md: its figures against the goals,
the erase window and the power cuts, written without touching the Pico's sections.  No emulator: the runs'
reports are made up here, the host's store is the real one."""

import argparse

from sultan_host.bench.device import main, pbfigures, pbsaves, tables

# a column's config, as bench.device.pybadge.jobs makes it (only the UF2's name is read: the sections name it)
CONFIG = {"name": "pybadge-9.1.1-160x128", "board": "pybadge", "version": "9.1.1", "size": "160x128",
          "label": "PyBadge CP 9.1.1 160x128", "bare": "pybadge-9.1.1-160x128",
          "uf2": "vendor-local/pybadge/adafruit-circuitpython-pybadge-en_US-9.1.1.uf2",
          "steps": [("A", "play", None)], "asteps": [("A", "play", None)]}
COLUMN = ("pybadge", CONFIG["uf2"])


def game(anim):
    lines = [{"text": "SULTAN READY board=pybadge deal=7 mem_free=90000", "ms": 1500}]
    if anim:
        lines.append({"text": "SULTAN anim=slide frames=%d first=%d ms=%d" % anim, "ms": 1600})
    lines.append({"text": "SULTAN key=A", "ms": 1700})
    key = {"latch_ms": 1580, "line_ms": 1700, "pixels": 900, "line": "SULTAN key=A"}
    return {"lines": lines, "keys": [key]}


def cells(bare_line_ms=700):
    return tables.summarise(CONFIG["steps"], game(None), {"heap": 120000, "line_ms": bare_line_ms})


def test_the_pybadge_rows_say_whether_each_goal_is_met():
    firsts = {"play": [30, 60], "turn": [3], "menu item": [90]}
    rows = {r[0]: r for r in pbfigures.rows(cells(), {"slide": [(11, 30, 100), (9, 60, 400)]}, firsts)}
    assert rows["mem_free at READY"][2:] == ("90,000 of 120,000 (75.0 %)", True)
    assert rows["start-up"][2:] == ("0.80 s", True)
    assert rows["first frame: play"][2:] == ("median 45, max 60 ms (n=2)", False)
    assert rows["first frame: turn"][3] is True and "first frame: menu item" not in rows
    slides = rows["slide f/s, min / median"]
    assert slides[2] == "20 / 60 (n=2)" and slides[3] is False
    assert rows["line: play"][1:] == ("", "120 / 120 / 120 ms (n=1)", None)
    slow = {r[0]: r for r in pbfigures.rows(cells(bare_line_ms=300), {}, {})}
    assert slow["start-up"][3] is False and "first frame: play" not in slow


def test_a_panel_after_a_cards_travel_is_judged_without_the_travel():
    steps = [("START", "won/lost panel", None)]
    lost = game((60, 4, 99))  # the losing turn's card travels 99 ms, then the panel: 120 ms in all
    lost["lines"][-1]["text"] = lost["keys"][0]["line"] = "SULTAN key=START"
    travel = pbfigures.less_travel(steps, lost)
    assert travel == {"won/lost panel": [21]}
    assert pbfigures.first_frames(steps, lost) == {"won/lost panel": [4]}
    c = tables.summarise(steps, lost, {"heap": 120000, "line_ms": 700})
    row = {r[0]: r for r in pbfigures.rows(c, {}, {}, travel)}["won/lost panel"]
    assert row[2:] == ("120 / 120 / 120 ms (n=1); less the card's travel, max 21 ms", True)
    slow = {r[0]: r for r in pbfigures.rows(c, {}, {}, {"won/lost panel": [130]})}["won/lost panel"]
    assert slow[3] is False
    assert {r[0]: r for r in pbfigures.rows(c, {}, {})}["won/lost panel"][3] is False  # 120 ms, no slide


def test_a_pybadge_run_writes_its_own_section_and_leaves_the_picos_as_they_were():
    args = argparse.Namespace(deal=7, firmwares=[])
    games = {CONFIG["name"]: game(None), CONFIG["name"] + " anim": game((11, 20, 250))}
    results = {CONFIG["name"]: dict(cells(), _errors=[])}
    sections = main.figure_sections(args, [CONFIG], results, games, [CONFIG], CONFIG["steps"], "2026-12-02")
    assert sections.pop("_anim_bad") == []
    assert list(sections) == [pbfigures.HEADING]
    old = ("# Device figures\n\nhead\n\n## Key plan\n\nPico's keys\n\n## Animations\n\nPico's anims\n\n"
           "## PyBadge\n\nan old one\n")
    new = tables.update_figures(old, sections)
    assert new.startswith(old[:old.index("## PyBadge")])
    assert "an old one" not in new and new.count("## PyBadge") == 1
    assert "| first frame: play | <= 50 ms | median 20, max 20 ms (n=1) | yes |" in new
    assert "120 MHz" in new and "(samd51.md#time)" in new


def test_every_save_on_the_two_slots_erases_and_puts_its_record_in_both():
    from sultan.rules.engine import Game
    from sultan.saves.store import Store

    hour = pbsaves.human_hour(games=1)
    assert hour["saves"] == len(hour["first"]) > 2
    assert all(40 <= n <= 1024 for n in hour["first"]) and hour["pause_s"] > 60
    region = pbsaves.SlotRegion()  # laid out as the board's (test_save_log: the port's every write)
    st = Store(region)
    st.save(Game(deal=7))
    st.flush()
    n = region.first[-1]
    assert region.erases == 1 and n == region.data[8] | region.data[9] << 8
    assert region.data[1024:1024 + n] == region.data[:n]  # slot 0 holds the write's record, slot 1 a copy


def test_the_window_is_the_erase_and_the_pages_of_slot_0s_record():
    run = {"saves": [{"erase_ms": 50.0, "pages": [51.6 + 1.6 * p for p in range(16)]} for _ in range(3)]}
    hour = {"games": 2, "keys": 300, "saves": 4, "pause_s": 360.0, "first": [100, 100, 600, 600]}
    f = pbsaves.window_figures(run, hour)
    assert (f["page 0 back ms"], f["page 1 back ms"]) == (51.6, 53.2)
    assert abs(f["window mean ms"] - (51.6 + 53.2) / 2) < 1e-9
    assert f["saves an hour"] == 40.0 and f["saves a game"] == 2.0 and f["over a page"] == 2
    assert abs(f["share"] - 40 * 52.4 / 3600000) < 1e-12
    assert any("share of a played hour" in ln for ln in pbsaves.window_lines(f))


def test_the_pybadge_cuts_come_in_runs_that_start_on_a_fresh_nvm():
    jobs = pbsaves.cut_jobs("/tmp/x", 23, 1, COLUMN)
    assert [len(j["trials"]) for j in jobs] == [10, 10, 3]
    assert all(j["trials"][0].kind == "first write" for j in jobs)
    assert jobs[2]["trials"][-1].kind == "decided"
    assert all(0 <= t.offset_ms <= 74.0 for j in jobs for t in j["trials"])


def test_a_run_of_both_boards_keeps_the_pybadge_out_of_the_picos_tables():
    pico = {"name": "cp10.2.1-160x128", "version": "10.2.1", "size": "160x128"}
    args = argparse.Namespace(deal=7, firmwares=["adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2"])
    games = {n: game((11, 20, 250)) for n in (pico["name"], pico["name"] + " anim", CONFIG["name"],
                                              CONFIG["name"] + " anim")}
    results = {c["name"]: dict(cells(), _errors=[]) for c in (pico, CONFIG)}
    sections = main.figure_sections(args, [pico, CONFIG], results, games, [pico, CONFIG], CONFIG["steps"],
                                    "2026-12-02")
    sections.pop("_anim_bad")
    assert list(sections) == [tables.KEY_HEADING, tables.ANIM_HEADING, pbfigures.HEADING]
    for heading in (tables.KEY_HEADING, tables.ANIM_HEADING):
        text = "\n".join(sections[heading])
        assert "CP 10.2.1 160x128" in text and "PyBadge" not in text


def test_the_pybadge_sections_go_to_a_page_of_their_own_beside_the_figures():
    sections = {tables.KEY_HEADING: ["k"], pbfigures.HEADING: ["p"], pbsaves.CUTS_HEADING: ["c"]}
    assert pbfigures.split("docs/figures.md", sections) == [
        ("docs/figures.md", {tables.KEY_HEADING: ["k"]}),
        ("docs/pybadge-figures.md", {pbfigures.HEADING: ["p"], pbsaves.CUTS_HEADING: ["c"]})]
    mine = {pbfigures.HEADING: ["p"]}
    assert pbfigures.split("f.md", mine) == [("./pybadge-figures.md", mine)]
    assert tables.update_figures("", mine, pbfigures.HEAD).startswith("# PyBadge figures\n")


def test_the_pybadge_saves_run_only_when_its_column_and_the_saves_are_asked_for(monkeypatch):
    from sultan_host.bench.device import pybadge

    monkeypatch.setattr(pybadge, "columns", lambda boards: [COLUMN] if "pybadge" in boards else [])

    def jobs(**kw):
        a = dict(only=None, boards=["pico", "pybadge"], cuts=0, seed=1, out="/tmp/x", pybadge_asked=False)
        a.update(kw)
        return pbsaves.jobs(argparse.Namespace(**a))

    for kw in ({"only": "anim"}, {"only": "table"}, {"only": "idle"}, {"boards": ["pico"]}):
        assert jobs(**kw) == []
    # the cuts need --boards to name the PyBadge: a Pico run's CUTS=210 are the Pico's
    assert [j["name"] for _f, j in jobs(cuts=20)] == ["pybadge-9.1.1-160x128 window"]
    asked = [j["name"] for _f, j in jobs(cuts=20, pybadge_asked=True)]
    assert asked == ["pybadge-9.1.1-160x128 window", "cuts pybadge-9.1.1-160x128 run 0",
                     "cuts pybadge-9.1.1-160x128 run 1"]


def test_each_badge_image_is_a_column_of_the_goals_table_and_the_window():
    ten = dict(CONFIG, name="pygamer-10.2.1-160x128", board="pygamer", label="PyGamer CP 10.2.1 160x128",
               uf2="vendor-local/pygamer/adafruit-circuitpython-pygamer-en_US-10.2.1.uf2")
    games = {n: game(anim) for c in (CONFIG, ten) for n, anim in ((c["name"], None),
                                                                   (c["name"] + " anim", (11, 20, 250)))}
    results = {CONFIG["name"]: cells(), ten["name"]: cells(bare_line_ms=300)}
    lines = pbfigures.section([CONFIG, ten], results, games, "2026-12-06", 7)
    assert "pybadge-en_US-9.1.1.uf2, adafruit-circuitpython-pygamer-en_US-10.2.1.uf2" in lines[2]
    assert lines[4] == "| figure | goal | PyBadge CP 9.1.1 160x128 | met | PyGamer CP 10.2.1 160x128 | met |"
    start = next(ln for ln in lines if ln.startswith("| start-up |"))
    assert start == "| start-up | <= 1.0 s | 0.80 s | yes | 1.20 s | **no** |"
    run = {"saves": [{"erase_ms": 50.0, "pages": [51.6 + 1.6 * p for p in range(16)]}]}
    hour = {"games": 1, "keys": 100, "saves": 2, "pause_s": 60.0, "first": [100, 600]}
    f = pbsaves.window_figures(run, hour)
    table = pbsaves.window_lines(None, [("PyBadge 9.1.1", f), ("PyGamer 10.2.1", f)])
    assert table[0] == "| figure | PyBadge 9.1.1 | PyGamer 10.2.1 |" and table[1] == "|---|---|---|"
    assert all(ln.count(" | ") == 2 for ln in table[2:])
