"""The modules of ``laxarray.sparse`` import each other one way only.

Every import of a sparse module (absolute ``laxarray.sparse.x`` or relative) is at module
level, and those imports form an acyclic graph: a module never needs a function-local
import to reach one that imports it.
"""

import ast
import pathlib

import laxarray.sparse

ROOT = pathlib.Path(laxarray.sparse.__file__).parent
PACKAGE = "laxarray.sparse"


def _module_name(path):
    rel = path.relative_to(ROOT).with_suffix("").parts
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return ".".join((PACKAGE,) + rel)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_package(name):
    return MODULES[name].name == "__init__.py"


def _resolve(importer, node):
    """The sparse modules an import node names (a ``from m import x`` names ``m.x`` when
    that is a module, else ``m``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    if node.level:
        base = importer.split(".")
        if not _is_package(importer):
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{module}.{alias.name}"
        if sub in MODULES:
            out.append(sub)
        elif module in MODULES:
            out.append(module)
    return out


def _imports(name):
    """``(target, line, local)`` for every import of a sparse module in module ``name``;
    ``local`` when it sits inside a function (it runs on call, not on import)."""
    tree = ast.parse(MODULES[name].read_text(), filename=str(MODULES[name]))

    def walk(node, local):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in sorted(set(_resolve(name, child))):
                    yield target, child.lineno, local
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                ast.Lambda))
            yield from walk(child, inner)

    return list(walk(tree, False))


def _graph():
    return {name: sorted({t for t, _, local in _imports(name) if not local and t != name})
            for name in MODULES}


def _find_cycle(graph):
    """One cycle of ``graph`` as a list of nodes (first == last), or ``None``."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in graph.get(node, ()):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_scan_sees_the_package():
    graph = _graph()
    assert len(graph) > 10
    assert "laxarray.sparse.bcoo" in graph["laxarray.sparse.bcsr"]
    assert "laxarray.sparse._keys" in graph["laxarray.sparse.ops.ell"]
    assert _find_cycle({"a": ["b"], "b": ["c"], "c": ["a"]}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": ["b"], "b": [], "c": ["a", "b"]}) is None


def test_no_function_local_imports_of_sparse_modules():
    local = [f"{MODULES[name].relative_to(ROOT.parent.parent)}:{line}: imports {target}"
             for name in sorted(MODULES) for target, line, is_local in _imports(name)
             if is_local]
    assert local == [], "\n".join(local)


def test_module_level_imports_form_no_cycle():
    cycle = _find_cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
