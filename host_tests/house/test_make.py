"""The Makefile as a fresh clone meets it: the firmware targets, their checks, and a .venv that
repairs itself whole (tools/venv_check.py).

Each test runs ``make`` in a copy of the tracked tree (a fresh clone's files, no build/, no
vendor-local/) whose ``.venv/bin/python`` hands over to this Python: the real environment is only
read, never installed into.
"""

import os
import subprocess
import sys
import textwrap

import pytest
from clones import clone, make
from runners import ROOT

CHECK = os.path.join(ROOT, "tools", "venv_check.py")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return clone(str(tmp_path_factory.mktemp("clone")))


# ------------------------------------------------------------------ the firmware targets
def test_make_build_and_deploy_from_a_fresh_clone(tmp_path):
    project = clone(str(tmp_path / "clone"))
    r = make(project, "build", "CP=9")
    assert r.returncode == 0, r.stdout + r.stderr
    assert os.path.isfile(os.path.join(project, "build", "CIRCUITPY", "code.py"))
    drive = tmp_path / "drive"
    drive.mkdir()
    r = make(project, "deploy", "CIRCUITPY=%s" % drive)  # no board's drive: nothing written
    assert r.returncode != 0 and "not a CircuitPython drive" in r.stderr and os.listdir(drive) == []
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit PyBadge\n")
    (drive / "code.py").write_text("print('mine')\n")
    r = make(project, "deploy", "CIRCUITPY=%s" % drive)
    assert r.returncode != 0 and "FORCE=1" in r.stderr
    assert (drive / "code.py").read_text() == "print('mine')\n"
    r = make(project, "deploy", "CIRCUITPY=%s" % drive, "FORCE=1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (drive / "code.py.bak").read_text() == "print('mine')\n"
    built = files_under(os.path.join(project, "build", "CIRCUITPY"))
    ours = {"boot_out.txt", "code.py.bak", ".sultan-deploy.json"}
    assert [f for f in files_under(str(drive)) if f not in ours] == built and "code.py" in built


def files_under(top):
    return sorted(os.path.relpath(os.path.join(d, f), top) for d, _dirs, files in os.walk(top) for f in files)


def test_a_build_out_in_a_missing_folder_is_still_refused(project, tmp_path):
    out = tmp_path / "nowhere" / "CIRCUITPY"
    tool = os.path.join(project, "tools", "build_circuitpy.py")
    r = subprocess.run([sys.executable, tool, "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 2 and "no folder" in r.stderr and len(r.stderr.splitlines()) == 1
    assert not os.path.exists(out.parent)


def test_make_wokwi_web_from_a_fresh_clone(project):
    r = make(project, "wokwi-web")
    assert r.returncode == 0, r.stdout + r.stderr
    assert os.path.isfile(os.path.join(project, "build", "wokwi-web", "code.py"))


UF2, BOOTROM = "CIRCUITPYTHON_UF2=", "RP2040_BOOTROM="


@pytest.mark.parametrize("args, line", [
    (["emulate"], "make emulate: no CircuitPython 9.x UF2 for the Pico in vendor-local/"),
    (["emulate", "CP=8"], "make emulate: no CircuitPython 8.x UF2 for the Pico in vendor-local/"),
    (["emulate", UF2 + "x.uf2"], "make emulate: CIRCUITPYTHON_UF2=x.uf2: no such file"),
    (["emulate", UF2 + "Makefile"], "make emulate: no RP2040 bootrom (bootrom*.bin or bootrom.js)"),
    (["emulate", UF2 + "Makefile", BOOTROM + "x.bin"], "make emulate: RP2040_BOOTROM=x.bin: no such file"),
    (["emulate", UF2 + "Makefile", BOOTROM + "Makefile", "COMPARE=1"],
     'usage: make emulate COMPARE=1 DEAL=n KEYS="..."'),
    (["emulate", UF2 + "Makefile", BOOTROM + "Makefile", "COMPARE=1", "DEAL=7", "KEYS=RIGHT DOWN*9!"],
     "make emulate: COMPARE needs a screenshot a key (NAME or NAME*n): "
     "DOWN*9! is a burst, which takes no screenshots"),
    (["wokwi"], "make wokwi: no CircuitPython 9.x UF2 for the Pico in vendor-local/"),
    (["bench-device"], "make bench-device: no CircuitPython 10.x/9.x/8.x UF2 for the Pico in vendor-local/"),
    (["bench-device", "BENCH_UF2=Makefile", "RP2040_BOOTROM=x.bin"],
     "make bench-device: RP2040_BOOTROM=x.bin: no such file"),
])
def test_the_firmware_targets_say_what_is_missing_in_one_line_before_building(tmp_path, args, line):
    """Even with no .venv at all (a fresh clone): the check comes before minutes of installing."""
    project = clone(str(tmp_path), venv=False)
    r = make(project, *args)
    assert r.returncode == 2
    assert r.stdout.startswith(line) and len(r.stdout.splitlines()) == 1, r.stdout
    assert "make wokwi" not in r.stdout or args[0] == "wokwi"
    assert not os.path.exists(os.path.join(project, ".venv"))
    assert not os.path.exists(os.path.join(project, "tools", "emulate", "node_modules"))  # no npm ci
    assert not os.path.exists(os.path.join(project, "build"))


# ------------------------------------------------------------------ the .venv's own check
def dist(site, name, version, files=(), requires=(), record_extra=()):
    """A fake installed distribution in ``site``: its dist-info, and ``files`` written."""
    info = os.path.join(site, "%s-%s.dist-info" % (name, version))
    os.makedirs(info)
    meta = ["Metadata-Version: 2.1", "Name: " + name, "Version: " + version]
    meta += ["Requires-Dist: " + r for r in requires]
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("\n".join(meta) + "\n")
    for rel in files:
        os.makedirs(os.path.dirname(os.path.join(site, rel)), exist_ok=True)
        open(os.path.join(site, rel), "w").close()
    with open(os.path.join(info, "RECORD"), "w") as f:
        for rel in list(files) + list(record_extra) + [os.path.basename(info) + "/METADATA"]:
            f.write("%s,,\n" % rel)


@pytest.fixture
def site(tmp_path):
    """Fake distributions: alpha 1.0 needs beta>=2 and, only on no real platform, gamma."""
    site = str(tmp_path / "site")
    dist(site, "alpha", "1.0", ["alpha/__init__.py", "alpha/data.bin"],
         requires=["beta>=2", 'gamma; sys_platform == "no-such-platform"', 'delta; extra == "docs"'],
         record_extra=["alpha/__pycache__/__init__.cpython-311.pyc"])
    dist(site, "beta", "2.1", ["beta.py"])
    return site


def venv_check(site, requirements, *modules):
    req = os.path.join(site, "requirements.txt")
    with open(req, "w") as f:
        f.write(textwrap.dedent(requirements))
    env = dict(os.environ, PYTHONPATH=site)
    return subprocess.run([sys.executable, CHECK, req, *modules], capture_output=True, text=True, env=env)


def test_venv_check_passes_a_whole_environment(site):
    r = venv_check(site, "# pinned\nalpha==1.0  # the one\n", "alpha")
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_venv_check_finds_the_files_a_distribution_lost_and_names_it_for_reinstalling(site):
    os.remove(os.path.join(site, "alpha", "data.bin"))
    r = venv_check(site, "alpha==1.0\n")
    assert r.returncode == 1 and r.stdout == "alpha==1.0\n"
    assert "alpha 1.0: 1 of its files are gone (alpha/data.bin)" in r.stderr


def test_venv_check_finds_a_wrong_version_and_a_missing_or_old_requirement(site):
    r = venv_check(site, "alpha==1.1\n")
    assert r.returncode == 1 and r.stdout == "" and "alpha: 1.0 is installed, want ==1.1" in r.stderr
    os.remove(os.path.join(site, "beta.py"))
    r = venv_check(site, "alpha==1.0\n")
    assert r.returncode == 1 and r.stdout == "beta==2.1\n"
    os.rename(os.path.join(site, "beta-2.1.dist-info"), os.path.join(site, "zz-gone"))
    dist(site, "beta", "1.5", ["beta.py"])
    r = venv_check(site, "alpha==1.0\n")
    assert r.returncode == 1 and "beta: 1.5 is installed, want >=2 (alpha 1.0 requires it)" in r.stderr
    os.rename(os.path.join(site, "beta-1.5.dist-info"), os.path.join(site, "zz-gone-too"))
    r = venv_check(site, "alpha==1.0\n")
    assert r.returncode == 1 and "beta>=2: not installed (alpha 1.0 requires it)" in r.stderr


def test_venv_check_finds_a_module_that_does_not_import(site):
    r = venv_check(site, "alpha==1.0\n", "alpha", "no_such_module_here")
    assert r.returncode == 1 and "import no_such_module_here: ModuleNotFoundError" in r.stderr


def test_venv_check_passes_this_environment():
    req = os.path.join(ROOT, "requirements.txt")
    r = subprocess.run([sys.executable, CHECK, req, "sultan", "sultan_host"], capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")


def test_make_reinstalls_when_a_pinned_distribution_lost_files(project, tmp_path):
    """A pygame whose record is intact but whose files are gone: make's check sees it and the .venv's
    recipe runs again, with the forced reinstall (make -n: shown, not run)."""
    sim = "python -m sultan_host.desktop.sim"
    r = make(project, "-n", "sim")
    assert r.returncode == 0 and sim in r.stdout and "pip install" not in r.stdout, r.stdout + r.stderr
    site = str(tmp_path / "shadow")
    from importlib import metadata

    dist(site, "pygame", metadata.version("pygame"), record_extra=["pygame/__init__.py"])
    r = make(project, "-n", "sim", env={"PYTHONPATH": site})
    assert r.returncode == 0 and sim in r.stdout
    assert "pip install --disable-pip-version-check -q -r requirements.txt" in r.stdout
    assert "--force-reinstall --no-deps" in r.stdout
    shown = subprocess.run([os.path.join(project, ".venv", "bin", "python"), "tools/venv_check.py",
                            "requirements.txt"], cwd=project, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=site))
    assert shown.stdout == "pygame==%s\n" % metadata.version("pygame")
