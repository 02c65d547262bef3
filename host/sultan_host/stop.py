"""How a command starts and ends, whatever happens around it.

Ctrl-C before a command is ready: the entry points (``sultan``: ``sultan_host.cli.entry``;
``sultan-sim``, ``sultan-screenshot``: ``sultan_host.desktop.entry``) and ``tools/host_shim.py``
set this up before they import anything big, so a SIGINT while Python still imports the game
ends the run with one line and status 130, never a traceback.  The one early handler.

Builtins only: this is what runs first, and the ``signal`` module imports ``enum`` (milliseconds
in which a Ctrl-C would still be a traceback); ``_signal`` is what it wraps.
"""

import _signal as signal
import errno
import os
import sys


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


def finish(prog, main):
    """``main()``'s exit status, with stdout flushed: output that cannot be written (stdout closed or
    full: ``> /dev/full``) is one line on stderr and status 1, never a traceback; what stdout still
    buffers then goes to /dev/null, so Python's own flush at exit has nothing to complain of."""
    try:
        code = main()
        if sys.stdout is not None:
            sys.stdout.flush()
        return code
    except OSError as e:
        # stdout's: its flush fails too, or it failed at once (print raises on a full disk and
        # drops what it held) with no file named, as a write to a stream does
        at_once = e.filename is None and e.errno in (errno.ENOSPC, errno.EBADF, errno.EIO, errno.EPIPE)
        if not (_stdout_fails() or at_once):
            raise
        _drop_stdout()
        if isinstance(e, BrokenPipeError):  # | head: the reader has all it wanted
            return 0
        sys.stderr.write("%s: cannot write the output: %s\n" % (prog, e.strerror or e))
        return 1


def _stdout_fails():
    """True if stdout cannot take what it holds."""
    try:
        sys.stdout.flush()
        return False
    except (OSError, ValueError, AttributeError):
        return True


def _drop_stdout():
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
