"""One version everywhere: ``sultan.__version__`` in lib/sultan/__init__.py is the one
source; pyproject.toml reads it, and the READY line, the Statistics page (in both languages, on the
screen), the bundle's name and the changelog's newest entry say the same.  No firmware: the READY line
and the page come from the host's ``sultan.app`` (the device runs the same code; host_tests/device/
test_bundle_emulator.py reads the line off real CircuitPython)."""

import os
import re
import tomllib

import sultan
from play_keys import menu_keys
from runners import ROOT
from screen_rig import panel_text
from sultan import app
from sultan.nostore import NoStore
from sultan.saves.stats import Stats
from sultan.ui import keys, menu, pages, words
from sultan.ui.controller import S_MOTION_OFF
from sultan.ui.modes import STATS_PAGE
from sultan_host import scripted
from sultan_host.board import bundle
from sultan_host.desktop.headless import HeadlessDisplay

VERSION = sultan.__version__


def test_the_version_is_plain_x_y_z():
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", VERSION), VERSION


def test_pyproject_reads_the_version_from_the_package():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert "version" not in project["project"], "a second source: pyproject.toml names a version itself"
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "sultan.__version__"}
    import warnings

    from setuptools.config.pyprojecttoml import read_configuration

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # setuptools' "[tool.setuptools] is beta"
        expanded = read_configuration(os.path.join(ROOT, "pyproject.toml"), expand=True)
    assert expanded["project"]["version"] == VERSION  # what a wheel's metadata gets


def test_the_board_build_reads_the_same_source():
    assert bundle.source_version() == VERSION
    assert bundle.zip_name(bundle.source_version()) == "sultan-%s.zip" % VERSION


class MotionOff(NoStore):
    settings = S_MOTION_OFF


def test_the_ready_line_says_the_version():
    lines = []
    app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys("RIGHT"), board_id="testboard", deal=7,
            console=lines.append, store=MotionOff(), idle=0)
    ready = re.fullmatch(r"SULTAN READY board=testboard deal=7 mem_free=\d+ version=(\S+) save=0", lines[0])
    assert ready, lines[0]
    assert ready.group(1) == VERSION


def test_the_statistics_page_says_the_version_on_the_screen():
    """Menu, Statistics: the page's last line on the panel ends with the version, in English and
    Russian, with a store (the figures) and without (no statistics kept)."""
    st = Stats()
    st.record(0, True, 95)
    for lang in (words.EN, words.RU):
        words.use(lang)
        try:
            for stats in (st, None):
                d = HeadlessDisplay(160, 128)
                ctrl, screen = app.start(d, deal=7, store=MotionOff(), rand_deal=lambda: 1)
                ctrl.stats = stats
                for k in menu_keys(ctrl, menu.M_STATS):
                    ctrl.press(k)
                    screen.update(ctrl)
                assert ctrl.mode == STATS_PAGE
                shown = panel_text(screen)
                assert shown == list(pages.stats_lines(stats, ctrl.game.rules))
                assert shown[-1].rstrip().endswith(" " + VERSION), shown
                assert sum(VERSION in line for line in shown) == 1
                ctrl.press(keys.B)
        finally:
            words.use(words.EN)


def test_the_changelog_names_the_version_in_its_newest_entry():
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        headings = [line for line in f if line.startswith("## ")]
    assert headings, "no release headings"
    newest = re.fullmatch(r"## ([0-9]+\.[0-9]+\.[0-9]+) — (\d{4}-\d{2}-\d{2})\n", headings[0])
    assert newest, "the newest entry names no version: %r" % headings[0]
    assert newest.group(1) == VERSION
    older = [re.match(r"## ([0-9.]+)", h).group(1) for h in headings[1:]]
    assert VERSION not in older, "the version was released before"
    as_tuple = tuple(int(x) for x in VERSION.split("."))
    assert all(as_tuple > tuple(int(x) for x in v.split(".")) for v in older), older
