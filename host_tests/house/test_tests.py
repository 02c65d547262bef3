"""The tests' own house: what they share sits in modules beside the top conftest.py (on the path as pytest
loads it), never in another folder's test file, so no folder list on pytest's path is needed."""

import ast
import os
import tomllib

from runners import ROOT

TESTS = os.path.join(ROOT, "host_tests")


def test_pytest_needs_no_folders_on_its_path():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        options = tomllib.load(f)["tool"]["pytest"]["ini_options"]
    assert "pythonpath" not in options


def cross_imports():
    """["file:line: module"] of the imports of a module that sits in another test folder."""
    where = {}  # a module's name -> the folders holding a file of that name
    files = []
    for dirpath, dirnames, filenames in os.walk(TESTS):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in filenames:
            if fn.endswith(".py"):
                where.setdefault(fn[:-3], set()).add(dirpath)
                files.append((dirpath, fn))
    out = []
    for dirpath, fn in sorted(files):
        path = os.path.join(dirpath, fn)
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                folders = where.get(name.split(".")[0], set())
                if folders and not folders & {dirpath, TESTS}:
                    out.append("%s:%d: %s" % (os.path.relpath(path, ROOT), node.lineno, name))
    return out


def test_no_test_imports_a_module_of_another_test_folder():
    assert not cross_imports()
    assert "play_keys" in {os.path.splitext(f)[0] for f in os.listdir(TESTS)}  # the walk sees the shared ones
