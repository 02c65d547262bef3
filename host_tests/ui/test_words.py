"""Russian and English: the two word files agree, every word fits its line, the menu switches the
language, the choice is saved, and only one language sits in the heap (MicroPython VM)."""

import glob
import os
import re

import pytest
from runners import run_micropython
from sultan.rules import engine
from sultan.ui import keys, lines, menu, pages, words
from sultan.ui import modes as modes_module
from sultan.ui.controller import S_RUSSIAN, Controller
from sultan.ui.modes import MENU, OVER
from sultan_host import word_lines
from sultan_host.desktop import sheets
from sultan_host.paths import LIB

UI = os.path.join(LIB, "sultan", "ui")
KEPT = ("text", "help", "menu", "menutext", "refusals")
LANGS = (words.EN, words.RU)
MESSAGE_COLS = 26  # the status and message lines at 160x128 (a "%c" card is drawn 4 columns wide)
PANEL_COLS = 25  # a line of the overlay panel
PANEL_LINES = 8  # the panel's lines (sultan.ui.build._PANEL_LINES), at both sizes
LABEL_COLS = 22  # a menu label: the panel's 25 less the "> " before it and the "^"/"v" after
BIG = 999999999  # the largest figure a message shows (a deal number)


def read(lang):
    """{section: [(key, text)] for the kept sections, [line] for the pages}, parsed here on its own."""
    out = {}
    for name in (words.FILES[lang], pages.PAGES[lang]):
        sec = None
        for line in open(os.path.join(UI, name), encoding="utf-8").read().split("\n"):
            if line.startswith("["):
                sec = line[1:line.index("]")]
                out[sec] = []
            elif sec in KEPT:
                if line and not line.startswith("#"):
                    key, _, text = line.partition(" ")
                    out[sec].append((key, text))
            elif sec is not None:
                out[sec].append(line)
    for sec in out:
        while sec not in KEPT and out[sec] and not out[sec][-1]:
            out[sec].pop()
    return out


FILES = {lang: read(lang) for lang in LANGS}


def keys_of(sec):
    return [k for k, _ in FILES[words.EN][sec]]


def text(lang, key):
    return dict(FILES[lang]["text"])[key]


def width(s):
    """Columns ``s`` takes on the message line: a "%c" is a card 4 columns wide."""
    return len(s.replace("%c", "CCCC"))


NUMBER = {"REDEAL": 3, "REFUSED": 99}  # the %d of these is a pass, a refusal code; elsewhere a deal number


def fill(fmt, s="x", d=BIG):
    """``fmt`` with its figures at their widest: every %d ``d``, every %s ``s``."""
    return re.sub(r"%[ds]", lambda m: str(d) if m.group() == "%d" else s, fmt).replace("%%", "%")


@pytest.fixture(autouse=True)
def english_after():
    yield
    words.use(words.EN)


# ------------------------------------------------------------------------------- the two files


def test_both_files_have_the_same_sections_and_keys_in_the_same_order():
    en, ru = FILES[words.EN], FILES[words.RU]
    assert list(en) == list(ru) and list(en)[:len(KEPT)] == list(KEPT)
    for sec in KEPT:
        assert [k for k, _ in en[sec]] == [k for k, _ in ru[sec]], sec
    for sec in list(en)[len(KEPT):]:
        assert len(en[sec]) == len(ru[sec]), sec  # a page: line for line


def test_the_keys_are_the_names_the_code_uses():
    refusals = {v: n for n, v in vars(engine).items() if re.fullmatch(r"R_[A-Z_]+", n) and isinstance(v, int)}
    assert keys_of("refusals") == ["R_OK"] + [refusals[i] for i in range(1, len(refusals) + 1)]
    m_items = {v: n for n, v in vars(menu).items() if re.fullmatch(r"M_[A-Z_]+", n)}
    assert keys_of("menu") == [m_items[i] for i in range(len(m_items))]
    names = ("PLAY", "MENU", "DEAL", "RULES_PAGE", "OVER", "STATS_PAGE")
    modes = {getattr(modes_module, n): n for n in names}
    assert keys_of("help") == [modes[i] for i in range(len(modes))]
    # [text] and [menutext] (the menu's own): sultan.ui.lines numbers them, generated from the file
    assert [n for n in vars(lines) if n.startswith("TEXT_")] == ["TEXT_" + k for k in keys_of("text")]
    menu_text = [n for n in vars(lines) if n.startswith("MENU_TEXT_")]
    assert menu_text == ["MENU_TEXT_" + k for k in keys_of("menutext")]
    assert all(getattr(lines, "TEXT_" + k) == i for i, k in enumerate(keys_of("text")))
    assert all(getattr(lines, "MENU_TEXT_" + k) == i for i, k in enumerate(keys_of("menutext")))


def test_the_line_numbers_are_generated_from_the_words_file():
    with open(word_lines.WORDS, encoding="utf-8") as f:
        want = word_lines.render(f.read())
    with open(word_lines.MODULE, encoding="utf-8") as f:
        assert f.read() == want, "lib/sultan/ui/lines.py is out of date: run tools/word_lines.py"
    assert word_lines.main(["--check"]) == 0
    # a key added, moved or dropped changes the numbers
    en = open(word_lines.WORDS, encoding="utf-8").read()
    moved = en.replace("UNDONE undone\nREDONE redone\n", "REDONE redone\nUNDONE undone\n")
    assert moved != en and "TEXT_REDONE = const(9)\n" in word_lines.render(moved)
    assert "TEXT_REDONE = const(10)\n" in want


def test_each_line_number_is_said_somewhere():
    # every line is said by a module naming it (no private copy of a number: the fold makes them free)
    said = set()
    for path in glob.glob(os.path.join(LIB, "sultan", "**", "*.py"), recursive=True):
        if path == word_lines.MODULE:
            continue
        source = open(path, encoding="utf-8").read()
        said |= set(re.findall(r"\b((?:MENU_)?TEXT_[A-Z][A-Z_0-9]*)\b", source))
        assert not re.search(r"^_(?:MENU_)?TEXT_[A-Z_0-9]+ = const", source, re.M), path
    said |= {"TEXT_RULESET1"}  # said as TEXT_RULESET0 + rules
    assert {n for n in vars(lines) if n.startswith(("TEXT_", "MENU_TEXT_"))} <= said


def test_the_placeholders_agree():
    def specs(s):
        return re.findall(r"%[cds%]", s)

    for sec in KEPT:
        for (key, en), (_, ru) in zip(FILES[words.EN][sec], FILES[words.RU][sec], strict=True):
            assert specs(en) == specs(ru), (key, en, ru)
    for sec in list(FILES[words.EN])[len(KEPT):]:
        for en, ru in zip(FILES[words.EN][sec], FILES[words.RU][sec], strict=True):
            assert specs(en) == specs(ru), (sec, en, ru)


def test_words_reads_what_the_files_say():
    for lang in LANGS:
        words.use(lang)
        assert words.LANG == lang
        read = (words.TEXT, words.HELP, words.menu_items(), words.menu_text(), words.refusals())
        for sec, got in zip(KEPT, read, strict=True):
            assert list(got) == [t for _, t in FILES[lang][sec]], sec
        for sec in list(FILES[lang])[len(KEPT):]:
            assert list(pages.page(sec)) == FILES[lang][sec], sec
    assert words.use(7) == words.EN  # an unknown language reads as English


def test_the_refusals_are_read_at_the_first_refusal_in_the_language_then_in_use():
    try:
        words.use(words.RU)
        assert words.REFUSALS is None and words.TEXT is not None  # a start holds none of them
        ctrl = Controller(engine.Game(deal=7), settings=S_RUSSIAN)
        assert ctrl.lang == words.RU and words.REFUSALS is None
        assert words.refusal(engine.R_EMPTY) == "там нет карты" and words.REFUSALS is not None
        words.use(words.EN)
        assert words.REFUSALS is None and words.refusal(engine.R_EMPTY) != "там нет карты"
    finally:
        words.use(words.EN)


def test_only_glyphs_the_screen_draws():
    ok = set(sheets.CHARS)  # what the glyph sheet holds (textgrid draws any other as "?")
    for lang in LANGS:
        for sec, items in FILES[lang].items():
            for item in items:
                s = item[1] if sec in KEPT else item
                assert set(s) <= ok, (lang, sec, s, set(s) - ok)


def test_the_russian_rules_page_speaks_the_seeds_words():
    page = "\n".join(FILES[words.RU]["rules0"])
    assert "«Пирамида султана»" in page
    for word in ("султан", "диван", "колод"):
        assert word in page.lower(), word


# ------------------------------------------------------------------------------ it all fits


@pytest.mark.parametrize("lang", LANGS, ids=("en", "ru"))
def test_the_longest_string_of_each_kind_fits(lang):
    words.use(lang)
    names = [words.ruleset_name(r) for r in range(len(engine.RULES_NAMES))]
    longest_name = max(names, key=len)
    # messages (the message line): every figure at its widest
    skip = {"REDEALS_LEFT", "ON", "OFF", "RULESET0", "RULESET1", "STATUS_LONG", "STATUS_SHORT", "STATUS_TINY",
            "TAG_LONG", "TAG_SHORT"}  # parts of other lines, checked there
    said = FILES[lang]["text"] + FILES[lang]["menutext"]
    msgs = [fill(t, longest_name, NUMBER.get(k, BIG)) for k, t in said if k not in skip]
    msgs += [fill(t) for _, t in FILES[lang]["refusals"]] + [t for _, t in FILES[lang]["help"]]
    widest = max(msgs, key=width)
    assert width(widest) <= MESSAGE_COLS, widest
    # the status line: the largest figures, classic rules, the winnable star
    g = engine.Game(deal=BIG, rules=engine.RULES_CLASSIC)
    for rules in (0, 1):
        g.new_deal(BIG, rules=rules)
        g.missed = 999
        for star in (False, True):
            s = words.status_text(g, MESSAGE_COLS, star)
            assert len(s) <= MESSAGE_COLS and "#%d" % BIG in s and "999" in s, s
    # menu labels, with the longest state after them
    ctrl = Controller(engine.Game(deal=7), sound=True, settings=S_RUSSIAN if lang == words.RU else 0)
    ctrl.open(MENU)
    labels = []
    for i in range(len(ctrl.menu.items)):
        for flip in (False, True):
            ctrl.autoplay = ctrl.sound_on = ctrl.lights_on = flip
            for rules in range(len(engine.RULES_NAMES)):
                ctrl.rules = rules
                labels.append(ctrl.menu.label(ctrl, i))
    assert len(max(labels, key=len)) <= LABEL_COLS, max(labels, key=len)
    # the pages at their fullest
    from sultan.saves.stats import Stats

    st = Stats()
    st.record(0, True, 95)
    st.record(1, True, 95)
    for row in st.rows:
        row[1:8] = [0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 95, 0xFFFFFF, 0xFFFFFF, engine.MAX_ACTIONS]  # the largest
    done = engine.Game(deal=BIG)
    done.moves = done.placed = done.missed = 99999  # wider than any game
    for r in range(len(engine.RULES_NAMES)):  # the Rules pages scroll: only their width counts
        page = pages.rules_lines(r)
        assert len(max(page, key=len)) <= PANEL_COLS, max(page, key=len)
    shown = [pages.stats_lines(st, r) for r in range(len(engine.RULES_NAMES))] + [pages.stats_lines(None, 0)]
    shown += [pages.over_lines(done), pages.deal_lines("9" * 9, 8)]
    for page in shown:
        assert len(page) <= PANEL_LINES, page
        assert len(max(page, key=len)) <= PANEL_COLS, max(page, key=len)


# ---------------------------------------------------------------------- the switch and the save


def test_the_menu_switches_the_language_and_every_word_follows():
    from play_keys import menu_keys

    g = engine.Game(deal=7)
    ctrl = Controller(g, sound=True)
    assert ctrl.lang == words.EN and ctrl.settings() == 0  # English is the default
    for k in menu_keys(ctrl, menu.M_LANGUAGE):
        ctrl.press(k)
    assert ctrl.lang == words.RU == words.LANG and ctrl.message == "язык: русский"
    assert ctrl.settings() == S_RUSSIAN and ctrl.mode != MENU
    assert ctrl.menu.label(ctrl, ctrl.menu.at(menu.M_SOUND)) == "Звук: вкл"
    assert ctrl.menu.label(ctrl, ctrl.menu.at(menu.M_LANGUAGE)) == "Language / Язык"  # the same in both
    assert words.HELP[MENU] == "A: выбрать  B: закрыть"
    assert words.status_text(g, MESSAGE_COLS) == "#7 круг 1/3 0/95 промах 0"
    ctrl.press(keys.B)
    assert ctrl.message == "нечего отменять"
    # settings carry it: a controller built with them speaks Russian; without, English again
    again = Controller(engine.Game(deal=8), settings=ctrl.settings())
    assert again.lang == words.RU and words.refusals()[engine.R_EMPTY] == "там нет карты"
    assert (again.sound_on, again.lights_on, again.rules) == (True, True, engine.RULES_SEED)
    for k in menu_keys(again, menu.M_LANGUAGE):
        again.press(k)
    assert again.lang == words.EN and again.message == "language: English" and again.settings() == 0
    Controller(engine.Game(deal=9), settings=S_RUSSIAN)
    Controller(engine.Game(deal=9))
    assert words.LANG == words.EN


def test_the_won_panel_and_the_pages_in_russian():
    from play_keys import script_for

    deal = next(d for d in range(1, 400) if engine.Game(deal=d).autoplay() == engine.WON)
    ctrl = Controller(engine.Game(deal=deal), settings=S_RUSSIAN)
    for k in script_for(deal, 1):
        ctrl.press(k)
    assert ctrl.mode == OVER
    lines = pages.over_lines(ctrl.game)
    assert lines[0] == "   * ПОБЕДА! *" and lines[2] == "собрано  95 из 95"
    assert pages.stats_lines(None, 0)[2] == "не ведётся без сохранений"
    assert pages.rules_lines(1)[0] == "КЛАССИЧЕСКИЕ ПРАВИЛА"


def test_the_language_is_saved_with_the_other_settings_and_old_saves_read_as_english(tmp_path):
    from play_keys import menu_keys
    from sultan import app
    from sultan.saves import reader, record
    from sultan.saves.stats import Stats
    from sultan_host import scripted
    from sultan_host.desktop.headless import HeadlessDisplay
    from sultan_host.filesave import open_store

    path = str(tmp_path / "save.bin")

    def run(script):
        return app.run(HeadlessDisplay(160, 128), scripted.ScriptedKeys(script), deal=7,
                       console=lambda *a: None, idle=0, store=open_store(path))

    twin = Controller(engine.Game(deal=7))
    ctrl = run(" ".join(keys.NAMES[k] for k in menu_keys(twin, menu.M_LANGUAGE)) + " START")
    assert ctrl.lang == words.RU and ctrl.game.moves == 1
    words.use(words.EN)
    back = run("")  # power on again
    assert back.lang == words.RU == words.LANG and back.game.moves == 1
    data = open(path, "rb").read()
    assert any(data[i:i + 2] == b"SU" and data[i + 3] & S_RUSSIAN << 1 for i in (0, 1024)), "flags bit 5"
    # a record from before the language (bit 5 clear) is English, and a switch off stays off
    buf = bytearray(record.SLOT_MAX)
    n = record.encode(buf, 1, Stats(), 1, 0, engine.Game(deal=3), settings=1)
    assert buf[3] >> 1 == 1 and reader.decode(bytes(buf[:n])).settings == 1
    old = Controller(engine.Game(deal=3), settings=reader.decode(bytes(buf[:n])).settings)
    assert old.lang == words.EN and not old.sound_on


# -------------------------------------------------------------------------- the heap (MicroPython)

HEAP = """
import gc
from sultan.rules import engine
from sultan.ui import keys, pages, words
from sultan.ui.controller import Controller
from sultan.ui import menu as M

class Stats:
    def get(self, rules):
        return {"played": 9, "won": 4, "lost": 5, "best_placed": 90, "streak": 1, "best_streak": 2,
                "fewest_moves": 180}

def free():
    gc.collect()
    return gc.mem_free()

def press(*ks):
    for k in ks:
        ctrl.press(k)

def choose(item):
    press(keys.SELECT)
    while ctrl.menu.items[ctrl.menu.index] != item:
        press(keys.DOWN)
    press(keys.A)

g = engine.Game(deal=7)
base = free()
ctrl = Controller(g, stats=Stats())
after_start = free()
seen = [0] * 12
for n in range(12):
    choose(M.M_RULES)
    pages.rules_lines(g.rules)          # what the screen draws
    press(keys.B)
    choose(M.M_STATS)
    pages.stats_lines(ctrl.stats, g.rules)
    press(keys.B)
    choose(M.M_CHOOSE)
    pages.deal_lines("".join(str(d) for d in ctrl.editor.digits), ctrl.editor.pos)
    press(keys.UP, keys.B)
    choose(M.M_LANGUAGE)
    pages.over_lines(g)
    choose(M.M_LANGUAGE)
    press(keys.SELECT, keys.B)
    seen[n] = free()
words.use(words.EN); en = free()
words.use(words.RU); ru = free()
words.use(words.EN); en2 = free()
print(base - after_start, min(seen[2:]), max(seen[2:]), en, ru, en2,
      "sultan.ui.deal_editor" in __import__("sys").modules)
"""


@pytest.mark.micropython
def test_pages_opened_and_closed_leave_the_heap_as_it_was_and_one_language_sits_in_it():
    out = run_micropython(HEAP, heap="256K").split()
    start, low, high, en, ru, en2 = (int(x) for x in out[:6])
    assert out[6] == "False"  # the digit editor went when it closed
    assert high == low, (low, high)  # twelve rounds of every page, the editor and two switches
    assert en2 == en  # back to English: the Russian words are gone
    assert 0 < en - ru < 3000, (en, ru)  # only the words differ (Russian takes two bytes a letter)
    assert start < 20000, start


def test_a_section_is_cut_from_the_file_bytes(tmp_path):
    """``words.read`` and ``words.section``: a words section keeps its texts (comments, blank lines
    and keys left out), a pages section its lines as they stand (trailing blanks left out);
    CRLF files read the same; a section may open the file; a missing one is a ValueError."""
    text = ("[text]\n# a comment\nA one\n\nB  two\nC\n[page]\nline 1\n\n  indented\n# kept\n\n\n"
            "[last]\nZ Сдача «7»\n")
    for eol in ("\n", "\r\n"):
        p = tmp_path / ("w%d.txt" % len(eol))
        p.write_bytes(text.replace("\n", eol).encode())
        data = words.read(str(p))
        assert words.section(data, "text") == ("one", " two", "")
        assert words.section(data, "page", False) == ("line 1", "", "  indented", "# kept")
        assert words.section(data, "last") == ("Сдача «7»",)
        with pytest.raises(ValueError):
            words.section(data, "tex")
