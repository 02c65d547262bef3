"""Idle passes that scan the keys themselves: with no key down, no sound and a lit
screen, a pass sleeps SCAN_MS and calls ``keys.reset()`` (keypad's immediate scan) instead of waking
every 5 ms, and a held key is never played twice.  A stand-in keypad and clock: the clock moves only
when the loop sleeps; the keypad's own scans come every 20 ms after its last scan, as keypad's do."""

from sultan import app
from sultan.nostore import NoStore
from sultan.ui import keys
from sultan.ui.controller import S_MOTION_OFF
from sultan.ui.motion import Animation
from sultan_host.scripted import Event

INTERVAL_MS = 20


class Keypad:
    """Keys pressed and released at planned times; scans as keypad does: every INTERVAL_MS after the
    last scan (in the board's tick interrupt) and at once in ``reset()``, which forgets what it saw."""

    def __init__(self, plan, end_ms):
        self.now = 0.0
        self.plan = list(plan)  # [(ms, key, down)], in order
        self.end_ms = end_ms
        self.down = set()  # the keys down now
        self.seen = set()  # the keys the scanner takes as pressed
        self.queue = []
        self.next_scan = INTERVAL_MS
        self.resets = []
        self.events = self
        self.exhausted = False

    def sleep(self, s):
        self.now += s * 1000
        self._tick()

    def _tick(self):
        while self.plan and self.plan[0][0] <= self.now:
            _t, k, down = self.plan.pop(0)
            (self.down.add if down else self.down.discard)(k)
        while self.next_scan <= self.now:  # the interrupt's scans while the loop slept
            self._scan(self.next_scan)
        self.exhausted = not self.plan and self.now >= self.end_ms

    def _scan(self, at):
        self.next_scan = at + INTERVAL_MS
        for k in sorted(self.down ^ self.seen):
            (self.seen.add if k in self.down else self.seen.discard)(k)
            self.queue.append(Event(k, k in self.down))

    def reset(self):
        self.resets.append(self.now)
        self.seen = set()
        self._scan(self.now)

    def get(self):
        return self.queue.pop(0) if self.queue else None


class Store(NoStore):
    settings = S_MOTION_OFF  # no animation: its frames would wait on a clock that moves only in sleeps


class Quiet(app.Silent):
    def __init__(self, busy=False):
        app.Silent.__init__(self)
        self.is_busy = busy

    def busy(self):
        return self.is_busy


def play(monkeypatch, plan, end_ms, sound=None, scan_ms=None):
    pad = Keypad(plan, end_ms)
    monkeypatch.setattr(app, "ticks_ms", lambda: int(pad.now))
    pad.sleeps = []
    # app's time module only (Blinka's display thread sleeps through the real one)
    monkeypatch.setattr(app, "time", type("T", (), {"sleep": staticmethod(
        lambda s: (pad.sleeps.append((pad.now, s)), pad.sleep(s)))}))
    if scan_ms is not None:
        monkeypatch.setattr(app, "SCAN_MS", scan_ms)
    lines = []
    app.run(_display(), pad, board_id="testboard", deal=7, console=lines.append,
            store=Store(), idle=0.005, sound=sound or Quiet(), scan=pad.reset)
    return pad, [ln.split()[1] for ln in lines[1:]]


def _display():
    from sultan_host.desktop.headless import HeadlessDisplay

    return HeadlessDisplay(160, 128)


def test_with_no_key_down_a_pass_sleeps_scan_ms_and_scans_the_keys_itself(monkeypatch):
    pad, played = play(monkeypatch, [], 2000)
    assert played == [] and {s for _t, s in pad.sleeps} == {app.SCAN_MS / 1000}
    assert len(pad.resets) == len(pad.sleeps) >= 2000 // (app.SCAN_MS + 1)


def test_a_held_key_is_played_once_and_the_passes_poll_until_its_release(monkeypatch):
    pad, played = play(monkeypatch, [(1000, keys.RIGHT, True), (1400, keys.RIGHT, False)], 2000)
    assert played == ["key=RIGHT"]
    while_down = [t for t, s in pad.sleeps if 1000 < t < 1400]
    assert while_down and not [t for t in pad.resets if 1000 + app.SCAN_MS < t < 1400]
    polls = [s for t, s in pad.sleeps if 1000 + app.SCAN_MS < t < 1400]
    assert polls and max(polls) < app.SCAN_MS / 1000  # shorter passes than a scanning one's: polls
    assert [t for t in pad.resets if t > 1400 + INTERVAL_MS]  # scanning again once it is up


def test_a_press_is_seen_no_later_than_the_keypads_own_scans_would_see_it(monkeypatch):
    for at in range(1000, 1040, 3):
        pad, played = play(monkeypatch, [(at, keys.A, True), (at + 100, keys.A, False)], at + 500)
        seen = min(t for t in pad.resets if t >= at)
        assert played == ["key=A"] and seen - at <= app.SCAN_MS


def test_a_scan_right_after_the_keypads_own_reports_a_held_key_again_and_it_is_not_played_twice(
        monkeypatch):
    # passes longer than keypad's interval: its own scan reports the press, then reset() reports it anew
    pad, played = play(monkeypatch, [(1010, keys.B, True), (1300, keys.B, False)], 2000, scan_ms=25)
    assert played == ["key=B"]
    pad, played = play(monkeypatch, [(1010, keys.B, True), (1300, keys.B, False),
                                     (1500, keys.B, True), (1600, keys.B, False)], 2000, scan_ms=25)
    assert played == ["key=B", "key=B"]  # pressed again after its release: a new press


def test_a_sound_still_playing_keeps_the_passes_short_and_polling(monkeypatch):
    pad, played = play(monkeypatch, [], 500, sound=Quiet(busy=True))
    assert pad.resets == [] and pad.sleeps and max(s for _t, s in pad.sleeps) < app.SCAN_MS / 1000


def test_an_animation_notes_the_releases_it_reads():
    class Queue:
        def __init__(self, evs):
            self.evs = list(evs)

        def get(self):
            return self.evs.pop(0) if self.evs else None

    a = Animation(None, None, Queue([Event(keys.A, False), Event(keys.LEFT, False)]), Quiet())
    assert not a.key() and a.released == (1 << keys.A | 1 << keys.LEFT)
    a = Animation(None, None, Queue([Event(keys.B, False), Event(keys.A, True)]), Quiet())
    assert a.key() and a.pending.key_number == keys.A and a.released == 1 << keys.B
