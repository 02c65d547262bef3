"""Run a ``sultan_host`` command from a ``tools/*.py`` path, as the docs have long shown.

The host package lives in the project's .venv (``make`` installs it).  Started with
another Python, the shim starts the same script again under .venv's Python, once.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The one early Ctrl-C handler (builtins only): from the source tree's host package, the files .venv's
# editable install names too, so that it is set before anything big imports, in any Python.
sys.path.append(os.path.join(ROOT, "host"))
from sultan_host import stop  # noqa: E402

stop.early(os.path.basename(sys.argv[0]))

import importlib  # noqa: E402 (after the handler: what is imported from here on may take a while)

VENV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")


def run(module, tool):
    """``sys.exit(module.main())`` for the dotted ``module``; ``tool`` names the script in errors."""
    try:
        main = importlib.import_module(module).main
    except ImportError as e:  # a Python without the game or what it needs (numpy, pygame ...)
        if os.path.exists(VENV_PYTHON) and not os.environ.get("SULTAN_SHIM"):
            os.environ["SULTAN_SHIM"] = "1"
            os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
        sys.stderr.write("%s: the host package is not installed (%s): run `make test` first\n" % (tool, e))
        sys.exit(2)
    stop.ready()  # each command ends a Ctrl-C quietly itself
    sys.exit(stop.finish(tool, main))
