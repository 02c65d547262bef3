"""The device benchmark's and the power cuts' plans for the PyBadge: its menu has the Sound
and Lights switches, two items more than the Pico's, so its key plans walk that menu to the same items.
No emulator: the plans are replayed on the game's own Controller here."""

from sultan.rules import engine
from sultan.ui import keys as K
from sultan.ui.controller import Controller
from sultan.ui.switches import S_MOTION_OFF
from sultan_host.bench import powercut
from sultan_host.bench.device import plan, tables


def kinds_without_scrolls(steps):
    return [k for _w, k, _l in steps if k != "menu scroll"]


def test_the_pybadge_plan_reaches_the_picos_items_through_its_longer_menu():
    pico, badge = plan.plan(7), plan.plan(7, sound=True)
    assert kinds_without_scrolls(badge) == kinds_without_scrolls(pico)
    assert [w for w, _k, _l in badge] != [w for w, _k, _l in pico]  # other walks to the same items
    assert kinds_without_scrolls(plan.anim_plan(sound=True)) == kinds_without_scrolls(plan.anim_plan())
    # the Pico's walks on the PyBadge's menu open other items: the pages' keys would be other keys
    m = plan.Model(7, sound=True)
    assert [m.press(w)[0] for w, _k, _l in pico if "*" not in w] != [k for w, k, _l in pico if "*" not in w]


def settings_after(words, sound):
    ctrl = Controller(engine.Game(deal=powercut.DEAL), lambda: 1, sound=sound, settings=0)
    for w in words:
        if not w.startswith("WAIT:"):
            ctrl.press(K.NAMES.index(w))
    return ctrl.settings()


def test_the_settings_cut_switches_motion_on_the_board_it_was_planned_for():
    kinds = ("first write", "checkpoint", "pass end", "settings", "checkpoint")
    for sound in (False, True):
        trial = powercut.plan(kinds, 1, sound=sound)[3]
        assert settings_after(trial.words, sound) == S_MOTION_OFF
    # the Pico's plan on the PyBadge switches another item (it was Lights: the cut's boot matched no outcome)
    assert settings_after(powercut.plan(kinds, 1)[3].words, True) not in (0, S_MOTION_OFF)


def test_a_configuration_with_a_label_heads_its_column_with_it():
    configs = [{"name": "cp10.2.1-320x240", "version": "10.2.1", "size": "320x240"},
               {"name": "pybadge-9.1.1-160x128", "version": "9.1.1", "size": "160x128",
                "label": "PyBadge CP 9.1.1 160x128"}]
    results = {c["name"]: {"mem_free at READY": "1"} for c in configs}
    assert tables.key_table(configs, results)[0] == "| | CP 10.2.1 320x240 | PyBadge CP 9.1.1 160x128 |"
