"""Device-private constants: a public ``NAME = const(n)`` that no other device module refers to is
compiled as ``_NAME``.

On MicroPython and CircuitPython a const named with a leading "_" is folded into the code and
leaves nothing behind; a public one is folded too but also stays in the module's dict, and its
name is interned for good (a qstr: 6 bytes of pool and its characters) on a heap where the
loaded code is most of what is used.  Many of ours are public for the host and the tests
(refusal codes, colours, stats fields), which read the sources and keep seeing them.
Conservative: a name stays public if another device source imports it from this module, reads
it through an alias of this module, takes an attribute of that name from anything else, or
holds it in a string (a getattr), or if the module already has ``_NAME``.  Only NAME tokens
are rewritten, in place, so tracebacks keep their line numbers.
"""

import io
import re
import tokenize

from sultan_host.board.names import Module
from sultan_host.board.sources import source_module

CONST_LINE = re.compile(r"^([A-Z][A-Z0-9_]*)\s*=\s*const\(", re.M)


def private_names(sources):
    """{path: set of the module's public consts no other source refers to} for ``sources``
    ({path: text}, every module that goes onto the device, after ``fold``).  Another module
    refers to ``M.NAME`` when it imports NAME from M (anywhere in it) or reads ``M.NAME`` through
    an alias of M; and it may mean any module's NAME when it takes the attribute NAME of something
    that is not one of our modules, or a string of it holds NAME (docstrings aside)."""
    modules = {source_module(p) for p in sources}
    info = {p: Module(t, modules) for p, t in sources.items()}
    out = {}
    for path, m in info.items():
        me = source_module(path)
        refs = set()
        for p, other in info.items():
            if p != path:
                refs |= {name for module, name in other.from_refs if module == me}
                refs |= {name for module, name in other.alias_attrs if module == me}
                refs |= other.loose_attrs | other.said
        out[path] = {n for n in CONST_LINE.findall(m.text) if n not in refs and "*" not in refs
                     and "_" + n not in m.tokens}
    return out


def rename(text, names):
    """``text`` with each NAME token in ``names`` written with a leading "_"."""
    if not names:
        return text
    lines = text.splitlines(True)
    hits = [
        tok.start
        for tok in tokenize.generate_tokens(io.StringIO(text).readline)
        if tok.type == tokenize.NAME and tok.string in names
    ]
    for row, col in reversed(hits):  # right to left: earlier columns stay put
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "_" + line[col:]
    return "".join(lines)
