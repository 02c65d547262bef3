"""The small things a new user met: ``sultan --version``, ``make help``, the installed names in the usage
lines, ``--gap`` listed, wokwi.toml's own commands, the SAMD51 emulator's Unicorn as an extra."""

import os
import re
import subprocess
import sys
import tomllib

import sultan
from runners import ROOT

BIN = os.path.dirname(sys.executable)


def run(*cmd, **kw):
    return subprocess.run(list(cmd), capture_output=True, text=True, timeout=300, **kw)


def test_sultan_version():
    r = run(os.path.join(BIN, "sultan"), "--version")
    assert r.returncode == 0 and r.stdout == "sultan %s\n" % sultan.__version__, (r.stdout, r.stderr)


def test_make_help_lists_the_targets():
    r = run("make", "help", cwd=ROOT)
    assert r.returncode == 0, r.stderr
    for target in ("make help", "make test", "make sim", "make build", "make deploy", "make bundle",
                   "make wokwi", "make emulate"):
        assert target in r.stdout, target


def test_usage_lines_say_the_installed_names_and_screenshot_lists_gap():
    for name in ("sultan-sim", "sultan-screenshot"):
        r = run(os.path.join(BIN, name), "--help", env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
        assert r.returncode == 0 and r.stdout.startswith("usage: %s " % name), r.stdout[:80]
    shot = run(os.path.join(BIN, "sultan-screenshot"), "--help").stdout
    assert re.search(r"^  --gap GAP +with --gif: ms from one key to the next", shot, re.M), shot
    r = run(os.path.join(BIN, "sultan-screenshot"), "--gap", "300", "--out", os.devnull + ".png")
    assert r.returncode == 2 and r.stderr == "screenshot: --gap needs --gif (a PNG is one frame)\n", r.stderr


def test_wokwi_tomls_commands_work_as_written():
    with open(os.path.join(ROOT, "wokwi.toml"), encoding="utf-8") as f:
        commands = [ln[1:].split("#")[0].split() for ln in f if ln.startswith("#   make ")]
    assert len(commands) == 2
    for cmd in commands:
        r = run(*cmd, "-n", cwd=ROOT)  # what make would run, nothing run
        assert r.returncode == 0, r.stderr
        uf2 = re.search(r'--circuitpython "([^"]*)"', r.stdout).group(1)
        assert uf2.startswith("vendor-local/adafruit-circuitpython-raspberry_pi_pico-"), uf2
        if os.path.isdir(os.path.join(ROOT, "vendor-local")) and len(cmd) > 2:
            assert os.path.isfile(os.path.join(ROOT, uf2)), uf2  # the file the comment names is where it says


def test_samd51_comes_with_unicorn_as_an_extra():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    with open(os.path.join(ROOT, "requirements.txt"), encoding="utf-8") as f:
        pin = [ln.strip() for ln in f if ln.startswith("unicorn==")]
    assert project["optional-dependencies"]["emulator"] == pin


def test_samd51_without_unicorn_says_so_in_one_line(tmp_path):
    # a Python whose `import unicorn` fails: a stand-in package that raises as a missing one does
    fake = tmp_path / "unicorn"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ModuleNotFoundError('no unicorn', name='unicorn')\n")
    uf2 = tmp_path / "fw.uf2"
    uf2.write_bytes(b"\0" * 512)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))

    def samd51(*args):
        cmd = [sys.executable, "-m", "samd51", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env)

    help_run = samd51("--help")
    assert help_run.returncode == 0 and "--uf2" in help_run.stdout
    r = samd51("--uf2", str(uf2))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        "samd51: needs Unicorn 2.1.4 (pip install 'sultan[emulator]', or make)"]
