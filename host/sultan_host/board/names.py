"""What one device source says about names: its consts, its imports of our modules, what it binds,
what it reads of other modules and what its strings hold.  Read by both constant passes
(``fold`` and ``private``)."""

import ast
import io
import re
import tokenize

SMALL = 1 << 30  # a small int on every board (the engine's rule)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_const_call(node):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const"
            and len(node.args) == 1 and not node.keywords)


def int_value(node, known):
    """The int ``node`` evaluates to with the names in ``known``, or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
        v = int_value(node.operand, known)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else ~v)
    if isinstance(node, ast.BinOp):
        a, b = int_value(node.left, known), int_value(node.right, known)
        if a is None or b is None:
            return None
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.LShift: lambda: a << b if 0 <= b < 31 else None,
               ast.RShift: lambda: a >> b if b >= 0 else None,
               ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b, ast.BitXor: lambda: a ^ b,
               ast.FloorDiv: lambda: a // b if b else None}
        op = ops.get(type(node.op))
        return op() if op else None
    return None


def docstrings(tree):
    """ids of the docstrings' Constant nodes in ``tree``: prose, never a name the code looks up."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


class Module:
    """What one source (``text``) says about names; ``modules`` are the dotted names of ours."""

    def __init__(self, text, modules):
        self.text = text
        self.tree = ast.parse(text)
        self.consts = {}  # NAME -> int, its top-level ``NAME = const(...)``
        self.imported = {}  # local -> (module, name): top-level ``from module import name [as local]``
        self.import_nodes = []  # those import statements
        self.aliases = {}  # local -> module: ``from package import module`` / ``import module as local``
        self.bound = set()  # names this module binds otherwise: stores, parameters, defs, other imports
        self.attr_stored = set()  # attributes it assigns (``x.NAME = ...``: maybe a module's)
        self.said = set()  # words in its strings, docstrings aside (a getattr may mean a name)
        self.from_refs = set()  # (module, NAME) of every ``from module import NAME`` in it ("*" too)
        self.alias_attrs = set()  # (module, NAME) of each ``alias.NAME`` on an alias of our module
        self.loose_attrs = set()  # NAME of each ``x.NAME`` on anything else (maybe a module)
        self.tokens = {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type == tokenize.NAME}  # every name written in it, attributes too
        docs = docstrings(self.tree)
        body = self.tree.body
        self.doc_end = body[0].end_lineno if body and id(getattr(body[0], "value", None)) in docs else 0
        defs = self._top_level(modules)
        self._bindings(defs, docs)
        for local in list(self.aliases):  # a module alias rebound elsewhere is not one
            if local in self.bound:
                del self.aliases[local]
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute):
                if isinstance(node.value, ast.Name) and node.value.id in self.aliases:
                    self.alias_attrs.add((self.aliases[node.value.id], node.attr))
                else:
                    self.loose_attrs.add(node.attr)

    def _top_level(self, modules):
        """Read the top-level consts and imports of our modules; returns the ids of the consts'
        target nodes (a const's own definition binds nothing else)."""
        defs = set()
        for st in self.tree.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and is_const_call(st.value):
                v = int_value(st.value.args[0], self.consts)
                if v is not None and -SMALL <= v < SMALL and st.targets[0].id not in self.consts:
                    self.consts[st.targets[0].id] = v
                    defs.add(id(st.targets[0]))
            elif isinstance(st, ast.ImportFrom) and st.level == 0 and (st.module in modules or all(
                    st.module + "." + a.name in modules for a in st.names)):
                self.import_nodes.append(st)
                for a in st.names:
                    local = a.asname or a.name
                    if st.module + "." + a.name in modules:
                        self.aliases[local] = st.module + "." + a.name
                    else:
                        self.imported[local] = (st.module, a.name)
            elif isinstance(st, ast.Import) and all(a.name in modules and a.asname for a in st.names):
                self.import_nodes.append(st)
                for a in st.names:
                    self.aliases[a.asname] = a.name
        return defs

    def _bindings(self, defs, docs):
        """Read every binding, import, stored attribute and string in the tree."""
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in defs:
                self.bound.add(node.id)
            elif isinstance(node, ast.arg):
                self.bound.add(node.arg)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.bound.update(node.names)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                self.bound.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                if isinstance(node, ast.ImportFrom):
                    self.from_refs.update((node.module, a.name) for a in node.names)
                    if any(a.name == "*" for a in node.names):
                        self.loose_attrs.add("*")
                if node not in self.import_nodes:
                    for a in node.names:  # bound by another import (a lazy one, say)
                        self.bound.add((a.asname or a.name).split(".")[0])
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                self.attr_stored.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                self.said.update(WORD.findall(node.value))
