"""The device benchmark's figures (sultan_host.bench.device): its animation plan wins a deal
and waits in the cascade, its table reads the ``SULTAN anim=`` lines of the timed keys only, and its
figures file keeps one table a section.  No emulator: the reports are made up here."""

from sultan_host.bench.device import plan, tables


def test_the_animation_plan_shows_every_animation_then_wins_and_waits_in_the_cascade():
    steps = plan.anim_plan()
    words = [w for w, _k, _l in steps]
    assert words[-3:] == ["START", "WAIT:%d" % plan.CASCADE_WAIT_MS, "RIGHT"]
    assert steps[-3][1:] == ("autoplay", "SULTAN key=START placed=95 pass=3 status=won")
    assert words[-4].startswith("START*")
    kinds = [k for _w, k, _l in steps]
    assert "play" in kinds and "undo" in kinds and kinds.count("turn") >= 3
    # the hint, the redo, autoplay on (menu items) and the restart (its deal)
    assert kinds.count("menu item") == 3 and "new deal" in kinds and words.count("SELECT") == 4


def test_the_table_reads_the_timed_keys_animations_and_leaves_out_a_bursts():
    lines = [
        "SULTAN anim=slide frames=4 first=20 ms=60", "SULTAN key=START placed=0 pass=1 status=playing",
        "SULTAN anim=slide frames=2 first=20 ms=10", "SULTAN key=START placed=0 pass=1 status=playing",
        "SULTAN anim=deal frames=16 first=300 ms=500", "SULTAN key=A placed=0 pass=1 status=playing",
        "SULTAN anim=slide frames=17 first=30 ms=800", "SULTAN key=START placed=95 pass=3 status=won",
        "SULTAN anim=cascade frames=51 first=0 ms=2000", "SULTAN key=RIGHT placed=95 pass=3 status=won",
    ]
    game = {"lines": [{"ms": 100.0 * i, "text": t} for i, t in enumerate(lines)],
            "keys": [{"line": lines[2 * i + 1], "line_ms": 100.0 * (2 * i + 1), "burst": i == 1}
                     for i in range(5)]}
    steps = [("START", "turn", None), ("START*1!", "burst", None), ("A", "new deal", None),
             ("START", "autoplay", None), ("WAIT:3000", "wait", None), ("RIGHT", "panel key", None)]
    want = {"slide": [(4, 20, 60)], "deal": [(16, 300, 500)], "autoplay": [(17, 30, 800)],
            "cascade": [(51, 0, 2000)]}
    assert tables.anim_lines(game, steps) == want
    cells = tables.anim_cells((steps, game), ((), {}))
    assert cells["slide"] == "50 / 50 f/s, first 20 ms, then 60 / 60 ms (n=1)"  # 3 frames after the first
    assert cells["deal"] == "30 / 30 f/s, 16 frames in 500 ms, first 300 ms (n=1)"
    assert cells["autoplay"].startswith("20 / 20 f/s") and cells["cascade"].startswith("25 / 25 f/s")


def fake_results():
    """Two configurations' cells, as ``summarise`` makes them from a run."""
    configs = [{"name": "cp10.2.1-320x240", "version": "10.2.1", "size": "320x240"},
               {"name": "cp9.2.8-160x128", "version": "9.2.8", "size": "160x128"}]
    results = {
        "cp10.2.1-320x240": {"mem_free at READY": "100,192", "start-up (s)": "0.55",
                             "turn": "118 / 123 / 134 ms, 19,440 px (n=9)",
                             "zz odd kind": "1 / 1 / 1 ms, 0 px (n=1)",
                             "_mismatches": [], "_errors": []},
        "cp9.2.8-160x128": {"mem_free at READY": "105,360", "cursor move": "9 / 11 / 16 ms, 480 px (n=11)",
                            "turn": "115 / 118 / 135 ms, 15,486 px (n=9)", "_mismatches": [], "_errors": []},
    }
    return configs, results


def test_the_key_table_has_a_column_a_configuration_and_a_row_a_figure():
    configs, results = fake_results()
    lines = tables.key_table(configs, results)
    assert lines[0] == "| | CP 10.2.1 320x240 | CP 9.2.8 160x128 |" and lines[1] == "|---|---|---|"
    rows = {ln.split(" | ")[0][2:]: ln.strip("| ").split(" | ")[1:] for ln in lines[2:]}
    assert rows["mem_free at READY"] == ["100,192", "105,360"]
    assert rows["heap (bare code.py)"] == ["-", "-"] and rows["start-up (s)"] == ["0.55", "-"]
    # the known kinds in the plan's order, then any other, the private cells left out
    names = [ln.split(" | ")[0][2:] for ln in lines[2:]]
    assert names.index("cursor move") < names.index("turn") < names.index("zz odd kind") == len(names) - 1
    assert not any(n.startswith("_") for n in names)


def test_the_figures_file_gets_each_section_with_its_date_and_firmware_and_keeps_the_others(tmp_path):
    configs, results = fake_results()
    firmwares = ["vendor-local/adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2",
                 "vendor-local/adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.8.uf2"]
    key = tables.section(tables.KEY_HEADING, "2026-12-02", firmwares, tables.KEY_CAPTION % 7,
                         tables.key_table(configs, results))
    path = str(tmp_path / "figures.md")
    tables.write_figures(path, {tables.KEY_HEADING: key})
    first = open(path, encoding="utf-8").read()
    assert first.startswith("# Device figures\n") and first.count("## ") == 1
    dated = next(ln for ln in first.splitlines() if ln.startswith("Measured "))
    assert "2026-12-02" in dated and "en_US-10.2.1.uf2, adafruit" in dated and "deal 7" in dated
    assert "| mem_free at READY | 100,192 | 105,360 |" in first
    # an animations run adds its section and keeps the key plan's as it was
    anim = tables.section(tables.ANIM_HEADING, "2026-12-03", firmwares[:1], tables.ANIM_CAPTION,
                          ["| | slide |", "|---|---|", "| CP 10.2.1 320x240 | 25 / 32 f/s |"])
    tables.write_figures(path, {tables.ANIM_HEADING: anim})
    second = open(path, encoding="utf-8").read()
    assert second.startswith(first.rstrip("\n")) and second.count("## ") == 2
    assert "Measured 2026-12-03 on adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2:" in second
    # a new key plan's run replaces only its own section, which stays first
    again = tables.section(tables.KEY_HEADING, "2026-12-04", firmwares, tables.KEY_CAPTION % 7,
                           tables.key_table(configs[:1], {configs[0]["name"]: results[configs[0]["name"]]}))
    tables.write_figures(path, {tables.KEY_HEADING: again})
    third = open(path, encoding="utf-8").read()
    assert third.count("## ") == 2 and third.index(tables.KEY_HEADING) < third.index(tables.ANIM_HEADING)
    assert "2026-12-02" not in third and "2026-12-04" in third and "2026-12-03" in third
    assert "| mem_free at READY | 100,192 |" in third and "105,360" not in third
    assert tables.update_figures(third, {}) == third  # nothing new: the file as it was
