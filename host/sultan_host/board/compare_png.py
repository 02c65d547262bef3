"""Compare screenshots pixel for pixel in RGB565: the emulator's against the host's.

    python tools/emulate/compare_png.py A.png B.png [--diff DIFF.png]
    python tools/emulate/compare_png.py --shots build/emulate --deal 7 --size 160x128 --keys "RIGHT A"
    python tools/emulate/compare_png.py --check-keys "RIGHT A*2"     (make emulate COMPARE=1, before the run)

(``python -m sultan_host.board.compare_png`` alike; the tests import it.)

The first form compares two PNGs.  The second takes an emulator run's screenshots (``00-ready.png``,
``01-RIGHT.png``, ... as ``emulate.js --keys`` writes them) and renders the host's screenshot after
the same keys (``sultan_host.desktop.screenshot --deal --size --keys``) for each one.  Colours are compared as
the display receives them, RGB565 (the top 5/6/5 bits of each channel), so PNG rounding never counts.
Prints one line per pair: ``same`` or how many pixels differ and where.  Exit status 0 when every
pair is the same, 1 when one differs, 2 for a bad argument (one line).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

SHOT = re.compile(r"^(\d{2,})-([A-Za-z]+)\.png$")


class ArgParser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "compare_png: %s\n" % message[:300])


def rgb565(path):
    """(width, height, list of RGB565 ints) of a PNG."""
    from PIL import Image

    with Image.open(path) as img:
        img = img.convert("RGB")
        w, h = img.size
        data = img.tobytes()
    px = [
        ((data[i] >> 3) << 11) | ((data[i + 1] >> 2) << 5) | (data[i + 2] >> 3)
        for i in range(0, len(data), 3)
    ]
    return w, h, px


def compare(a, b, diff=None):
    """A dict: size_a, size_b, differ (pixel count, None when the sizes differ), box (x0, y0, x1, y1)."""
    wa, ha, pa = rgb565(a)
    wb, hb, pb = rgb565(b)
    out = {"size_a": (wa, ha), "size_b": (wb, hb), "differ": None, "box": None, "rows": []}
    if (wa, ha) != (wb, hb):
        return out
    bad = [i for i in range(len(pa)) if pa[i] != pb[i]]
    out["differ"] = len(bad)
    if bad:
        xs = [i % wa for i in bad]
        ys = [i // wa for i in bad]
        out["box"] = (min(xs), min(ys), max(xs), max(ys))
        out["rows"] = sorted(set(ys))
    if diff:
        from PIL import Image

        img = Image.new("RGB", (wa, ha))
        img.putdata([(255, 0, 0) if pa[i] != pb[i] else _dim(pa[i]) for i in range(len(pa))])
        img.save(diff)
    return out


def _dim(c):
    return (((c >> 11) & 31) * 2, ((c >> 5) & 63), (c & 31) * 2)


def describe(r):
    if r["differ"] is None:
        return "sizes differ: %dx%d and %dx%d" % (r["size_a"] + r["size_b"])
    w, h = r["size_a"]
    if not r["differ"]:
        return "same (%dx%d, RGB565)" % (w, h)
    x0, y0, x1, y1 = r["box"]
    return "%d of %d pixels differ (RGB565), within x %d..%d, y %d..%d" % (r["differ"], w * h, x0, x1, y0, y1)


def host_screenshot(deal, size, keys, out):
    """The host's picture (``sultan_host.desktop.screenshot``, as tools/screenshot.py) after ``keys``
    (a list of key names); raises on failure."""
    cmd = [sys.executable, "-m", "sultan_host.desktop.screenshot", "--deal", str(deal), "--size", size]
    cmd += ["--keys", " ".join(keys), "--out", out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(
            "the host's screenshot failed: %s" % (proc.stderr.strip() or proc.stdout.strip())[-500:]
        )


def emulator_shots(folder):
    """[(index, key name or None for 00-ready, path)] of an emulate.js --keys run, in order."""
    found = []
    for fn in os.listdir(folder):
        m = SHOT.match(fn)
        if m:
            idx = int(m.group(1))
            found.append((idx, None if idx == 0 else m.group(2), os.path.join(folder, fn)))
    return sorted(found)


def compare_run(folder, deal, size, keys=None, diff_dir=None):
    """[(shot name, keys so far, result)] for each emulator screenshot against the host's.

    ``keys``: the --keys words given to emulate.js (NAME*n expanded); by default the keys are read
    from the screenshot names."""
    shots = emulator_shots(folder)
    if keys is not None:
        names = expand(keys)
        if len(names) != len(shots) - 1:
            raise ValueError("%d keys but %d screenshots in %s" % (len(names), len(shots) - 1, folder))
    else:
        names = [k for _i, k, _p in shots[1:]]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (_idx, _key, path) in enumerate(shots):
            host = os.path.join(tmp, "host-%03d.png" % n)
            host_screenshot(deal, size, names[:n], host)
            diff = os.path.join(diff_dir, "diff-" + os.path.basename(path)) if diff_dir else None
            results.append((os.path.basename(path), names[:n], compare(path, host, diff)))
    return results


def expand(keys):
    """The key names played before each screenshot of a --keys run (NAME*n expanded): one screenshot a key,
    so every word must be NAME or NAME*n (sultan_host.keywords); ValueError says which word is not and why."""
    from sultan_host import keywords

    try:
        return keywords.presses(keys, bursts=False)
    except keywords.WordError as e:
        raise ValueError("COMPARE needs a screenshot a key (NAME or NAME*n): %s" % e) from None


def main(argv=None):
    ap = ArgParser(prog="compare_png", description=__doc__.split("\n\n")[0])
    ap.add_argument("pngs", nargs="*", help="two PNG files")
    ap.add_argument("--diff", help="write a picture of the differing pixels (red)")
    ap.add_argument("--shots", help="an emulate.js --keys output folder")
    ap.add_argument("--deal", type=int, help="the deal the emulator ran (SULTAN_DEAL)")
    ap.add_argument("--size", choices=("160x128", "320x240"), help="the emulator's window")
    ap.add_argument("--keys", help="the --keys given to emulate.js (default: read from the shot names)")
    ap.add_argument("--check-keys", metavar="KEYS",
                    help="only check, before a run, that KEYS can be compared (else exit 2 with the reason)")
    args = ap.parse_args(argv)
    if args.check_keys is not None:
        try:
            expand(args.check_keys)
        except ValueError as e:
            ap.error(str(e))
        return 0
    if args.shots is None:
        if len(args.pngs) != 2:
            ap.error("give two PNG files, or --shots DIR --deal N --size WxH")
        for p in args.pngs:
            if not os.path.isfile(p):
                ap.error("%s: no such file" % p[:200])
        r = compare(args.pngs[0], args.pngs[1], args.diff)
        print(describe(r))
        return 0 if r["differ"] == 0 else 1
    if args.pngs:
        ap.error("--shots takes no PNG arguments")
    if not os.path.isdir(args.shots):
        ap.error("--shots %s: not a directory" % args.shots[:200])
    if args.deal is None or not 1 <= args.deal <= 999_999_999 or args.size is None:
        ap.error("--shots needs --deal (1..999999999) and --size")
    if not emulator_shots(args.shots):
        ap.error("--shots %s: no NN-KEY.png screenshots" % args.shots[:200])
    try:
        results = compare_run(args.shots, args.deal, args.size, args.keys, args.diff)
    except ValueError as e:
        ap.error(str(e))
    except RuntimeError as e:
        print("compare_png: %s" % e, file=sys.stderr)
        return 1
    same = 0
    for name, _keys, r in results:
        print("%-18s %s" % (name, describe(r)))
        same += r["differ"] == 0
    print("%d of %d screens the same as the host's" % (same, len(results)))
    return 0 if same == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
