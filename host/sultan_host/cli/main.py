#!/usr/bin/env python3
"""Sultan on the command line: play or analyse deals headlessly.

    python3 tools/sultan_cli.py play --deal 7 --auto --json
    python3 tools/sultan_cli.py play --deals 1-1000 --auto --json     # one JSON line per deal
    python3 tools/sultan_cli.py resume game.sav --json
    python3 tools/sultan_cli.py stats --rules classic --deals 1-2000

This module only builds the parser and dispatches: each command lives in its own module
(``play``, ``saves`` for resume, ``scan`` for scan and stats), which adds its parser and
runs it, and none of them calls back here.  Bad arguments exit with status 2 and one line
on stderr, never a traceback.  Ctrl-C or SIGTERM stops a command quietly: one line saying how
many deals were done (``Progress.last``), exit status 130.  Output that cannot be written (stdout
closed, a full disk: ``> /dev/full``) ends the command with one line on stderr, exit status 1.
"""

import os
import signal
import sys

from sultan import __version__

from sultan_host.args import Parser, UsageError, one_line
from sultan_host.cli import play, saves, scan
from sultan_host.progress import Progress

PROG = "sultan"  # the installed command (tools/sultan_cli.py runs the same main)
COMMANDS = {"play": play.run, "resume": saves.run, "scan": scan.run, "stats": scan.run}


def build_parser():
    p = Parser(prog=PROG, description="Play or analyse Sultan deals headlessly.")
    p.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    play.add_parser(sub)
    scan.add_parsers(sub)
    saves.add_parsers(sub)
    return p


def _stop(_signal, _frame):
    raise KeyboardInterrupt  # SIGTERM: stop as Ctrl-C does


def stopped():
    """The line an interrupted command ends with: how far it got."""
    p = Progress.last
    if p is None:
        return "%s: stopped\n" % PROG
    return "%s: stopped after %s of %s deals\n" % (PROG, format(p.done, ","), format(p.total, ","))


class OutputError(Exception):
    """stdout refused what a command printed (``Output``); says why."""


class Output:
    """``out`` whose write errors (a full disk, a closed stream) become ``OutputError``."""

    def __init__(self, out):
        self.out = out

    def write(self, text):
        try:
            return self.out.write(text)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as e:
            raise OutputError(getattr(e, "strerror", None) or str(e)) from None

    def flush(self):
        try:
            self.out.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as e:
            raise OutputError(getattr(e, "strerror", None) or str(e)) from None


def _drop_stdout():
    """What stdout still buffers goes nowhere at exit (else Python's own flush fails loudly)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv=None, out=None):
    out = out or sys.stdout
    if out is None:  # started with stdout closed (>&-): nothing to print to, nothing done
        if sys.stderr is not None:
            sys.stderr.write("%s: stdout is closed: nothing done\n" % PROG)
        return 1
    out = Output(out)
    Progress.last = None
    try:
        previous = signal.signal(signal.SIGTERM, _stop)
    except ValueError:  # not the main thread: SIGTERM stays as it was
        previous = None
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("a command is required: %s (--help for more)" % ", ".join(COMMANDS))
        code = COMMANDS[args.command](args, out)
        out.flush()
        return code
    except OutputError as err:
        if out.out is sys.stdout:
            _drop_stdout()
        sys.stderr.write("%s: cannot write the output: %s\n" % (PROG, err))
        return 1
    except UsageError as err:
        sys.stderr.write("%s: error: %s\n" % (PROG, one_line(err)))
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # the pool, if any, is terminated on the way out (survey.run_chunks)
        try:
            out.flush()
        except (OSError, ValueError, OutputError):
            pass
        sys.stderr.write(stopped())
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
