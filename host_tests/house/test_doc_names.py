"""Every path and name the docs give exists: a reader who follows one finds it.

A `backticked` token in docs/ or the README is checked when it looks like a repository path (it has a folder
part, or a file name with a known suffix) or like a ``Class.member`` of our code. Paths that the tools make
(build/, dist/, the bundle's folders, the board's drive) are not in the repository and are not checked.
"""

import ast
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
TICKED = re.compile(r"`([^`\n]+)`")
SUFFIXES = (".py", ".md", ".js", ".json", ".toml", ".txt", ".yaml", ".png", ".gif", ".tbl", ".cfg")
PATH = re.compile(r"^[\w.\-]+(?:/[\w.\-]*)*$")
MEMBER = re.compile(r"^([A-Z][A-Za-z0-9]+)\.([a-z_][a-z0-9_]*)(?:\(\))?$")
# made by the tools, or on the board's drive, or in the player's zip: never in git
MADE = ("build/", "dist/", "vendor-local/", "node_modules/", ".venv/", "CIRCUITPY", "Sultan/", "9.x/", "10.x/",
        "8.x/", "host_tests/_failures/", "lib/sultan/" + "__pycache__")
# other projects' files (PySolFC's, CircuitPython's and MicroPython's sources), named as they name them
ELSEWHERE = ("pysollib/", "ports/", "boards/", "shared/", "supervisor/", "py/", "tests/", "basics/", "float/",
             "Lib/", "src/")
# files on a board's drive or in the firmware folder that a page names by their own name
ON_THE_BOARD = {"settings.toml", "boot_out.txt", "metadata.json", "bootrom.js", "README.txt", "sultan.uf2",
                "run-tests.py", "skip_if.py"}  # the last two: MicroPython's test runner and its helper


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    return set(out)


def path_found(token, files, folders, names):
    if token.startswith(MADE + ELSEWHERE) or "CIRCUITPY" in token:
        return True
    t = token.split("#")[0]
    folder = t.endswith("/")
    t = t.rstrip("/")
    if folder and "/" not in t:
        return t in {os.path.basename(f) for f in folders}
    if "/" not in t:
        return t in names or t in ON_THE_BOARD
    for prefix in ("", "host/", "lib/", "host/sultan_host/", "lib/sultan/", "host_tests/", "tools/", "host/samd51/",
                   "firmware/", "docs/", "tools/emulate/"):
        if prefix + t in files or prefix + t in folders:
            return True
    return False


def members():
    """{ClassName: {member names}} of every class in lib/, host/, tools/ and firmware/."""
    found = {}
    for top in ("lib", "host", "tools", "firmware"):
        for base, _dirs, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if not name.endswith(".py"):
                    continue
                try:
                    tree = ast.parse(open(os.path.join(base, name), encoding="utf-8").read())
                except SyntaxError:
                    continue
                for node in ast.walk(tree):
                    if isinstance(node, ast.ClassDef):
                        have = found.setdefault(node.name, set())
                        for item in ast.walk(node):
                            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                                have.add(item.name)
                            elif isinstance(item, ast.Attribute) and isinstance(item.ctx, ast.Store):
                                have.add(item.attr)
                            elif isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
                                have.add(item.id)
    return found


def tokens(page):
    text = open(os.path.join(ROOT, page), encoding="utf-8").read()
    for m in TICKED.finditer(text):
        token = m.group(1).strip()
        if " " in token or token.startswith(("/", ".", "~", "http", "-")):
            continue
        yield token.rstrip(":,.")


@pytest.fixture(scope="module")
def repo():
    if not os.path.exists(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    files = tracked()
    folders = {os.path.dirname(f) for f in files}
    folders |= {p for f in folders for p in (f.rsplit("/", k)[0] for k in range(f.count("/") + 1))}
    return files, folders, {os.path.basename(f) for f in files}, members()


def test_the_checker_tells_a_moved_path_and_a_renamed_member(repo):
    files, folders, names, classes = repo
    assert path_found("host_tests/house/test_docs.py", files, folders, names)
    assert not path_found("host_tests/house/" + "test_doc_name.py", files, folders, names)
    assert "test_the_checker_tells_a_moved_path_and_a_renamed_member" not in classes.get("Table", set())
    assert "run" in classes["Table"]


@pytest.mark.parametrize("page", PAGES)
def test_every_path_and_member_a_page_names_exists(page, repo):
    files, folders, names, classes = repo
    missing = []
    for token in tokens(page):
        member = MEMBER.match(token)
        if member:
            cls, attr = member.groups()
            if cls in classes and attr not in classes[cls]:
                missing.append(token)
        elif PATH.match(token) and ("/" in token or token.endswith(SUFFIXES)):
            if not path_found(token, files, folders, names):
                missing.append(token)
    assert missing == [], "%s names what is not there: %s" % (page, ", ".join(missing))


TEST_PATH = re.compile(r"host_tests/[\w/]+\.py")


def test_every_test_path_named_in_the_code_exists(repo):
    files = repo[0]
    missing = []
    for name in sorted(files):
        if name.endswith((".py", ".md", ".js", ".toml")) or name == "Makefile":
            text = open(os.path.join(ROOT, name), encoding="utf-8").read()
            missing += ["%s: %s" % (name, p) for p in TEST_PATH.findall(text) if p not in files]
    assert missing == []
