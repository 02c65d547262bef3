"""Run a ``sultan_host`` command from a ``tools/*.py`` path, as the docs have long shown.

The host package lives in the project's .venv (``make`` installs it).  Started with
another Python, the shim starts the same script again under .venv's Python, once.
"""

import os
import sys

try:
    from sultan_host import stop  # the one early Ctrl-C handler: builtins only, set before anything big
except ImportError:  # a Python without the package: .venv's, started below, sets it
    stop = None
else:
    stop.early(os.path.basename(sys.argv[0]))

import importlib  # noqa: E402 (after the handler: what is imported from here on may take a while)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")


def run(module, tool):
    """``sys.exit(module.main())`` for the dotted ``module``; ``tool`` names the script in errors."""
    try:
        main = importlib.import_module(module).main
    except ImportError as e:
        if e.name and not e.name.startswith("sultan"):
            raise
        if os.path.exists(VENV_PYTHON) and not os.environ.get("SULTAN_SHIM"):
            os.environ["SULTAN_SHIM"] = "1"
            os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
        sys.stderr.write("%s: the host package is not installed: run `make test` first\n" % tool)
        sys.exit(2)
    stop.ready()  # each command ends a Ctrl-C quietly itself
    sys.exit(stop.finish(tool, main))
