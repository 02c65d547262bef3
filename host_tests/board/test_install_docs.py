"""README.md's way in for a player: the install section first, one short paragraph a board with its
official UF2 page and what the first boot shows; the Controls table's SELECT row names every menu item."""

import os
import re

from runners import ROOT
from sultan.ui import words


def readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def test_the_install_section_comes_first_with_the_three_boards():
    text = readme()
    heads = re.findall(r"^## (.+)$", text, re.M)
    assert heads[0] == "Install on your board", heads
    section = text.split("## Install on your board", 1)[1].split("\n## ", 1)[0]
    paragraphs = [p for p in section.split("\n\n") if p.startswith("**")]
    boards = [p.split("**")[1] for p in paragraphs]
    assert boards == ["PyBadge", "PyGamer", "Raspberry Pi Pico"], boards
    for p, page in zip(paragraphs, ("pybadge", "pygamer", "raspberry_pi_pico"), strict=True):
        assert "https://circuitpython.org/board/%s/" % page in p
        assert len(p.splitlines()) <= 8  # well under one screen a board
    assert "First boot" in paragraphs[0] and "First boot" in paragraphs[2]
    for needed in ("Sultan/CircuitPython 9.x/", "boot_out.txt", "dims after 30 s", "dark after 2 minutes",
                   "any key wakes it and is not played"):
        assert needed in section, needed


def test_the_select_row_names_every_menu_item():
    row = [ln for ln in readme().splitlines() if ln.startswith("| SELECT |")][0].lower()
    words.use(words.EN)
    for label in words.menu_items():
        assert label.split()[0].lower() in row, label


def test_the_readmes_gif_is_what_its_command_makes_now(tmp_path):
    """docs/sultan.gif, byte for byte, from the command its caption gives."""
    import subprocess
    import sys

    assert "`python -m sultan_host.desktop.movie docs/sultan.gif`" in readme()
    out = tmp_path / "sultan.gif"
    r = subprocess.run([sys.executable, "-m", "sultan_host.desktop.movie", str(out)], capture_output=True,
                       text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(ROOT, "docs", "sultan.gif"), "rb") as f:
        assert out.read_bytes() == f.read(), "remake it: python -m sultan_host.desktop.movie docs/sultan.gif"
