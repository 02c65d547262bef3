"""docs/architecture.md's import diagrams against the sources' import statements.

Each ```imports block of the page is a diagram: one line a node, ``a → b, c`` (a imports b and c) or a
bare ``a`` (a node that imports no other node of the block); an indented line goes on with the arrows of
the line above; ``#`` starts a comment.  A node is a module,
a package (it stands for every module under it that no more specific node of the block names) or a
pattern such as ``profile_*`` (the firmware's board profiles).  Within a block every arrow must be an
import, and every import between two of its nodes must be drawn: imports inside one node, and modules no
node names, are not the block's business.
"""

import fnmatch
import os
import re

import pytest
from runners import ROOT
from test_house import imports

PAGE = os.path.join(ROOT, "docs", "architecture.md")
ARROW = re.compile(r"\s*(?:→|->)\s*")


def modules():
    """Every module of the device package, the host packages and the firmware: name -> path."""
    out = {}
    for top, package in (("lib", "sultan"), ("host", "sultan_host"), ("host", "samd51")):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top, package)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for fn in filenames:
                if fn.endswith(".py"):
                    path = os.path.join(dirpath, fn)
                    name = os.path.relpath(path, os.path.join(ROOT, top))[: -len(".py")].replace(os.sep, ".")
                    out[name[: -len(".__init__")] if name.endswith(".__init__") else name] = path
    for fn in os.listdir(os.path.join(ROOT, "firmware")):
        if fn.endswith(".py"):  # CIRCUITPY's top level: code.py imports launch, launch a profile_*
            out[fn[: -len(".py")]] = os.path.join(ROOT, "firmware", fn)
    return out


def diagrams(text):
    """Each ```imports block: (first line number, {node: set of nodes it imports})."""
    out = []
    block = None
    for number, line in enumerate(text.splitlines(), 1):
        if block is None:
            if line.strip() == "```imports":
                block, lhs = {}, None
                out.append((number, block))
            continue
        if line.strip() == "```":
            block = None
            continue
        indented = line[:1].isspace()
        line = line.split("#")[0].strip()
        if not line:
            continue
        if indented and lhs is not None:  # the arrows of the line above, continued
            block[lhs].update(n.strip() for n in line.split(",") if n.strip())
            continue
        parts = ARROW.split(line)
        assert len(parts) <= 2, "one arrow a line: %d: %s" % (number, line)
        lhs = parts[0]
        assert lhs not in block, "a node has one line: %d: %s" % (number, lhs)
        rhs = [n.strip() for n in parts[1].split(",")] if len(parts) == 2 else []
        block[lhs] = set(n for n in rhs if n)
    return out


def node_of(module, nodes):
    """The most specific node that names ``module``: itself, then its nearest package, then a pattern."""
    if module in nodes:
        return module
    packages = [n for n in nodes if module.startswith(n + ".")]
    if packages:
        return max(packages, key=len)
    patterns = [n for n in nodes if "*" in n and fnmatch.fnmatchcase(module, n)]
    return max(patterns, key=len) if patterns else None


def drawn_and_imported(block, mods):
    nodes = set(block)
    for targets in block.values():
        nodes |= targets
    drawn = {(a, b) for a, targets in block.items() for b in targets}
    imported = {}  # (node, node) -> one import that makes it, to name in a failure
    for name, path in mods.items():
        a = node_of(name, nodes)
        if a is None:
            continue
        for m in imports(path, name):
            b = node_of(m, nodes) if m in mods else None
            if b is not None and b != a:
                imported.setdefault((a, b), "%s imports %s" % (name, m))
    return nodes, drawn, imported


def test_the_page_has_diagrams_and_the_parser_reads_them():
    blocks = diagrams(open(PAGE, encoding="utf-8").read())
    assert len(blocks) >= 2
    text = "```imports\na → b,  # why\n  c\nd\n```\nx → y\n"
    assert diagrams(text) == [(1, {"a": {"b", "c"}, "d": set()})]


def test_node_of_takes_the_most_specific_node():
    nodes = {"p", "p.q", "p.q.r", "f_*"}
    assert node_of("p.q.r", nodes) == "p.q.r"
    assert node_of("p.q.s", nodes) == "p.q"
    assert node_of("p.t", nodes) == "p"
    assert node_of("f_x", nodes) == "f_*"
    assert node_of("z", nodes) is None


def block_ids():
    return ["line %d" % n for n, _ in diagrams(open(PAGE, encoding="utf-8").read())]


@pytest.mark.parametrize("which", range(len(block_ids())), ids=block_ids())
def test_every_arrow_is_an_import_and_every_import_is_drawn(which):
    number, block = diagrams(open(PAGE, encoding="utf-8").read())[which]
    mods = modules()
    nodes, drawn, imported = drawn_and_imported(block, mods)
    problems = ["names no module: %s" % n for n in sorted(nodes)
                if not any(node_of(m, {n}) == n for m in mods)]
    problems += ["draws %s → %s, which no import makes" % ab for ab in sorted(drawn - set(imported))]
    problems += ["leaves out %s → %s (%s)" % (a, b, why) for (a, b), why in sorted(imported.items())
                 if (a, b) not in drawn]
    assert not problems, "docs/architecture.md, the block at line %d:\n" % number + "\n".join(problems)
