"""make deploy writes only onto a board's drive, and never loses a code.py it did not write: a folder whose
boot_out.txt CircuitPython wrote, or one it deployed to before; a foreign
code.py only with --force, and then kept as code.py.bak."""

import os

import pytest
from sultan_host.board import deploy

BOOT_OUT = "Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit PyBadge with samd51j19\nBoard ID:pybadge\n"


@pytest.fixture
def build(tmp_path):
    src = tmp_path / "CIRCUITPY-build"
    (src / "lib").mkdir(parents=True)
    (src / "code.py").write_text("import launch\n")
    (src / "lib" / "game.py").write_text("X = 1\n")
    return src


def run(build, drive, *extra):
    return deploy.main(["--to", str(drive), "--from", str(build)] + list(extra))


def snapshot(top):
    return {os.path.relpath(os.path.join(d, f), top): open(os.path.join(d, f), "rb").read()
            for d, _dirs, files in os.walk(top) for f in files}


def refused(build, drive, capsys, *words):
    """Deploying onto ``drive`` is refused: exit 1, one line with each of ``words``, the drive unchanged."""
    before = snapshot(drive)
    assert run(build, drive) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(w in err for w in words), err
    assert snapshot(drive) == before


@pytest.mark.parametrize("boot_out", [None, "hello\n", "\x00\xff garbage CircuitPython", "CircuitPython?\n"])
def test_a_folder_that_is_no_board_and_was_never_deployed_to_is_left_alone(tmp_path, build, capsys, boot_out):
    drive = tmp_path / "somewhere"
    drive.mkdir()
    (drive / "notes.txt").write_text("mine\n")
    if boot_out is not None:
        (drive / "boot_out.txt").write_text(boot_out)
    refused(build, drive, capsys, "not a CircuitPython drive")


def test_a_board_is_written_and_then_known_by_its_marker(tmp_path, build, capsys):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    assert run(build, drive) == 0
    assert (drive / "code.py").read_text() == "import launch\n"
    assert (drive / deploy.MARKER).exists()
    (drive / "boot_out.txt").unlink()  # a copy of the drive, say: deployed to before, so it is ours
    (build / "code.py").write_text("import launch  # new\n")
    assert run(build, drive) == 0
    assert (drive / "code.py").read_text() == "import launch  # new\n"
    assert not [n for n in os.listdir(drive) if n.startswith("code.py.bak")]


def test_a_foreign_code_py_is_replaced_only_with_force_and_kept(tmp_path, build, capsys):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    (drive / "code.py").write_text("print('mine')\n")
    refused(build, drive, capsys, "--force", "did not write")
    assert run(build, drive, "--force") == 0
    assert (drive / "code.py").read_text() == "import launch\n"
    assert (drive / "code.py.bak").read_text() == "print('mine')\n"


def test_a_code_py_edited_since_the_deploy_is_not_ours_any_more(tmp_path, build, capsys):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    assert run(build, drive) == 0
    (drive / "code.py").write_text("print('edited on the board')\n")
    (drive / "code.py.bak").write_text("an older backup\n")
    assert run(build, drive) == 1
    assert (drive / "code.py").read_text() == "print('edited on the board')\n"
    assert run(build, drive, "--force") == 0
    assert (drive / "code.py.bak").read_text() == "an older backup\n"
    assert (drive / "code.py.bak2").read_text() == "print('edited on the board')\n"


def test_a_drives_settings_toml_is_never_written(tmp_path, build, capsys):
    """The drive's settings.toml may hold the user's Wi-Fi credentials: a build's never replaces it."""
    (build / "settings.toml").write_text('SULTAN_DEAL = "5"\n')
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    (drive / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\nCIRCUITPY_WIFI_PASSWORD = "secret"\n')
    assert run(build, drive) == 0
    assert (drive / "settings.toml").read_text().startswith('CIRCUITPY_WIFI_SSID = "home"')
    assert (drive / "code.py").exists() and "settings.toml" not in capsys.readouterr().out


def test_a_test_build_is_refused_whole(tmp_path, build, capsys):
    """make wokwi DEAL=5 leaves a test build (its manifest lists the settings): nothing of it is deployed."""
    manifest = build.parent / (build.name + ".json")
    manifest.write_text('{"circuitpython": 9, "settings": {"SULTAN_DEAL": "5"}}')
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    refused(build, drive, capsys, "test build (SULTAN_DEAL=5): make build")


def test_a_read_only_file_on_the_drive_is_never_replaced(tmp_path, build, capsys):
    """The saves' rule, by the mode bits: root, who may write anything, leaves it too."""
    drive = tmp_path / "CIRCUITPY"
    (drive / "lib").mkdir(parents=True)
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    (drive / "lib" / "game.py").write_text("X = 0  # mine, read-only\n")
    os.chmod(drive / "lib" / "game.py", 0o444)
    refused(build, drive, capsys, "lib/game.py is read-only", "nothing written")


def test_the_bundle_and_the_wokwi_image_leave_a_read_only_output_alone(tmp_path, monkeypatch):
    from sultan_host.board import bundle, wokwi
    from sultan_host.board.sources import BuildError

    dist = tmp_path / "dist"
    dist.mkdir()
    zipped = dist / bundle.zip_name(bundle.source_version())
    zipped.write_bytes(b"")
    bundle.write_zip(str(zipped), [("Sultan/", None)])  # a bundle of ours, then made read-only
    os.chmod(zipped, 0o444)
    before = zipped.read_bytes()
    monkeypatch.setattr(bundle, "entries", lambda *a, **k: pytest.fail("built before the check"))
    with pytest.raises(BuildError, match="is read-only: left alone"):
        bundle.make_bundle(str(dist), str(tmp_path / "work"), quiet=True)
    assert zipped.read_bytes() == before
    uf2 = tmp_path / "sultan.uf2"
    uf2.write_bytes(b"mine")
    os.chmod(uf2, 0o444)
    with pytest.raises(SystemExit, match="is read-only: left alone"):
        wokwi.lay_uf2("firmware.uf2", str(tmp_path), str(uf2), quiet=True)
    assert uf2.read_bytes() == b"mine"
