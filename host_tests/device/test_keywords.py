"""sultan_host.keywords against the grammar it replaced: tools/emulate/lib/keys.js and run.js's randomKeys.

keywords_js.json holds what keys.js gave for CASES, recorded with node before keys.js went (its input: each
case's ``case_input``).  The held-key word (NAME~ms) is keywords.py's own."""

import json
import os
import subprocess
import sys

import pytest
from sultan_host import keywords

RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keywords_js.json")
# (keys, names, key_ms, gap_ms, shots, random, seed)
CASES = [
    ("", "pybadge", 60, 100, True, 0, 1),
    ("", "pybadge", 60, 100, False, 0, 1),
    ("RIGHT A START SELECT DOWN B", "pybadge", 60, 100, True, 0, 1),
    ("right,a  start\tselect", "pybadge", 60, 100, True, 0, 1),
    ("RIGHT START*2! RESET CUT@WRITE+3.5 LEFT", "pybadge", 60, 100, True, 0, 1),
    ("START A? RIGHT", "pico", 60, 100, True, 0, 1),
    ("RIGHT START CUT@10050 RESET WAIT:100 CUT@5.25", "pico", 60, 100, False, 0, 1),
    ("START CUT@WRITE+12.5 LEFT", "pybadge", 60, 100, False, 0, 1),
    ("A*3 CUT@0100 B*2 RELOAD CUT@7 WAIT:0500 A? CUT@1.5", "pybadge", 75.5, 250, True, 0, 1),
    ("btnA btnStart DOWN*4!", "pico", 60, 100, True, 0, 1),
    ("btnstart", "pico", 60, 100, True, 0, 1),
    ("SELECT", "pybadge", 60, 100, True, 40, 7),
    ("", "pybadge", 60, 100, False, 60, 12345),
    ("", "pico", 60, 100, True, 14, 0),
    ("RIGHT FOO", "pybadge", 60, 100, True, 0, 1),
    ("Q?", "pybadge", 60, 100, True, 0, 1),
    ("CUT@soon", "pybadge", 60, 100, True, 0, 1),
    ("CUT@WRITE+x", "pybadge", 60, 100, True, 0, 1),
    ("A*12345", "pybadge", 60, 100, True, 0, 1),
    ("WAIT:1234567", "pybadge", 60, 100, True, 0, 1),
]


def case_input(case):
    keys, names, key_ms, gap_ms, shots, random, seed = case
    return {"keys": keys, "names": [list(p) for p in keywords.buttons(names).pairs], "keyMs": key_ms,
            "gapMs": gap_ms, "shots": shots, "random": random, "seed": seed}


def python_output(case):
    keys, names, key_ms, gap_ms, shots, random, seed = case
    try:
        words, steps = keywords.words_and_steps(keys, names, key_ms, gap_ms, shots, random, seed)
    except keywords.WordError as err:
        return {"error": str(err)}
    # through JSON as the CLI prints it: 10 stays 10, 3.5 stays 3.5
    return json.loads(json.dumps({"keys": words, "steps": steps}))


def same_error(ours, theirs):
    """keys.js's refusal, said the same way (our list of words also names NAME~ms)."""
    return ours.split(" (have ")[0] == theirs.split(" (have ")[0]


def check(case, want):
    got = python_output(case)
    if "error" in want:
        assert "error" in got and same_error(got["error"], want["error"]), (case, got, want)
    else:
        assert got == want, case


def test_the_record_covers_the_cases():
    with open(RECORD) as f:
        record = json.load(f)
    assert [r["input"] for r in record] == [case_input(c) for c in CASES]


@pytest.mark.parametrize("n", range(len(CASES)))
def test_keywords_gives_what_keys_js_gave(n):
    with open(RECORD) as f:
        check(CASES[n], json.load(f)[n]["output"])


def test_a_held_key_is_pressed_for_its_time_and_its_lines_taken_at_once():
    steps = keywords.key_steps("UP~750 A", "pygamer", shots=False)
    assert steps[:5] == [
        {"set-control": {"part-id": "UP", "control": "pressed", "value": 1}, "key": "UP", "burst": False},
        {"delay": "750ms"},
        {"set-control": {"part-id": "UP", "control": "pressed", "value": 0}},
        {"delay": "100ms"},
        {"wait-key-lines": 1},
    ]
    assert steps[5]["key"] == "A" and {"wait-serial": "SULTAN key=A"} in steps
    shot = keywords.key_steps("DOWN~60", "pybadge")
    assert shot[-1] == {"take-screenshot": {"part-id": "lcd", "save-to": "01-DOWN.png"}}
    with pytest.raises(keywords.WordError, match="unknown key JUMP"):
        keywords.key_steps("JUMP~100")
    with pytest.raises(keywords.WordError, match="bad key UP~"):
        keywords.key_steps("UP~")


def test_the_random_mix_is_seeded():
    a, b, c = keywords.random_keys(50, 7), keywords.random_keys(50, 7), keywords.random_keys(50, 8)
    assert a == b != c and len(a.split()) == 50 and set(a.split()) <= set(keywords.RANDOM_MIX)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sultan_host.keywords", *args], capture_output=True,
                          text=True, timeout=60)


def test_the_cli_prints_the_steps_and_refuses_a_bad_word_in_one_line():
    proc = run_cli("--keys", "RIGHT A", "--names", "pico", "--random-keys", "3", "--seed", "9", "--no-shots")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["keys"] == "RIGHT A " + keywords.random_keys(3, 9)
    assert out["steps"][0]["set-control"]["part-id"] == "btnRight"
    for bad in (["--keys", "RIGHT JUMP"], ["--names", "gameboy"], ["--key-ms", "soon"]):
        proc = run_cli(*bad)
        assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1, bad
        assert proc.stderr.startswith("keywords: ")
