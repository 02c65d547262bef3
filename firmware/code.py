# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""Sultan, a two-deck patience: the game starts here.

CircuitPython compiles this file from source at every start, so the work is in launch.py
(compiled beside it): the board's display, keys, saves and sound.  Then the launcher's code
goes (on CircuitPython code is heap) and the game plays.
"""

import launch

heap = launch.one_heap()  # the heap in one piece (launch.one_heap): kept while the game runs
display, keys, board_id, store, sound, deal, scan = launch.parts()
del launch
from sultan import app, forget  # noqa: E402  (after the launcher: the parts come first)

forget("launch")
app.run(display, keys, board_id=board_id, store=store, sound=sound, deal=deal, scan=scan)
