"""The suite on one image: boot it once, run the feature checks, then every test in a fresh copy.

Images are found by name in vendor-local/<board>/ (``adafruit-circuitpython-<board>-en_US-<X.Y.Z>.uf2``)
and ordered by their version's numbers, never by how the names sort.
"""

import os
import re
import time

from sultan_host.board.sources import ROOT
from sultan_host.cptests import judge
from sultan_host.cptests.device import Booted

VENDOR = os.path.join(ROOT, "vendor-local")
BOARDS = ("pybadge", "pygamer")
UF2 = re.compile(r"^adafruit-circuitpython-([a-z0-9_]+)-en_US-(\d+)\.(\d+)\.(\d+)\.uf2$")
FEATURE_CHECKS = ("target_info.py", "byteorder.py", "reverse_ops.py") + tuple(judge.CHECKS)
SIM_S, CPU_S = 60, 120    # a test's limits: simulated seconds, host CPU seconds


class Image:
    def __init__(self, board, version, path):
        self.board, self.version, self.path = board, version, path
        self.name = "%s-%s" % (board, ".".join(map(str, version)))

    def __repr__(self):
        return "Image(%s)" % self.name


def images(boards=BOARDS, vendor=VENDOR, cp=None):
    """The images of ``boards`` found in ``vendor``/<board>/, oldest version first; ``cp`` a major."""
    out = []
    for board in boards:
        folder = os.path.join(vendor, board)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
            m = UF2.match(name)
            if m and m.group(1) == board:
                version = tuple(int(g) for g in m.groups()[1:])
                if cp is None or version[0] == cp:
                    out.append(Image(board, version, os.path.join(folder, name)))
    return sorted(out, key=lambda i: (boards.index(i.board), i.version))


def board_files(root):
    """What goes on CIRCUITPY beside nothing else: testlib's skip_if, which some tests import."""
    with open(os.path.join(root, "testlib", "skip_if.py"), "rb") as f:
        return {"skip_if.py": f.read()}


class Suite:
    """One image's run: ``booted`` the machine at its raw REPL, ``expected`` shared between images."""

    def __init__(self, image, root, expected, tree, log=None, sim_s=SIM_S, cpu_s=CPU_S):
        self.image, self.root, self.expected = image, root, expected
        self.log = log or (lambda text: None)
        self.sim_s, self.cpu_s = sim_s, cpu_s
        self.booted = Booted(image.path, image.board, files=board_files(root), tree=tree)
        self.log("%s: at the raw REPL after %.2f s simulated, %.1f s wall: %s" % (
            image.name, self.booted.boot_ms / 1000, self.booted.boot_wall_s, self.booted.version()))
        self.features = self._features()

    def _features(self):
        outputs = {}
        for check in FEATURE_CHECKS:
            with open(os.path.join(self.root, "feature_check", check), "rb") as f:
                answer = self.booted.run(f.read(), self.sim_s * 1000, self.cpu_s)
            outputs[check] = judge.device_output(answer, special=True)[0]
        cpython = self.expected.cpython(os.path.join(self.root, "feature_check", "byteorder.py"))
        features = judge.Features(outputs, cpython)
        self.log("%s: platform %s, float %d-bit, %s" % (
            self.image.name, features.platform, features.float_prec,
            ", ".join(("" if has else "no ") + name[:-3] for name, has in sorted(features.has.items()))))
        return features

    def run_one(self, test):
        """{test, kind, reason, sim_ms, cpu_s, wall_s, output (when not a pass)}."""
        why = self.features.skip_reason(test)
        if why:
            return {"test": test, "kind": judge.SKIP, "reason": why, "sim_ms": 0.0, "cpu_s": 0.0,
                    "wall_s": 0.0}
        with open(os.path.join(self.root, test), "rb") as f:
            script = f.read()
        script = judge.START + (b"" if script.startswith(b"#") else b"\n") + script
        answer = self.booted.run(script, self.sim_s * 1000, self.cpu_s)
        kind, reason, output = judge.verdict(test, answer, lambda: self.expected.of(test))
        rec = {"test": test, "kind": kind, "reason": reason, "sim_ms": answer["sim_ms"],
               "cpu_s": answer["cpu_s"] and round(answer["cpu_s"], 3), "wall_s": round(answer["wall_s"], 3)}
        if kind in (judge.FAIL, judge.CRASH):
            # whole (up to 64 KB): the Pico's comparison needs all of it
            rec["output"] = (output if output is not None else answer["stdout"] + answer["stderr"])[
                -65536:].decode("utf-8", "replace")
        return rec

    def run(self, tests):
        started = time.time()
        results = []
        for n, test in enumerate(tests, 1):
            rec = self.run_one(test)
            results.append(rec)
            self.log("%s %4d/%d %-5s %s%s" % (self.image.name, n, len(tests), rec["kind"], test,
                                              "  (%s)" % rec["reason"] if rec["kind"] != judge.PASS else ""))
        return {"image": self.image.name, "uf2": os.path.basename(self.image.path),
                "version_line": self.booted.version(), "boot_wall_s": round(self.booted.boot_wall_s, 2),
                "boot_sim_s": round(self.booted.boot_ms / 1000, 3), "platform": self.features.platform,
                "float_prec": self.features.float_prec, "wall_s": round(time.time() - started, 1),
                "results": results}
