"""Each test judged as MicroPython's tests/run-tests.py (CircuitPython 10.2.1's) judges a test on a board.

The same steps: the feature checks first (feature_check/*.py on the board) decide which tests to skip by
name; a test runs with ``print('START TEST')`` put before it; SKIP printed is a skip, a MemoryError before
anything is printed is a skip (too large); the output, its line ends made ``\\n``, must equal the test's .exp
file, else what CPython prints running it (``python -BS``, testlib on its path).  Beyond run-tests.py: a
run with no answer (the machine stopped, a time limit) is a crash, not a failure.
"""

import os
import re
import subprocess
import sys

PASS, FAIL, SKIP, CRASH = "pass", "fail", "skip", "crash"
START = b"print('START TEST')"
# tests whose .exp lines are patterns (run-tests.py's tests_with_regex_output, in these suites)
REGEX_OUTPUT = ("basics/bytes_compare3.py", "basics/builtin_help.py")
# run-tests.py skips these on any board ("args.platform not in PC_PLATFORMS")
NOT_ON_BOARDS = ("basics/exception_chain.py",)
# run-tests.py's skips for single-precision floats (args.float_prec < 64; < 32 adds the first five)
BELOW_FP32 = ("float/float2int_intbig.py", "float/float_struct_e.py", "float/bytes_construct.py",
              "float/bytearray_construct.py", "float/float_format_ints_power10.py")
BELOW_FP64 = ("float/float_divmod.py", "float/float2int_doubleprec_intbig.py",
              "float/float_struct_e_doubleprec.py", "float/float_format_ints_doubleprec.py",
              "float/float_parse_doubleprec.py")
NO_COMPLEX = ("float/complex1.py", "float/complex1_intbig.py", "float/complex_reverse_op.py",
              "float/complex_special_methods.py", "float/int_big_float.py", "float/true_value.py",
              "float/types.py", "float/complex_dunder.py")
SLICE_USERS = ("basics/builtin_range.py", "basics/bytearray1.py", "basics/class_super.py",
               "basics/containment.py", "basics/errno1.py", "basics/fun_str.py", "basics/generator1.py",
               "basics/globals_del.py", "basics/memoryview1.py", "basics/memoryview_gc.py",
               "basics/object1.py", "basics/python34.py", "basics/struct_endian.py",
               "float/string_format_modulo.py")
# feature check -> the output that means "has it"
CHECKS = {"native_check.py": b"native\n", "int_big.py": b"1000000000000000000000000000000000000000000000\n",
          "int_64.py": b"4611686018427387904\n", "bytearray.py": b"bytearray\n", "set_check.py": b"{1}\n",
          "slice.py": b"slice\n", "async_check.py": b"async\n", "const.py": b"1\n", "fstring.py": b"a=1\n",
          "complex.py": b"complex\n", "inlineasm_thumb.py": b"thumb\n"}


def normalize(data):
    return data.replace(b"\r\r\n", b"\n").replace(b"\r\n", b"\n")


def device_output(answer, special=False):
    """run-tests.py's output of a board's run: stdout, and on an exception stderr + 'CRASH';
    b'SKIP-TOO-LARGE\\n' for a MemoryError before the first line.  (output, crashed)"""
    out, err = answer["stdout"], answer["stderr"]
    crashed = bool(err)
    if crashed:
        if not special and out == b"" and b"MemoryError" in err:
            return b"SKIP-TOO-LARGE\n", True
        out = out + err + b"CRASH"
    if not special:
        if out.startswith(b"START TEST\r\n"):
            out = out[len(b"START TEST\r\n"):]
        else:
            crashed = True
    return normalize(out), crashed


class Features:
    """What the board has, from the feature checks' outputs ({check file: output}) and target_info.py's."""

    def __init__(self, outputs, cpython_byteorder):
        self.outputs = outputs
        self.has = {name: outputs.get(name) == want for name, want in CHECKS.items()}
        self.revops = outputs.get("reverse_ops.py") != b"TypeError\n"
        self.endian = outputs.get("byteorder.py") == cpython_byteorder
        # platform arch arch_flags build thread float_prec unicode; CircuitPython's platform has spaces
        info = outputs.get("target_info.py", b"").split()
        self.platform = b" ".join(info[:-6]).decode() if len(info) >= 7 else "?"
        self.float_prec = int(info[-2]) if len(info) >= 7 and info[-2].isdigit() else 0

    def skipped(self):
        """The tests skipped by path whatever their name (run-tests.py's skip_tests for a board)."""
        out = set(NOT_ON_BOARDS)
        if self.float_prec < 32:
            out.update(BELOW_FP32)
        if self.float_prec < 64:
            out.update(BELOW_FP64)
        if not self.has["slice.py"]:
            out.update(SLICE_USERS)
        if not self.has["complex.py"]:
            out.update(NO_COMPLEX)
        return out

    def skip_reason(self, test):
        """Why run-tests.py would skip ``test`` ('basics/x.py') here, or None."""
        if test in self.skipped():
            return "skipped on this build by run-tests.py"
        name = os.path.splitext(os.path.basename(test))[0]
        rules = (
            (name.startswith(("native_", "viper_")), "native_check.py"),
            (name.startswith("int_big") or name.endswith("_intbig"), "int_big.py"),
            (name.startswith("int_64") or name.endswith("_int64"), "int_64.py"),
            (name.startswith("bytearray") or name.endswith("_bytearray"), "bytearray.py"),
            (name.startswith(("set_", "frozenset")) or name.endswith("_set"), "set_check.py"),
            ("slice" in name, "slice.py"),
            (name.startswith(("async_", "asyncio_")) or name.endswith("_async"), "async_check.py"),
            (name.startswith("const"), "const.py"),
            (name.startswith("string_fstring"), "fstring.py"),
            (name.startswith("asm"), "inlineasm_thumb.py"),
        )
        for applies, check in rules:
            if applies and not self.has[check]:
                return "no %s on this build" % check[:-3]
        if "reverse_op" in name and not self.revops:
            return "no reverse operators on this build"
        if name.endswith("_endian") and not self.endian:
            return "byte order differs from CPython's"
        return None


class Expected:
    """A test's expected output: its .exp file, else CPython's output (kept for the run)."""

    def __init__(self, root, python=None):
        self.root = root
        self.python = python or os.environ.get("MICROPY_CPYTHON3") or sys.executable
        self._cpython = {}

    def of(self, test):
        exp = os.path.join(self.root, test + ".exp")
        if os.path.isfile(exp):
            with open(exp, "rb") as f:
                return f.read()
        if test not in self._cpython:
            self._cpython[test] = self.cpython(os.path.join(self.root, test))
        return self._cpython[test]

    def cpython(self, path):
        """CPython's output; a crash is tried once more (a host under load has timed one out)."""
        for _ in range(2):
            out = self._cpython_once(path)
            if not out.startswith(b"CPYTHON3 CRASH:"):
                break
        return out

    def _cpython_once(self, path):
        env = {"PYTHONPATH": os.path.join(self.root, "testlib"), "PATH": os.environ.get("PATH", ""),
               "LANG": "en_US.UTF-8"}
        try:
            r = subprocess.run([self.python, "-BS", path], cwd=os.path.dirname(path), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300, check=False)
        except subprocess.TimeoutExpired:
            return b"CPYTHON3 CRASH:\ntimed out\n"
        out = r.stdout if r.returncode == 0 else b"CPYTHON3 CRASH:\n" + r.stdout
        return out.replace(b"\r\n", b"\n")


def regex_lines(expected, output):
    """run-tests.py's pattern matching for REGEX_OUTPUT tests: each .exp line a pattern ('########' any
    whole lines); a matched output line becomes the .exp line.  Returns the output so rewritten."""
    pats = [(line, None if line == b"########\n" else re.compile(_pattern(line)))
            for line in expected.splitlines(keepends=True)]
    lines = [line + b"\n" for line in output.split(b"\n")]
    if output.endswith(b"\n"):
        lines = lines[:-1]
    i = 0
    for k, (line, pat) in enumerate(pats):
        if pat is None:
            nxt = pats[k + 1][1] if k + 1 < len(pats) else None
            skip = 0
            while i + skip < len(lines) and not (nxt is not None and nxt.match(lines[i + skip])):
                skip += 1
            if i + skip >= len(lines):
                lines[i] = b"######## FAIL\n"
                break
            del lines[i:i + skip]
            lines.insert(i, b"########\n")
        elif pat.match(lines[i]):
            lines[i] = line
        i += 1
        if i >= len(lines):
            break
    return b"".join(lines)


def _pattern(line):
    out, escape = [], False
    for c in line.decode("utf8"):
        if escape:
            escape = False
            out.append(c)
        elif c == "\\":
            escape = True
        elif c in "()[]{}.*+^$":
            out.append("\\" + c)
        else:
            out.append(c)
    if out and out[-1] == "\n":
        out[-1] = "\r*\n"
    return "".join(out).encode("utf8")


def verdict(test, answer, expected):
    """(kind, reason, output) of a test run; ``expected`` a callable giving its expected output."""
    if answer.get("error"):
        return CRASH, answer["error"], None
    output, _crashed = device_output(answer)
    if output == b"SKIP\n":
        return SKIP, "the test printed SKIP", output
    if output == b"SKIP-TOO-LARGE\n":
        return SKIP, "too large (MemoryError before it began)", output
    want = expected()
    if test in REGEX_OUTPUT:
        output = regex_lines(want, output)
    if output == want:
        return PASS, "", output
    return FAIL, first_difference(want, output), output


def first_difference(want, got):
    """One line: where the output first departs from the expected one."""
    a, b = want.splitlines(), got.splitlines()
    for n, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if x != y:
            return "line %d: expected %r, got %r" % (n, x[:80], y[:80])
    if len(a) > len(b):
        return "output ends at line %d; expected next %r" % (len(b), a[len(b)][:80])
    return "extra output at line %d: %r" % (len(a) + 1, b[len(a)][:80])
