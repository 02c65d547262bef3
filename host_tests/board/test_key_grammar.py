"""One key grammar (sultan_host.keywords) for the host's pictures and for COMPARE as for the emulators: the
host's screenshot plays START*3 as three STARTs, and COMPARE refuses, before any run, a word that takes no
screenshot of its own."""

import pytest
from PIL import Image
from sultan_host.board import compare_png
from sultan_host.desktop import screenshot


def shot(tmp_path, keys, capsys):
    out = tmp_path / ("%d.png" % len(list(tmp_path.iterdir())))
    rc = screenshot.main(["--deal", "7", "--keys", keys, "--out", str(out)])
    return rc, out, capsys.readouterr()


def test_the_host_screenshot_takes_the_emulators_words(tmp_path, capsys):
    rc, counted, said = shot(tmp_path, "START*3 right*2!", capsys)
    assert rc == 0 and "5 keys" in said.out, said
    rc, spelt, _ = shot(tmp_path, "START START START RIGHT RIGHT", capsys)
    rc_none, none, _ = shot(tmp_path, "", capsys)
    assert rc == rc_none == 0
    picture = Image.open(counted).tobytes()
    assert picture == Image.open(spelt).tobytes()
    assert picture != Image.open(none).tobytes()  # the keys did something


@pytest.mark.parametrize("keys, reason", [
    ("START RESET", "RESET is no key press"),
    ("A?", "A? is no key press"),
    ("WAIT:100", "WAIT:100 is no key press"),
    ("JUMP", "unknown key JUMP"),
])
def test_the_host_screenshot_refuses_words_it_cannot_play_in_one_line(tmp_path, capsys, keys, reason):
    rc, out, said = shot(tmp_path, keys, capsys)
    assert rc == 2 and not out.exists()
    assert said.err.startswith("screenshot: --keys: " + reason) and said.err.count("\n") == 1, said.err


def test_compare_expands_the_words_that_take_a_screenshot_each():
    assert compare_png.expand("RIGHT a*2, START") == ["RIGHT", "A", "A", "START"]


@pytest.mark.parametrize("keys, reason", [
    ("RIGHT DOWN*9!", "DOWN*9! is a burst, which takes no screenshots"),
    ("A? RIGHT", "A? is no key press"),
    ("RIGHT RESET", "RESET is no key press"),
    ("RIGHT CUT@50", "CUT@50 is no key press"),
    ("RIGHT FOO", "unknown key FOO"),
])
def test_compare_refuses_before_the_run_a_word_with_no_screenshot(capsys, keys, reason):
    with pytest.raises(SystemExit) as e:
        compare_png.main(["--check-keys", keys])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1, err
    assert err.startswith("compare_png: COMPARE needs a screenshot a key (NAME or NAME*n): " + reason), err
    assert compare_png.main(["--check-keys", "RIGHT A*2 START"]) == 0
