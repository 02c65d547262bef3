"""The CIRCUITPY build (tools/build_circuitpy.py), make deploy and the Wokwi image.

Every source file must compile with the target CircuitPython's bytecode compiler, every .mpy must carry
CircuitPython's header, and files whose compiled form differs between MicroPython and CircuitPython
(async/await, native emitters) are refused rather than rewritten.
"""

import os
import struct

import build_circuitpy as bc  # tools/ is on sys.path (conftest)
import deploy_circuitpy
import pytest
import wokwi_image

ROOT = bc.ROOT


@pytest.fixture(scope="module", params=[8, 9])
def built(request, tmp_path_factory):
    cp = request.param
    out = str(tmp_path_factory.mktemp("cp%d" % cp) / "CIRCUITPY")
    manifest = bc.build(cp, out, quiet=True)
    return cp, out, manifest


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _x, fs in os.walk(root) for f in fs)


def test_build_tree(built):
    cp, out, manifest = built
    files = files_under(out)
    assert "code.py" in files
    for profile in ("profile_pybadge", "profile_pygamer", "profile_pico_ili9341"):
        assert profile + ".mpy" in files
    ours = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "lib", "sultan")) if f.endswith(".py"))
    assert (
        sorted(
            f[len("lib/sultan/") : -4] for f in files if f.startswith("lib/sultan/") and f.endswith(".mpy")
        )
        == ours
    )
    assert not [f for f in files if f.endswith(".py") and f != "code.py"], "only code.py stays .py"
    for lib in (
        "adafruit_display_text/bitmap_label.mpy",
        "adafruit_displayio_layout/layouts/grid_layout.mpy",
        "adafruit_ili9341.mpy",
        "adafruit_ticks.mpy",
        "adafruit_bitmap_font/bitmap_font.mpy",
    ):
        assert "lib/" + lib in files, lib
    libs = manifest["libraries"]
    if cp == 8:  # 2.x needs busdisplay (CircuitPython 9); layout 3.x writes const((0.0, 0.0))
        assert libs["adafruit-circuitpython-ili9341"].startswith("1.")
        assert libs["adafruit-circuitpython-displayio-layout"].startswith("2.")
    else:
        assert libs["adafruit-circuitpython-ili9341"].startswith("2.")
    assert not any(n.startswith("adafruit-blinka") or n == "adafruit-circuitpython-typing" for n in libs)
    assert set(manifest["files"]) == set(files)


def test_every_mpy_header(built):
    cp, out, _ = built
    n = 0
    for rel in files_under(out):
        if rel.endswith(".mpy"):
            with open(os.path.join(out, rel), "rb") as f:
                header = f.read(4)
            assert header[:1] == b"C", rel
            assert header[1] == bc.MPY_VERSION[cp], rel
            # v5: feature flags, str unicode on and map-lookup caching off, as CircuitPython 8 is built;
            # v6: no native architecture (bytecode only)
            assert header[2] == (2 if cp == 8 else 0), "%s: flags 0x%02x" % (rel, header[2])
            assert header[3] <= 31, rel
            bc.check_header(header, cp, rel)
            n += 1
    assert n > 30


def test_header_rewrite_changes_only_the_first_byte(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("X = 1\ndef f(a):\n    return [a, X, 'x']\n")
    for cp in (8, 9, 10):
        comp = bc.Compiler(cp)
        rewritten = comp.compile(str(src), "m.py", str(tmp_path / "o.mpy"))
        import subprocess

        subprocess.run([comp.exe, "-o", str(tmp_path / "raw.mpy"), "-s", "m.py", str(src)], check=True)
        raw = (tmp_path / "raw.mpy").read_bytes()
        assert raw[:1] == b"M" and rewritten[:1] == b"C" and raw[1:] == rewritten[1:]


@pytest.mark.parametrize(
    "source",
    [
        "async def f():\n    pass\n",
        "def g():\n    async def h():\n        await x\n",
        "import micropython\n@micropython.native\ndef f():\n    return 1\n",
        "import micropython\n@micropython.viper\ndef f(x: int) -> int:\n    return x\n",
    ],
)
def test_build_refuses_async_and_native(tmp_path, source):
    src = tmp_path / "bad.py"
    src.write_text(source)
    assert bc.refusal(source, "bad.py")
    with pytest.raises(bc.BuildError, match="refusing"):
        bc.Compiler(8).compile(str(src), "bad.py", str(tmp_path / "bad.mpy"))


def test_refusal_leaves_plain_code_alone():
    assert bc.refusal("def f():\n    return 'async'\n# await\nawaiting = 1\n") is None


def test_sources_compile_for_every_target(tmp_path):
    """Our sources through each target's compiler (the build does this too; here without libraries)."""
    files = [
        os.path.join(ROOT, "firmware", f)
        for f in os.listdir(os.path.join(ROOT, "firmware"))
        if f.endswith(".py")
    ]
    files += [
        os.path.join(ROOT, "lib", "sultan", f)
        for f in os.listdir(os.path.join(ROOT, "lib", "sultan"))
        if f.endswith(".py")
    ]
    for cp in (8, 9, 10):
        comp = bc.Compiler(cp)
        for f in files:
            data = comp.compile(f, os.path.basename(f), str(tmp_path / "o.mpy"))
            bc.check_header(data[:4], cp, f)


def test_py_only_build(tmp_path):
    out = str(tmp_path / "CIRCUITPY")
    manifest = bc.build(10, out, py_only=True, quiet=True)
    files = files_under(out)
    assert not [f for f in files if f.endswith(".mpy")]
    assert "lib/sultan/engine.py" in files and "lib/adafruit_ili9341.py" in files
    assert manifest["compiler"] == "plain .py"


def test_external_mpy_cross_is_used_as_is(tmp_path):
    """MPY_CROSS: a CircuitPython mpy-cross; simulated by a script that writes a C header."""
    fake = tmp_path / "cp-mpy-cross"
    fake.write_text("#!/bin/sh\n# -o OUT -s NAME SRC\nprintf 'C\\006\\000\\037rest' > \"$2\"\n")
    fake.chmod(0o755)
    comp = bc.Compiler(9, str(fake))
    src = tmp_path / "a.py"
    src.write_text("async def f():\n    pass\n")  # allowed: a real CircuitPython compiler handles it
    assert comp.compile(str(src), "a.py", str(tmp_path / "a.mpy")) == b"C\x06\x00\x1frest"


def test_deploy_writes_only_what_changed(tmp_path, built):
    _cp, out, _ = built
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython\n")
    os.makedirs(drive / "lib" / "sultan")
    (drive / "lib" / "sultan" / "engine.py").write_text("# stale source that would shadow engine.mpy\n")
    log = []
    writes, removals = deploy_circuitpy.deploy(out, str(drive), say=log.append)
    assert removals == [os.path.join("lib", "sultan", "engine.py")]
    assert writes[-1] == "code.py", "code.py goes last (auto-reload)"
    assert len(writes) == len(files_under(out))
    assert (drive / "boot_out.txt").exists()
    writes, removals = deploy_circuitpy.deploy(out, str(drive), say=log.append)
    assert writes == [] and removals == []
    (drive / "code.py").write_text("print('changed on the drive')\n")
    writes, _ = deploy_circuitpy.deploy(out, str(drive), dry_run=True, say=log.append)
    assert writes == ["code.py"] and "changed" in (drive / "code.py").read_text()


def fake_circuitpython_uf2(
    path, banner=b"Adafruit CircuitPython 8.2.7 on 2023-10-19; Raspberry Pi Pico with rp2040"
):
    blocks = []
    payload = banner.ljust(256, b"\0")
    for i in range(2):
        head = struct.pack(
            "<IIIIIIII", 0x0A324655, 0x9E5D5157, 0x2000, 0x10000000 + 256 * i, 256, i, 2, 0xE48BFF56
        )
        blocks.append(head + payload + b"\0" * (476 - 256) + struct.pack("<I", 0x0AB16F30))
    path.write_bytes(b"".join(blocks))


def test_wokwi_image(tmp_path):
    fw = tmp_path / "cp.uf2"
    fake_circuitpython_uf2(fw)
    assert wokwi_image.circuitpython_version(str(fw)) == (8, 2, 7)
    out = tmp_path / "sultan.uf2"
    wokwi_image.make_uf2(str(fw), str(out), tree=str(tmp_path / "CIRCUITPY"), quiet=True)
    data = out.read_bytes()
    addrs = sorted(a for a, _p in wokwi_image.uf2_blocks(data))
    assert addrs[0] == 0x10000000
    fs = [a for a in addrs if a >= 0x10000000 + wokwi_image.FS_OFFSET]
    assert fs and fs[0] == 0x10000000 + wokwi_image.FS_OFFSET, "the FAT starts at flash offset 0x100000"
    blocks = dict(wokwi_image.uf2_blocks(data))
    base = 0x10000000 + wokwi_image.FS_OFFSET
    boot = blocks[base] + blocks[base + len(blocks[base])]
    assert boot[510:512] == b"\x55\xaa" and b"FAT" in boot[:90], "a FAT boot sector"


def test_wokwi_image_refuses_other_firmware(tmp_path):
    fw = tmp_path / "mp.uf2"
    fake_circuitpython_uf2(fw, banner=b"MicroPython v1.22.0 on 2023-12-27")
    with pytest.raises(SystemExit, match="banner"):
        wokwi_image.circuitpython_version(str(fw))


def test_wokwi_web(tmp_path):
    out = tmp_path / "web"
    wokwi_image.make_web(str(out))
    names = set(os.listdir(out))
    assert {"diagram.json", "code.py", "profile_pico_ili9341.py", "requirements.txt", "sultan"} <= names
    assert "adafruit_ili9341" in (out / "requirements.txt").read_text()
    assert (out / "sultan" / "engine.py").exists()


def test_deploy_refuses_a_build_for_another_circuitpython(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    src = tmp_path / "CIRCUITPY-build"
    src.mkdir()
    (src / "code.py").write_text("print(1)\n")
    (tmp_path / "CIRCUITPY-build.json").write_text('{"circuitpython": 9}')
    assert deploy_circuitpy.mismatch(str(src), str(drive)) is None  # no boot_out.txt: nothing to go by
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 8.2.7 on 2023-10-19; Adafruit PyBadge\n")
    assert deploy_circuitpy.drive_version(str(drive)) == (8, 2, 7)
    assert "CP=8" in deploy_circuitpy.mismatch(str(src), str(drive))
    assert deploy_circuitpy.main(["--to", str(drive), "--from", str(src)]) == 1
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.1.0 on 2026-01-01; Raspberry Pi Pico\n")
    assert deploy_circuitpy.mismatch(str(src), str(drive)) is None
    assert deploy_circuitpy.main(["--to", str(drive), "--from", str(src)]) == 0
    assert (drive / "code.py").read_text() == "print(1)\n"
