"""One test on the Pico's CircuitPython (of the same major) in tools/emulate, to tell a build option from a
fault of the SAMD51 machine: a test that fails the same way there fails for the firmware's build, not for
the machine.

The test is CIRCUITPY's code.py (testlib's skip_if beside it), after a pause that lets the emulator's USB
console open, and ``print('START TEST')`` as run-tests.py puts it; the output is what the console shows
between that line and 'Code done running'.
"""

import os
import re
import subprocess
import tempfile

from sultan_host.board.sources import ROOT

EMULATE = os.path.join(ROOT, "tools", "emulate", "emulate.js")
PICO_UF2 = re.compile(r"^adafruit-circuitpython-raspberry_pi_pico-en_US-(\d+)\.(\d+)\.(\d+)\.uf2$")
PREFIX = b"import time;time.sleep(2);print('START TEST')"   # one line: the test's line numbers stay
SCENARIO = "name: one test\nversion: 1\nsteps:\n  - wait-serial: \"Code done running\"\n"
ESCAPES = re.compile(rb"\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)|\x1b\[[0-9;]*[A-Za-z]")


VENDOR = os.path.join(ROOT, "vendor-local")


def firmware(major, vendor=VENDOR):
    """(the Pico's newest CircuitPython ``major``.x UF2, the RP2040 bootrom) in vendor-local/, or None."""
    found = []
    for name in os.listdir(vendor) if os.path.isdir(vendor) else ():
        m = PICO_UF2.match(name)
        if m and int(m.group(1)) == major:
            found.append((tuple(int(g) for g in m.groups()), name))
    rom = os.path.join(vendor, "bootrom.js")
    if not found or not os.path.isfile(rom):
        return None
    return os.path.join(vendor, max(found)[1]), rom


def run(test_path, skip_if, uf2, bootrom, timeout_s=600):
    """The test's output on the Pico (line ends as the console gave them), or None if it never ended."""
    from sultan_host.board.wokwi import lay_uf2

    with open(test_path, "rb") as f:
        script = f.read()
    with tempfile.TemporaryDirectory(prefix="cptests-pico-") as work:
        tree = os.path.join(work, "CIRCUITPY")
        os.makedirs(tree)
        with open(os.path.join(tree, "code.py"), "wb") as f:
            f.write(PREFIX + (b"" if script.startswith(b"#") else b"\n") + script)
        with open(skip_if, "rb") as src, open(os.path.join(tree, "skip_if.py"), "wb") as f:
            f.write(src.read())
        with open(os.path.join(work, "scenario.yaml"), "w") as f:
            f.write(SCENARIO)
        image = os.path.join(work, "t.uf2")
        lay_uf2(uf2, tree, image, quiet=True)
        log = os.path.join(work, "serial.txt")
        # exit 1 when the console shows a traceback: the log tells
        subprocess.run(["node", EMULATE, "--firmware", image, "--bootrom", bootrom, "--scenario",
                            os.path.join(work, "scenario.yaml"), "--out", os.path.join(work, "out"),
                            "--no-shots", "--serial-log", log, "--timeout-s", str(timeout_s)],
                           capture_output=True, timeout=timeout_s + 60, check=False)
        text = open(log, "rb").read() if os.path.isfile(log) else b""
    return console_output(text)


def console_output(text):
    """The lines between START TEST and the 'Code done running' line (less the newline the supervisor puts
    before it), terminal escapes taken out, the traceback's file named as the raw REPL names it."""
    text = ESCAPES.sub(b"", text).replace(b'File "code.py"', b'File "<stdin>"')
    start = text.find(b"START TEST\r\n")
    end = text.find(b"Code done running", start)
    if start < 0 or end < 0:
        return None
    out = text[start + len(b"START TEST\r\n"):end]
    return out[:-2] if out.endswith(b"\r\n") else out   # the supervisor's newline before 'Code done


def compare(rec, pico_output, expected):
    """How a test that did not pass on the SAMD51 (``rec``, its output in rec['output']) ran on the Pico:
    'same' (a build option, not the machine), 'passes' (the machine's fault, or the image's), 'differs'
    or 'no end'."""
    if pico_output is None:
        return "no end"
    pico = pico_output.replace(b"\r\n", b"\n")
    if pico == expected:
        return "passes"
    ours = rec.get("output", "").encode("utf-8")
    if ours.endswith(b"CRASH"):
        ours = ours[:-len(b"CRASH")]
    return "same" if pico == ours else "differs"


def annotate(runs, root, expected, log):
    """Each failed or crashed test on the Pico's CircuitPython of the image's major (once a major); its
    records get 'pico' (same, passes, differs, no end) and 'pico_uf2'."""
    seen = {}
    skip_if = os.path.join(root, "testlib", "skip_if.py")
    for image in runs:
        major = int(image["image"].split("-")[1].split(".")[0])
        fw = firmware(major)
        if fw is None:
            log("--pico: no Pico CircuitPython %d UF2 and bootrom.js in vendor-local/" % major)
            continue
        for rec in image["results"]:
            if rec["kind"] not in ("fail", "crash"):
                continue
            key = (major, rec["test"])
            if key not in seen:
                seen[key] = run(os.path.join(root, rec["test"]), skip_if, *fw)
            rec["pico"] = compare(rec, seen[key], expected.of(rec["test"]))
            rec["pico_uf2"] = os.path.basename(fw[0])
            rec["pico_output"] = (seen[key] or b"")[-2000:].decode("utf-8", "replace")
            log("%s %s on the Pico's %d.x: %s" % (image["image"], rec["test"], major, rec["pico"]))
