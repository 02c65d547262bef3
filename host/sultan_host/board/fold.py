"""Cross-module constant folding: a device module's ``from m import NAME`` and ``m.NAME``, where
``NAME = const(n)`` in ``m``, become a private ``_NAME = const(n)`` of its own.

Why: on CircuitPython every name a module's bytecode holds is interned when the module loads.
CircuitPython 8 finds or makes each one by walking its whole table of names (about 0.4 ms a new
name on the Pico, in tools/emulate: 200 new names take 93 ms to import, the same code with one
name 6 ms), and every public name stays in the heap for good.  A ``const`` whose name starts
with "_" is folded into the code by the compiler and leaves no name behind.  The screen alone
read 16 numbers of five other modules; after this pass they are in its bytecode, and
``private.private_names`` then finds the defining module's const referred to nowhere else and
makes it private too (a same-named const of another module, or a docstring, no longer keeps one
public).

Conservative: a read folds only where its name resolves to one int, and a name never folds if
any device source stores it, deletes it, takes it as a parameter, defines a function or class of
that name or binds it by any other import.  A name that some string holds (a getattr, say) still
folds where it is read, but the imports that bind it stay.  Lines stay where they were: the
definitions join the docstring's last line, and an import keeps its lines (blank where a name
went).

``fold(sources, module_of)`` -> {path: new text} for the sources it changed.
"""

import ast
import re

from sultan_host.board.names import Module
from sultan_host.board.sources import BuildError


def fold(sources, module_of):
    """{path: folded text} for each of ``sources`` ({path: text}, every device module) that changes;
    ``module_of(path)`` is the dotted module name of a path."""
    modules = {module_of(p): p for p in sources}
    mods = {p: Module(t, modules) for p, t in sources.items()}
    by_name = {module_of(p): m for p, m in mods.items()}
    value = _resolver(by_name, mods.values())
    plans = {p: _reads(m, module_of(p), value) for p, m in mods.items()}
    needed = _needed(by_name, {module_of(p): r for p, r in plans.items()}, value)
    out = {}
    for p, m in mods.items():
        text = _rewrite(m, plans[p], needed.get(module_of(p), set()) | needed["*"], value, module_of(p))
        if text != m.text:
            try:
                ast.parse(text)
            except SyntaxError as e:
                raise BuildError("fold: %s no longer parses: %s" % (module_of(p), e)) from e
            out[p] = text
    return out


def _resolver(by_name, mods):
    """``value(module, name)``: the int ``name`` is in ``module`` (a dotted name), following its
    imports; None if not one for sure (bound otherwise there, or stored as an attribute anywhere)."""
    attr_stored = set()
    for m in mods:
        attr_stored |= m.attr_stored

    def value(module, name, seen=()):
        m = by_name.get(module)
        if m is None or (module, name) in seen or name in m.bound or name in attr_stored:
            return None
        if name in m.consts:
            return m.consts[name]
        if name in m.imported:
            src, real = m.imported[name]
            return value(src, real, seen + ((module, name),))
        return None

    return value


def _reads(m, module, value):
    """``m``'s reads of other modules' names: [(node, name, private name, value or None)]."""
    names_here = {n.id for n in ast.walk(m.tree) if isinstance(n, ast.Name)}
    # inside an f-string, Python before 3.12 gives no true columns: nothing there is rewritten
    in_fstring = {id(n) for f in ast.walk(m.tree) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)}
    reads = []
    for node in ast.walk(m.tree):
        if id(node) in in_fstring:
            if isinstance(node, ast.Name) and node.id in m.imported:
                reads.append((node, node.id, _private(node.id), None))
            elif isinstance(node, ast.Attribute):
                reads.append((node, node.attr, _private(node.attr), None))
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name) and node.value.id in m.aliases:
            name = node.attr
            v = value(m.aliases[node.value.id], name) if node.lineno == node.end_lineno else None
            if name in names_here:
                v = None  # a name of its own like it
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in m.imported:
            name = node.id
            v = value(module, name)
        else:
            continue
        private = _private(name)
        if private != name and private in names_here:
            v = None  # the module has a name of its own like it
        reads.append((node, name, private, v))
    return reads


def _needed(mods, plans, value):
    """{module: names it must keep bound}, "*" for every module: a read that stays a lookup (not
    folded, or folded to two values there) needs the name where it looks; so does an import that
    the fold leaves (inside a function, or of no one int) in the module it imports from; a string
    (a getattr) or an attribute of something else (maybe a module) may mean the name anywhere."""
    needed = {"*": set()}
    for module, reads in plans.items():
        values = {}
        for node, name, private, v in reads:
            if v is None or values.setdefault(private, v) != v:
                aliases = mods[module].aliases
                if isinstance(node, ast.Name):
                    where = module
                elif isinstance(node.value, ast.Name) and node.value.id in aliases:
                    where = aliases[node.value.id]
                else:
                    where = "*"  # an f-string's attribute of anything
                needed.setdefault(where, set()).add(name)
    for module, m in mods.items():
        needed["*"] |= m.said | m.loose_attrs
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ImportFrom) and node.module in mods:
                for a in node.names:
                    if node not in m.import_nodes or value(module, a.asname or a.name) is None:
                        needed.setdefault(node.module, set()).add(a.name)
    return needed


def _private(name):
    return name if name.startswith("_") else "_" + name


def _rewrite(m, reads, keep_bound, value, module):
    """``m``'s text with its foldable reads rewritten and ``_NAME = const(n)`` defined; an import
    of a name loses it, and when something needs the binding (``keep_bound``: see ``_needed``)
    the module defines ``NAME = const(n)`` instead, so the module it came from need not load."""
    lines = m.text.splitlines(True)
    edits = []  # (row, col_start, col_end, replacement), all on one line each
    defs = {}  # private name -> value
    for node, _name, private, v in reads:
        if v is None or defs.setdefault(private, v) != v:
            continue
        edits.append((node.lineno, node.col_offset, node.end_col_offset, private))
    # imports: drop the names folded away (their reads are all rewritten above)
    read = {name for node, name, private, v in reads if isinstance(node, ast.Name)}
    bound = {}  # public name -> value: imports that become definitions
    for st in m.import_nodes:
        if isinstance(st, ast.ImportFrom):
            bound.update(_drop_imports(m, st, lines, defs, read, keep_bound, value, module))
    defs.update(bound)
    for row, c1, c2, new in sorted(edits, key=lambda e: (e[0], -e[1])):
        line = lines[row - 1]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)?", line[c1:c2]):
            raise BuildError("fold: %s is no name to rewrite in %r" % (module, line))
        lines[row - 1] = line[:c1] + new + line[c2:]
    if defs:
        text = "".join("; %s = const(%d)" % kv for kv in sorted(defs.items()))
        row = m.doc_end or 1
        line = lines[row - 1]
        if m.doc_end:
            lines[row - 1] = line.rstrip("\n") + text + "\n"
        else:
            lines.insert(0, text[2:] + "\n")
    return "".join(lines)


def _drop_imports(m, st, lines, defs, read, keep_bound, value, module):
    """Rewrite ``from x import ...`` statement ``st`` in ``lines`` without the names folded away (or
    only passed on), keeping its lines; left alone if it shares a line with another statement.
    Returns {name: value} of the names it took out that the module must still bind."""
    keep = []
    bound = {}
    dropped = False
    for a in st.names:
        local = a.asname or a.name
        v = value(module, local) if local in m.imported else None
        if v is not None and local in keep_bound:
            bound[local] = v
            dropped = True
        elif v is not None and (_private(local) in defs or local not in read):  # folded, or only passed on
            dropped = True
        else:
            keep.append(a.name if not a.asname else "%s as %s" % (a.name, a.asname))
    if not dropped:
        return {}
    first, last = st.lineno, st.end_lineno
    head = lines[first - 1][:st.col_offset]
    tail = lines[last - 1][st.end_col_offset:]
    if head.strip() or tail.split("#")[0].strip():
        return {}  # shares its line with another statement
    stmt = "from %s import %s" % (st.module, ", ".join(keep)) if keep else ""
    lines[first - 1] = head + stmt + "\n"
    for row in range(first, last):
        lines[row] = "\n"
    return bound
