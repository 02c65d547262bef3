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
many deals were done (``Progress.last``), exit status 130.
"""

import signal
import sys

from sultan_host.args import Parser, UsageError, one_line
from sultan_host.cli import play, saves, scan
from sultan_host.progress import Progress

PROG = "sultan"  # the installed command (tools/sultan_cli.py runs the same main)
COMMANDS = {"play": play.run, "resume": saves.run, "scan": scan.run, "stats": scan.run}


def build_parser():
    p = Parser(prog=PROG, description="Play or analyse Sultan deals headlessly.")
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


def main(argv=None, out=None):
    out = out or sys.stdout
    Progress.last = None
    try:
        previous = signal.signal(signal.SIGTERM, _stop)
    except ValueError:  # not the main thread: SIGTERM stays as it was
        previous = None
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("a command is required: %s (--help for more)" % ", ".join(COMMANDS))
        return COMMANDS[args.command](args, out)
    except UsageError as err:
        sys.stderr.write("%s: error: %s\n" % (PROG, one_line(err)))
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # the pool, if any, is terminated on the way out (survey.run_chunks)
        try:
            out.flush()
        except (OSError, ValueError):
            pass
        sys.stderr.write(stopped())
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
