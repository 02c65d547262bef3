"""The wheel a plain ``pip install .`` makes, not the editable install ``make`` uses.

The wheel must hold every file of the packages under lib/ and host/ (the data files they open
beside themselves too); installed into a fresh venv with its runtime dependencies at the pins of
requirements.txt, its three commands must work from anywhere, headless.  Built from a copy of the
working tree, so that setuptools' build/ and egg-info never land in the repository.
"""

import glob
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
from PIL import Image
from runners import ROOT
from sultan_host.desktop.screenshot import render

PACKAGE_ROOTS = ("lib", "host")  # pyproject.toml's [tool.setuptools.packages.find] where
DEAL, SIZE, KEYS = 7, "320x240", "RIGHT A"


def tree_files(root):
    """Paths (as inside the wheel) of the files under lib/ and host/, bytecode and hidden files aside."""
    found = set()
    for top in PACKAGE_ROOTS:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if d != "__pycache__" and not d.startswith(".")]
            for fn in filenames:
                if not fn.endswith(".pyc") and not fn.startswith("."):
                    found.add(os.path.relpath(os.path.join(dirpath, fn), base).replace(os.sep, "/"))
    return found


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A copy of what the wheel is built from (others may be adding files to the tree meanwhile)."""
    src = tmp_path_factory.mktemp("src")
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), src)
    for top in PACKAGE_ROOTS:
        shutil.copytree(os.path.join(ROOT, top), src / top,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    return str(src)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, source):
    dist = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), source],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    (path,) = glob.glob(str(dist / "*.whl"))
    return path


def test_the_wheel_holds_every_file_of_the_packages(wheel, source):
    with zipfile.ZipFile(wheel) as z:
        inside = {n for n in z.namelist() if not n.split("/", 1)[0].endswith(".dist-info")}
    tree = tree_files(source)
    assert {"sultan/ui/words_en.txt", "sultan/ui/sprites.dat", "sultan/rules/winnable_seed.tbl"} <= tree
    assert sorted(tree - inside) == [], "left out of the wheel: add their pattern to package-data"
    assert sorted(inside - tree) == []


def run(cmd, cwd, env, ok=True):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if ok:
        assert r.returncode == 0, "%s: exit %d\n%s" % (cmd, r.returncode, r.stderr[-3000:])
    return r


def test_the_wheel_in_a_fresh_venv_plays_draws_and_runs_the_sim(wheel, tmp_path):
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path, None)
    bin_ = venv / "bin"
    pins = os.path.join(ROOT, "requirements.txt")
    pip = [str(bin_ / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run(pip + ["-c", pins, wheel], tmp_path, None)  # the runtime dependencies at requirements.txt's pins
    # Away from the repository, with nothing of it on the path, and no display and no user data touched.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "DISPLAY", "WAYLAND", "SDL_"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path / "data"))
    where = run([str(bin_ / "python"), "-c", "import sultan, sultan_host; print(sultan.__file__); "
                 "print(sultan_host.__file__)"], tmp_path, env).stdout.split()
    assert len(where) == 2 and all(p.startswith(str(venv)) for p in where), where

    usage = run([str(bin_ / "sultan"), "--help"], tmp_path, env).stdout
    assert usage.startswith("usage: sultan ")
    argv = ["play", "--deal", str(DEAL), "--rules", "classic", "--auto", "--json"]
    played = run([str(bin_ / "sultan")] + argv, tmp_path, env).stdout
    here = run([sys.executable, "-m", "sultan_host.cli.main"] + argv, ROOT, None).stdout
    assert played == here and '"deal": %d' % DEAL in played

    shot = tmp_path / "shot.png"
    run([str(bin_ / "sultan-screenshot"), "--deal", str(DEAL), "--size", SIZE, "--keys", KEYS,
         "--out", str(shot)], tmp_path, env)
    expected, _ctrl = render(DEAL, SIZE, KEYS)
    with Image.open(shot) as img:
        assert img.size == expected.size
        assert img.convert("RGB").tobytes() == expected.convert("RGB").tobytes()

    sim_shot = tmp_path / "sim.png"
    sim = run([str(bin_ / "sultan-sim"), "--deal", str(DEAL), "--size", SIZE, "--keys", KEYS, "--zoom", "1",
               "--frames", "3", "--no-save", "--screenshot", str(sim_shot)], tmp_path, env)
    assert "SULTAN READY board=desktop_sim deal=%d" % DEAL in sim.stdout
    with Image.open(sim_shot) as img:
        assert img.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    assert not os.path.exists(tmp_path / "data")  # --no-save: nothing written for the user
