"""``python -m sultan_host.bench.device.cpu`` (``make bench-cpu``): the samd51 time model against published
SAMD51 figures.  Its pystone adaptation and its table here; the run itself on the PyBadge's firmware when it
is here (skipped with the PyBadge's one reason otherwise)."""

import pytest
from pybadge_uf2 import missing
from sultan_host.bench.device import cpu
from sultan_host.pybadge import image

NEEDS_PYBADGE = missing() if image.missing() else pytest.mark.slow

FAKE_PYSTONE = '''"""pystone, as CPython's Lib/test/pystone.py lays it out"""
LOOPS = 50000
from time import perf_counter as clock

def pystones(loops=LOOPS):
    start = clock()
    return clock() - start, loops
'''


def test_pystone_gets_a_monotonic_ns_timer_in_place_of_its_import(tmp_path):
    p = tmp_path / "pystone.py"
    p.write_text(FAKE_PYSTONE)
    text = cpu.pystone_module(str(p))
    assert "from time import perf_counter" not in text and "def clock():" in text
    assert "monotonic_ns" in text and text.index("def clock") < text.index("def pystones")
    p.write_text("from time import clock\ndef pystones(loops):\n    print 'py2'\n")
    assert cpu.pystone_module(str(p)) is None        # Python 2's
    p.write_text("print('no pystone here')\n")
    assert cpu.pystone_module(str(p)) is None


def test_the_table_puts_each_figure_beside_its_published_one_as_a_time_ratio():
    found = cpu.figures(["SULTAN CPU module=4784", "noise", "SULTAN CPU pystone=3043"])
    assert found == {"module": 4.784, "pystone": 3043}
    rows = cpu.table(found)
    assert len(rows) == 4                           # the head, and the two benchmarks run
    assert rows[2].endswith("| 1.00 |") and "4.78 us" in rows[2]
    assert rows[3].endswith("| 0.50 |")             # twice the passes a second: half the time


def test_a_missing_pystone_file_is_one_line_and_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        cpu.main(["--pystone", str(tmp_path / "nope.py"), "--figures", ""])
    assert e.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


@NEEDS_PYBADGE
@pytest.mark.slow
def test_the_loops_on_the_pybadge_come_within_twice_the_published_times(tmp_path, capsys):
    page = tmp_path / "pybadge-figures.md"
    assert cpu.main(["--out", str(tmp_path / "run"), "--figures", str(page)]) == 0
    text = page.read_text()
    assert cpu.HEADING in text and "ItsyBitsy M4" in text
    ratios = [float(row.rsplit("|", 2)[1]) for row in text.splitlines() if row.startswith("| `for")
              or row.startswith("| the same")]
    assert len(ratios) == 2 and all(0.5 < r < 2 for r in ratios), ratios
