"""The CircuitPython test runner's parts without a board: finding the tests and the images, the raw REPL's
answer, run-tests.py's judging rules, the report and the command line."""

import io
import os
import signal
import subprocess
import sys
import tarfile

import pytest
from sultan_host.cptests import cli, judge, report, runner, source
from sultan_host.cptests.device import split_answer

INFO_10 = b"MicroChip SAMD51 armv7emsp 0 standard None 30 True\n"
HAS_ALL = {name: want for name, want in judge.CHECKS.items()}


def features(**over):
    outputs = dict(HAS_ALL, **{"target_info.py": INFO_10, "byteorder.py": b"little\n",
                               "reverse_ops.py": b"\n"})
    outputs.update(over)
    return judge.Features(outputs, cpython_byteorder=b"little\n")


def answer(stdout=b"", stderr=b"", error=None):
    return {"stdout": stdout, "stderr": stderr, "error": error, "sim_ms": 1.0, "wall_s": 0.1}


# ------------------------------------------------------------------ the raw REPL's answer
def test_split_answer_takes_ok_then_stdout_and_stderr_between_the_end_markers():
    assert split_answer(b"OK12\r\n\x04Traceback\r\n\x04") == (b"12\r\n", b"Traceback\r\n")
    assert split_answer(b"OKhalf a li") == (b"half a li", b"")    # cut short: what came


def test_device_output_strips_start_test_and_normalizes_line_ends():
    out, crashed = judge.device_output(answer(b"START TEST\r\n1\r\n2\r\r\n"))
    assert (out, crashed) == (b"1\n2\n", False)


def test_an_exception_appends_stderr_and_crash_as_run_tests_does():
    out, crashed = judge.device_output(answer(b"START TEST\r\n1\r\n", b"ValueError: x\r\n"))
    assert crashed and out == b"1\nValueError: x\nCRASH"


def test_a_memory_error_before_the_start_is_too_large():
    assert judge.device_output(answer(b"", b"MemoryError: \r\n"))[0] == b"SKIP-TOO-LARGE\n"
    assert judge.device_output(answer(b"START TEST\r\n", b"MemoryError: \r\n"))[0] != b"SKIP-TOO-LARGE\n"


# ------------------------------------------------------------------ verdicts
def test_verdicts_pass_fail_skip_crash():
    want = lambda: b"1\n2\n"  # noqa: E731
    assert judge.verdict("basics/a.py", answer(b"START TEST\r\n1\r\n2\r\n"), want)[0] == judge.PASS
    kind, why, _ = judge.verdict("basics/a.py", answer(b"START TEST\r\n1\r\n3\r\n"), want)
    assert kind == judge.FAIL and why == "line 2: expected b'2', got b'3'"
    assert judge.verdict("basics/a.py", answer(b"START TEST\r\nSKIP\r\n"), want)[0] == judge.SKIP
    stopped = answer(b"START TEST\r\n1", error="the machine stopped: x")
    kind, why, _ = judge.verdict("basics/a.py", stopped, want)
    assert (kind, why) == (judge.CRASH, "the machine stopped: x")


def test_missing_and_extra_lines_are_told():
    assert judge.first_difference(b"1\n2\n", b"1\n") == "output ends at line 1; expected next b'2'"
    assert judge.first_difference(b"1\n", b"1\n2\n") == "extra output at line 2: b'2'"


def test_regex_output_lines_match_as_patterns():
    want = b"object <class 'x'> is of type type\n########\n  end\n"
    got = b"object <class 'x'> is of type type\n  a\n  b\n  end\n"
    assert judge.regex_lines(want, got) == want
    assert judge.regex_lines(want, b"object y\n  a\n") != want


# ------------------------------------------------------------------ the feature checks' skips
def test_target_info_with_a_platform_of_two_words():
    f = features()
    assert (f.platform, f.float_prec) == ("MicroChip SAMD51", 30)


def test_single_precision_skips_the_double_precision_tests_only():
    f = features()
    assert f.skip_reason("float/float_parse_doubleprec.py")
    assert f.skip_reason("float/float_struct_e.py")            # needs fp32: 30-bit floats lack it
    assert f.skip_reason("float/float1.py") is None
    assert features(**{"target_info.py": b"linux x64 0 standard posix 64 True\n"}).skip_reason(
        "float/float_parse_doubleprec.py") is None


def test_missing_features_skip_by_name():
    f = features(**{"int_big.py": b"", "set_check.py": b"SyntaxError\n", "reverse_ops.py": b"TypeError\n"})
    assert f.skip_reason("basics/int_big_add.py") == "no int_big on this build"
    assert f.skip_reason("basics/array_intbig.py") == "no int_big on this build"
    assert f.skip_reason("basics/set_add.py") == "no set_check on this build"
    assert f.skip_reason("basics/class_reverse_op.py") == "no reverse operators on this build"
    assert f.skip_reason("basics/list1.py") is None
    assert features().skip_reason("basics/exception_chain.py")  # never on a board
    no_native = features(**{"native_check.py": b""})
    assert no_native.skip_reason("basics/viper_x.py") == "no native_check on this build"


def test_cpython_gives_the_expected_output_when_there_is_no_exp_file(tmp_path):
    (tmp_path / "basics").mkdir()
    (tmp_path / "testlib").mkdir()
    (tmp_path / "basics" / "a.py").write_text("print(1 + 1)\n")
    (tmp_path / "basics" / "b.py").write_text("print(3)\n")
    (tmp_path / "basics" / "b.py.exp").write_text("4\n")
    (tmp_path / "basics" / "c.py").write_text("raise ValueError\n")
    exp = judge.Expected(str(tmp_path))
    assert exp.of("basics/a.py") == b"2\n"
    assert exp.of("basics/b.py") == b"4\n"                     # the .exp file wins
    assert exp.of("basics/c.py").startswith(b"CPYTHON3 CRASH:\n")


# ------------------------------------------------------------------ finding the tests and the images
def tar_of(path, files):
    with tarfile.open(path, "w") as t:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def test_the_cache_fills_from_a_tar_and_lists_the_suites_sorted(tmp_path, monkeypatch):
    files = {"tests/%s/x.py" % d: "print(1)\n" for d in source.SUBDIRS}
    files.update({"tests/basics/b.py": "", "tests/basics/a.py": "", "tests/basics/a.py.exp": "",
                  "tests/float/f.py": "", "tests/misc/m.py": ""})
    tar_of(str(tmp_path / "t.tar"), files)
    monkeypatch.delenv("CPTESTS_DIR", raising=False)
    monkeypatch.setenv("CPTESTS_TAR", str(tmp_path / "t.tar"))
    cache = str(tmp_path / "cache")
    root = source.locate(cache)
    assert root == cache and not os.path.exists(os.path.join(cache, "misc"))
    assert source.tests(root) == ["basics/a.py", "basics/b.py", "basics/x.py", "float/f.py", "float/x.py"]
    assert source.tests(root, "^float/") == ["float/f.py", "float/x.py"]


def test_no_tests_anywhere_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.delenv("CPTESTS_DIR", raising=False)
    monkeypatch.setenv("CPTESTS_TAR", str(tmp_path / "none.tar"))
    monkeypatch.setenv("CIRCUITPYTHON_GIT", str(tmp_path / "none.git"))
    with pytest.raises(source.NoTests, match="none.tar.*none.git"):
        source.locate(str(tmp_path / "cache"))
    monkeypatch.setenv("CPTESTS_DIR", str(tmp_path))
    with pytest.raises(source.NoTests, match="CPTESTS_DIR"):
        source.locate(str(tmp_path / "cache"))


def test_images_are_ordered_by_version_not_by_name(tmp_path):
    for board, version in (("pybadge", "10.2.1"), ("pybadge", "9.1.1"), ("pygamer", "10.2.1")):
        os.makedirs(tmp_path / board, exist_ok=True)
        (tmp_path / board / ("adafruit-circuitpython-%s-en_US-%s.uf2" % (board, version))).write_bytes(b"")
    (tmp_path / "pybadge" / "bootloader-arcade_pybadge-v3.15.0.bin").write_bytes(b"")
    names = [i.name for i in runner.images(vendor=str(tmp_path))]
    assert names == ["pybadge-9.1.1", "pybadge-10.2.1", "pygamer-10.2.1"]
    assert [i.name for i in runner.images(("pybadge",), str(tmp_path), cp=10)] == ["pybadge-10.2.1"]


# ------------------------------------------------------------------ report and command line
def test_report_counts_and_lists_what_did_not_pass(tmp_path):
    run = {"image": "pybadge-10.2.1", "wall_s": 3.0, "boot_wall_s": 1.0, "results": [
        {"test": "basics/a.py", "kind": "pass", "reason": "", "cpu_s": 0.5},
        {"test": "basics/b.py", "kind": "fail", "reason": "line 1: x", "cpu_s": 2.0},
        {"test": "basics/c.py", "kind": "skip", "reason": "SKIP", "cpu_s": 0.0}]}
    assert report.counts(run) == {"pass": 1, "fail": 1, "skip": 1, "crash": 0}
    lines = report.summary_lines([run])
    assert lines[1].split()[:5] == ["pybadge-10.2.1", "1", "1", "1", "0"]
    assert "tests 2 s CPU" in lines[1] and "slowest basics/b.py 2.0 s" in lines[1]
    assert lines[-1] == "pybadge-10.2.1 fail basics/b.py: line 1: x"
    assert os.path.isfile(report.write([run], str(tmp_path)))


@pytest.mark.parametrize("args", [["--boards", "pyportal"], ["--only", "("], ["--cpu-s", "0"], ["--bogus"]])
def test_a_bad_argument_is_one_line_and_exit_2(args):
    r = subprocess.run([sys.executable, "-m", "sultan_host.cptests"] + args, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("cptests: ") and len(r.stderr.splitlines()) == 1


def test_no_tests_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CPTESTS_DIR", str(tmp_path))
    assert cli.main(["--quiet"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


# ------------------------------------------------------------------ the Pico's side
def test_the_picos_console_output_lies_between_start_test_and_code_done():
    from sultan_host.cptests import pico

    log = (b"\x1b]0;code.py | 10.2.1\x1b\\START TEST\r\nTraceback (most recent call last):\r\n"
           b'  File "code.py", line 9, in <module>\r\nValueError: bad typecode\r\n'
           b"\x1b]0;Done | 10.2.1\x1b\\\r\nCode done running.\r\n")
    out = pico.console_output(log)
    assert out == (b'Traceback (most recent call last):\r\n  File "<stdin>", line 9, in <module>\r\n'
                   b"ValueError: bad typecode\r\n")
    assert pico.console_output(b"START TEST\r\n1\r\n") is None          # never ended
    ours = {"output": 'Traceback (most recent call last):\n  File "<stdin>", line 9, in <module>\n'
                      "ValueError: bad typecode\nCRASH"}
    assert pico.compare(ours, out, b"1\n") == "same"
    assert pico.compare(ours, b"1\r\n", b"1\n") == "passes"
    assert pico.compare(ours, b"2\r\n", b"1\n") == "differs"
    assert pico.compare(ours, None, b"1\n") == "no end"


def test_the_pico_image_is_chosen_by_major_and_version_numbers(tmp_path):
    from sultan_host.cptests import pico

    for version in ("9.2.8", "9.10.0", "10.2.1", "8.2.7"):
        (tmp_path / ("adafruit-circuitpython-raspberry_pi_pico-en_US-%s.uf2" % version)).write_bytes(b"")
    assert pico.firmware(9, str(tmp_path)) is None                    # no bootrom
    (tmp_path / "bootrom.js").write_text("")
    assert os.path.basename(pico.firmware(9, str(tmp_path))[0]).endswith("-9.10.0.uf2")
    assert os.path.basename(pico.firmware(10, str(tmp_path))[0]).endswith("-10.2.1.uf2")
    assert pico.firmware(7, str(tmp_path)) is None


def test_a_copy_that_stops_answering_is_killed_by_its_cpu_time():
    from sultan_host.cptests import device

    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:   # a copy stuck in a loop, as a CPU stuck inside Unicorn (the alarm: never an orphan)
        signal.alarm(30)
        while True:
            pass
    os.close(wr)
    assert device._collect(rd, pid, 0.5) == b""      # killed, nothing kept
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(wr, b"answer")
        os._exit(0)
    os.close(wr)
    assert device._collect(rd, pid, 0.5) == b"answer"
