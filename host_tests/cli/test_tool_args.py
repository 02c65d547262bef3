"""sultan_host.args's parts for the ``python -m`` tools: counts, numbers in a range, one-line errors."""

import argparse

import pytest
from sultan_host.args import ToolParser, count, real_in


def test_a_count_is_at_most_seven_ascii_digits():
    assert count("0042") == 42
    for bad in ("", "-1", "1_000", "\u0663", "12345678", "4 "):
        with pytest.raises(argparse.ArgumentTypeError, match="not a count"):
            count(bad)


def test_a_number_in_a_range_leaves_out_the_top_and_the_bottom_when_open():
    positive, nonneg = real_in(0, 1e6, lo_open=True), real_in(0, 1e9)
    assert positive("2.5") == 2.5 and nonneg("0") == 0.0
    for parse, bad, why in ((positive, "0", "out of range"), (nonneg, "1e9", "out of range"),
                            (nonneg, "nan", "out of range"), (nonneg, "-0.5", "out of range"),
                            (nonneg, "x", "not a number")):
        with pytest.raises(argparse.ArgumentTypeError, match=why):
            parse(bad)


def test_a_tool_parsers_error_is_one_clipped_line_and_exit_2(capsys):
    p = ToolParser("tool", prog="python -m tool")
    p.add_argument("--n", type=count)
    with pytest.raises(SystemExit) as stop:
        p.parse_args(["--n", "x" * 300 + "\nmore"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.startswith("tool: argument --n: not a count") and err.count("\n") == 1 and len(err) < 200, err
