"""Ctrl-C before a command is ready: the entry points (``sultan``: ``sultan_host.cli.entry``;
``sultan-sim``, ``sultan-screenshot``: ``sultan_host.desktop.entry``) set this up before they
import anything big, so a SIGINT while Python
still imports the game ends the run with one line and status 130, never a traceback.

Builtins only: this is what runs first, and the ``signal`` module imports ``enum`` (milliseconds
in which a Ctrl-C would still be a traceback); ``_signal`` is what it wraps.
"""

import _signal as signal
import os


def early(prog):
    """Until ``ready``: a SIGINT writes ``prog: stopped`` and exits 130 at once.  The handler
    Python set up is what is replaced; a SIGINT the parent ignores stays ignored."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return

    def stop(_signal, _frame):
        try:
            os.write(2, b"%s: stopped\n" % prog.encode())
        except OSError:
            pass
        os._exit(130)

    try:
        signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread
        pass


def ready():
    """Ctrl-C raises KeyboardInterrupt again, which each command ends quietly itself."""
    if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL, None):
        signal.signal(signal.SIGINT, signal.default_int_handler)
