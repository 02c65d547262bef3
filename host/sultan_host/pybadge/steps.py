"""The --keys words as steps: tools/emulate/lib/keys.js run through node, so the grammar is written once.

keys.js needs no npm package (only its own code), so a bare ``node`` (20, on every machine) runs it; the
steps come back as JSON, the same list the Pico's emulate.js walks.  The random keys of a soak come from
the same place (lib/run.js's randomKeys: the same mix for the same seed as the Pico's).
"""

import json
import os
import shutil
import subprocess

from sultan_host.board.sources import ROOT

LIB = os.path.join(ROOT, "tools", "emulate", "lib")
KEYPAD_SCAN_MS = 20  # keypad.ShiftRegisterKeys' default interval (keys.js says it too)
# key names in the order keypad numbers the PyBadge's keys (sultan.ui.keys.NAMES)
NAMES = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")

_SCRIPT = r"""
const { keySteps } = require(process.argv[1] + '/keys.js');
const { randomKeys } = require(process.argv[1] + '/run.js');
const a = JSON.parse(process.argv[2]);
const list = a.names.map((name) => ({ id: name, name }));
const buttons = {
  byName: (n) => list.find((b) => b.name === n.toUpperCase() || b.id === n),
  names: () => list.map((b) => b.name),
};
let keys = a.keys;
if (a.random) keys += ' ' + randomKeys(a.random, a.seed);
try {
  process.stdout.write(JSON.stringify({ keys, steps: keySteps(keys, buttons, a.keyMs, a.gapMs, a.shots) }));
} catch (e) {
  process.stdout.write(JSON.stringify({ error: e.message }));
}
"""


class WordError(ValueError):
    """A word keys.js refuses (its message), or no node to ask."""


def key_steps(keys, key_ms=60, gap_ms=100, shots=True, random_keys=0, seed=1):
    """(the words run, [steps]) for ``keys`` (+ ``random_keys`` seeded ones), as emulate.js gets them."""
    node = shutil.which("node")
    if node is None:
        raise WordError("no node (Node.js 20) on PATH: the --keys words come from tools/emulate/lib/keys.js")
    arg = {"keys": keys, "names": list(NAMES), "keyMs": key_ms, "gapMs": gap_ms, "shots": shots,
           "random": random_keys, "seed": seed}
    proc = subprocess.run([node, "-e", _SCRIPT, LIB, json.dumps(arg)], capture_output=True, text=True,
                          timeout=60)
    if proc.returncode != 0:
        raise WordError("node keys.js failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1][:200])
    out = json.loads(proc.stdout)
    if "error" in out:
        raise WordError(out["error"])
    return out["keys"], out["steps"]


def ms(duration):
    """A step's delay ("100ms") in ms."""
    text = str(duration)
    if text.endswith("ms"):
        return float(text[:-2])
    if text.endswith("s"):
        return float(text[:-1]) * 1000.0
    return float(text)
