"""The house rules of docs/architecture.md, read from the sources' import statements.

Every import counts, the ones inside functions too (those are the lazy ones the board loads on demand).
"""

import ast
import os

from runners import ROOT
from sultan_host.board.sources import HOST_ONLY_MODULES
from sultan_host.paths import HOST, LIB

PKG = os.path.join(LIB, "sultan")


def module_name(path, top):
    rel = os.path.relpath(path, top)[: -len(".py")].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def sources(top, package):
    for dirpath, dirnames, filenames in os.walk(os.path.join(top, package)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for fn in filenames:
            if fn.endswith(".py"):
                path = os.path.join(dirpath, fn)
                yield module_name(path, top), path


def imports(path, name):
    """Every module ``name`` imports (absolute; ``from a import b`` counts a.b, in case b is a module)."""
    return imports_of(open(path, encoding="utf-8").read(), name)


def imports_of(text, name):
    tree = ast.parse(text)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: none today, but count them right if they come
                parts = name.split(".")[: -node.level]
                base = ".".join(parts + ([base] if base else []))
            out.add(base)
            out.update(base + "." + a.name for a in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "__import__", "import_module") and node.args and isinstance(node.args[0], ast.Constant):
            out.add(str(node.args[0].value))  # an import by a name written as a string
    return out


def graph():
    mods = dict(sources(LIB, "sultan"))
    mods.update(sources(HOST, "sultan_host"))
    return {name: {m for m in imports(path, name) if m in mods and m != name} for name, path in mods.items()}


def test_the_rules_import_nothing_from_the_other_parts_nor_displayio():
    for name, path in sources(LIB, "sultan"):
        if not name.startswith("sultan.rules"):
            continue
        for m in imports(path, name):
            top = m.split(".")[0]
            assert top in ("sultan", "sys", "gc", "micropython", "time", "random", "array", "struct", "os"), m
            if top == "sultan":
                assert not m.startswith(("sultan.ui", "sultan.saves", "sultan.app")), name


def test_the_saves_know_no_screen_and_the_screen_no_saves():
    for name, path in sources(LIB, "sultan"):
        for m in imports(path, name):
            if name.startswith("sultan.saves"):
                assert not m.startswith(("sultan.ui", "sultan.app", "displayio")), (name, m)
            if name.startswith("sultan.ui"):
                assert not m.startswith(("sultan.saves", "sultan.app")), (name, m)


def test_the_device_package_imports_no_host_code():
    # Every module of lib/, the host-only ones too, and every import, the lazy ones in functions too:
    # the arrow between the packages runs one way, from the host package down.
    seen = 0
    for name, path in sources(LIB, "sultan"):
        for m in imports(path, name):
            assert m.split(".")[0] != "sultan_host", (name, m)
            seen += 1
    assert seen > 100
    lazy = "def f():\n    if x:\n        from sultan_host.snapshot import snapshot\n"
    assert "sultan_host.snapshot" in imports_of(lazy, "sultan.x")  # the walk finds a nested import
    by_string = "def f():\n    return __import__('sultan_host.game')\n"
    assert "sultan_host.game" in imports_of(by_string, "sultan.x")


def test_the_board_imports_no_host_only_module():
    # The build leaves HOST_ONLY_MODULES out of CIRCUITPY: a device module importing one would fail there.
    mods = dict(sources(LIB, "sultan"))
    assert set(HOST_ONLY_MODULES) <= set(mods)
    for name, path in mods.items():
        if name not in HOST_ONLY_MODULES:
            assert not imports(path, name) & set(HOST_ONLY_MODULES), name


def test_no_import_circle_anywhere():
    g = graph()
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in sorted(g[n]):
            assert state.get(m) != 1, "import circle: " + " -> ".join(stack + [n, m])
            if m not in state:
                visit(m, stack + [n])
        state[n] = 2

    for n in sorted(g):
        if n not in state:
            visit(n, [])
    assert len(g) > 30  # both packages were read


def part(name):
    """The part a module belongs to: its package below the top one (sultan_host.cli.scan is
    sultan_host.cli), or the module itself when it lies at the top (sultan_host.args, sultan.app)."""
    return ".".join(name.split(".")[:2])


def test_no_circle_between_the_parts_of_either_package():
    # Modules may avoid a circle while their packages make one (analysis.winnable_table -> cli.scan ->
    # analysis.solver once did): each part's arrows run one way too.
    parts = {}
    for n, ms in graph().items():
        parts.setdefault(part(n), set()).update(part(m) for m in ms if part(m) != part(n))
    for a, targets in parts.items():
        for b in targets:
            path = reach(parts, b, a)
            assert path is None, "a circle of parts: " + " -> ".join([a] + path)
    assert {"sultan_host.cli", "sultan_host.analysis", "sultan.ui", "sultan.rules"} <= set(parts)


def reach(g, a, b):
    """A path [a, ..., b] along the arrows of g, or None."""
    todo, came = [a], {a: None}
    while todo:
        n = todo.pop()
        if n == b:
            path = []
            while n is not None:
                path.append(n)
                n = came[n]
            return path[::-1]
        for m in g.get(n, ()):
            if m not in came:
                came[m] = n
                todo.append(m)
    return None


def test_no_sys_path_edits():
    for top in ("lib", "host", "host_tests", "tools"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "node_modules")]
            for fn in filenames:
                if fn.endswith(".py"):
                    text = open(os.path.join(dirpath, fn), encoding="utf-8").read()
                    for bad in ("sys.path.insert", "sys.path.append", "sys.path[:0]"):
                        assert bad not in text or fn == "test_house.py", (fn, bad)


def test_no_test_or_tool_loads_a_module_by_its_path_or_runs_a_cut_out():
    # A module is imported by its name (firmware/'s from the folder that is CIRCUITPY's root, see
    # test_firmware.firmware_module); a function a test needs is importable, not cut out of its file
    # and exec'd.  (test_firmware_build execs what the build wrote for sources it made itself: the
    # build's rewriting is what it tests.)
    ways = ("spec_from_file_location", "SourceFileLoader", "run_path", "load_source", "ast.Module(",
            "exec(compile(")
    for top in ("host", "host_tests", "tools"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "node_modules")]
            for fn in filenames:
                if fn.endswith(".py") and fn != "test_house.py":
                    text = open(os.path.join(dirpath, fn), encoding="utf-8").read()
                    assert not [w for w in ways if w in text], (os.path.join(dirpath, fn), ways)


def test_data_files_are_found_beside_their_modules_or_on_circuitpy_when_frozen():
    from sultan import data_path
    from sultan.rules import winnable
    from sultan.ui import pages, words

    assert data_path("/lib/sultan/ui/words.mpy", "sultan/ui", "words_en.txt") == "/lib/sultan/ui/words_en.txt"
    assert data_path(None, "sultan/rules", "winnable_seed.tbl") == "/lib/sultan/rules/winnable_seed.tbl"
    for path in (winnable.table_path(0), words.path(0), pages.path(1)):
        assert os.path.isfile(path), path


def test_the_action_numbers_have_one_home():
    # the sultan.rules package defines them (the engine re-exports them; the player, which the engine
    # imports, and the save record read them there); another device module defining one of those
    # names (or its private "_" twin) with the same value would be a copy that can drift.  WON and
    # LOST are left out: the search's outcomes (sultan.rules.rollout, lookahead) own those words too.
    import sultan.rules as home
    from sultan.rules import engine

    names = ("A_TURN", "A_PLAY", "A_REDEAL", "A_PARK", "MAX_ACTIONS", "NO_SAFE_MOVE", "OK", "PLAYING")
    numbers = {n: getattr(home, n) for n in names}
    assert all(getattr(engine, n) == v for n, v in numbers.items())
    seen = 0
    for name, path in sources(LIB, "sultan"):
        if name == "sultan.rules":
            continue
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and getattr(node.value.func, "id", "") == "const":
                seen += 1
                for t in node.targets:
                    n = getattr(t, "id", "").lstrip("_")
                    if n in numbers:
                        assert numbers[n] != ast.literal_eval(node.value.args[0]), (name, t.id)
    assert seen > 50  # the device's consts were read


CLASS_LINES = 250
FUNCTION_LINES = 70
# Documented hot loops, kept whole for speed on the boards (their docstrings say why).
LONG_ON_PURPOSE = {
    ("lib/sultan/rules/table.py", "Table.run"),
    ("lib/sultan/rules/rollout.py", "Rollout._play_out"),
}
# Over the limits while their owners rework them: none today.
OVER_FOR_NOW: set = set()


def sizes(path, rel):
    """(rel, dotted name, lines, limit) of every class and function in ``path``, nested ones too."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = []

    def walk(node, prefix):
        for n in ast.iter_child_nodes(node):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + n.name
                limit = CLASS_LINES if isinstance(n, ast.ClassDef) else FUNCTION_LINES
                out.append((rel, name, n.end_lineno - n.lineno + 1, limit))
                walk(n, name + ".")
            else:
                walk(n, prefix)

    walk(tree, "")
    return out


def test_classes_and_functions_are_small():
    measured = []
    for top in ("lib", "host", "tools"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "node_modules")]
            for fn in sorted(filenames):
                if fn.endswith(".py"):
                    path = os.path.join(dirpath, fn)
                    measured += sizes(path, os.path.relpath(path, ROOT).replace(os.sep, "/"))
    over = {(rel, name) for rel, name, lines, limit in measured if lines > limit}
    assert not over - LONG_ON_PURPOSE - OVER_FOR_NOW, sorted(over - LONG_ON_PURPOSE - OVER_FOR_NOW)
    assert LONG_ON_PURPOSE <= over  # still long (else drop them from the list)
    assert {rel for rel, _name in OVER_FOR_NOW} <= {rel for rel, *_x in measured}
    assert len(measured) > 500  # the three trees were read


# JavaScript (tools/emulate): the same limit on functions, and one on files, read by a small scanner
# (names, strings, templates, regular expressions, comments and braces; no JavaScript parser in Python).
JS_FILE_LINES = 400
# After these, `/` divides; anywhere else it opens a regular expression.
_DIVIDES_AFTER = {")", "]", "}"}
_NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "with"}


def js_tokens(text):
    """[(token, line)] of JavaScript source: names, numbers and punctuation; strings, templates and regular
    expressions each become one token ("S", "/"); comments none."""
    out, i, line, n = [], 0, 1, len(text)
    if text.startswith("#!"):  # a script's first line: not JavaScript
        i = text.find("\n")
    braces = []  # per open `{`: True when it opened a template's ${...}
    while i < n:
        c, tok = text[i], None
        if c in " \t\r\n":
            j = i + 1
        elif text.startswith("//", i):
            j = text.find("\n", i) % (n + 1)  # (-1: the end)
        elif text.startswith("/*", i):
            j = text.index("*/", i) + 2
        elif c in "'\"":
            j, tok = _quoted_end(text, i), "S"
        elif c == "`" or (c == "}" and braces and braces[-1]):
            if c == "}":
                braces.pop()
            j, tok = _template_end(text, i), "S"
            if text[j - 2:j] == "${":
                braces.append(True)
        elif c == "/" and not _divides(out):
            j, tok = _regex_end(text, i), "/"
        elif c.isalnum() or c in "_$":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            tok = text[i:j]
        else:
            j = i + (2 if text[i:i + 2] in ("=>", "?.", "??", "==", "!=", "<=", ">=", "&&", "||") else 1)
            tok = text[i:j]
            if tok == "{":
                braces.append(False)
            elif tok == "}" and braces:
                braces.pop()
        if tok is not None:
            out.append((tok, line))
        line += text.count("\n", i, j)
        i = j
    return out


def _divides(out):
    """Whether a `/` after ``out`` divides (after a value) rather than opens a regular expression."""
    last = out[-1][0] if out else "("
    value = (last[0].isalnum() or last[0] in "_$") and last not in ("return", "typeof")
    return last in _DIVIDES_AFTER or value


def _quoted_end(text, i):
    j = i + 1
    while text[j] != text[i]:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _template_end(text, i):
    """The end of a template's text from ``i`` (its opening backquote, or the `}` of a ${...}): after the
    closing backquote, or after the next ${."""
    j = i + 1
    while text[j] != "`" and not text.startswith("${", j):
        j += 2 if text[j] == "\\" else 1
    return j + 1 if text[j] == "`" else j + 2


def _regex_end(text, i):
    j, in_class = i + 1, False
    while in_class or text[j] != "/":
        assert text[j] != "\n", "a regular expression runs off its line"
        if text[j] == "\\":
            j += 1
        elif text[j] == "[":
            in_class = True
        elif text[j] == "]":
            in_class = False
        j += 1
    j += 1
    while j < len(text) and text[j].isalpha():
        j += 1
    return j


def js_functions(text):
    """[(name, lines)] of every function in JavaScript source (declarations, methods, arrows with a body),
    nested ones too; a function's lines run from its head to its closing brace."""
    toks = js_tokens(text)
    opened = []  # per open `{`: (name, first line) of the function it begins, or None
    parens = []  # indexes of open `(`
    match = {}  # index of `)` -> index of its `(`
    out = []
    for k, (tok, line) in enumerate(toks):
        if tok == "(":
            parens.append(k)
        elif tok == ")":
            match[k] = parens.pop()
        elif tok == "{":
            opened.append(_function_head(toks, k, match))
        elif tok == "}" and opened:
            head = opened.pop()
            if head is not None:
                out.append((head[0], line - head[1] + 1))
    return out


def _function_head(toks, k, match):
    """(name, line) when the `{` at ``k`` opens a function's body, else None."""
    prev = toks[k - 1][0] if k else ""
    if prev == "=>":
        j = k - 2
        if toks[j][0] == ")":
            j = match[j]
        name = toks[j - 2][0] if j >= 2 and toks[j - 1][0] in ("=", ":") else f"<arrow at line {toks[j][1]}>"
        return name, toks[j][1]
    if prev != ")":
        return None
    j = match[k - 1]
    before = toks[j - 1][0] if j else ""
    if before in _NOT_FUNCTIONS or not (before[:1].isalnum() or before[:1] in "_$"):
        return None
    if before == "function":
        return f"<function at line {toks[j - 1][1]}>", toks[j - 1][1]
    return before, toks[j - 1][1]


def js_sources():
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, "tools")):
        dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "node_modules")]
        for fn in sorted(filenames):
            if fn.endswith(".js"):
                path = os.path.join(dirpath, fn)
                yield os.path.relpath(path, ROOT).replace(os.sep, "/"), open(path, encoding="utf-8").read()


def test_the_javascript_scanner_finds_each_function_and_its_lines():
    text = """#!/usr/bin/env node
// a comment { with a brace
const re = /[}{]\\//g; const half = 4 / 2; /* } */
function outer(a) {
  if (a) {
    return `${a ? `{${a}}` : '}'}`;
  }
  const obj = { b: 1, c: () => 2 };
  const inner = (x) => {
    return x;
  };
  return inner;
}
class K {
  constructor() {
    this.f = function () {
      return 1;
    };
  }
  method(y) { for (const z of y) { z(); } }
}
"""
    assert sorted(js_functions(text)) == sorted([
        ("outer", 10), ("inner", 3), ("constructor", 5), ("<function at line 16>", 3), ("method", 1)])
    assert js_functions("const s = '{';\nconst t = \"}\";\n") == []


def test_javascript_functions_and_files_are_small():
    files = dict(js_sources())
    assert "tools/emulate/emulate.js" in files and len(files) >= 10  # the emulator was read
    sizes = {rel: len(text.splitlines()) for rel, text in files.items()}
    over = {rel: n for rel, n in sizes.items() if n > JS_FILE_LINES}
    assert not over, over
    long = [(rel, name, lines) for rel, text in files.items() for name, lines in js_functions(text)
            if lines > FUNCTION_LINES]
    assert not long, long
