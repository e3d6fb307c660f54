"""The house rules that a test can keep: import guard, one tracing module, docstrings."""

import ast
import pathlib

import pytest

import laxarray

PACKAGE = pathlib.Path(laxarray.__file__).parent
FORBIDDEN = ("jax.numpy", "jax.scipy", "jax.experimental", "jax._src")
TRACING_INTERNALS = ("jax.extend", "jax.core", "jax.interpreters")


def _imports(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno
            for alias in node.names:
                yield f"{node.module}.{alias.name}", node.lineno


def _library_files():
    return sorted(p for p in PACKAGE.rglob("*.py"))


def test_library_never_imports_jax_numpy_scipy_experimental_or_private():
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {mod}"
           for p in _library_files() for mod, line in _imports(p)
           if any(mod == f or mod.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []


def test_tracing_internals_go_through_jaxapi_only():
    allowed = {PACKAGE / "_core" / "jaxapi.py"}
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {mod}"
           for p in _library_files() if p not in allowed for mod, line in _imports(p)
           if any(mod == f or mod.startswith(f + ".") for f in TRACING_INTERNALS)]
    assert bad == []


def test_no_assert_statements_in_library_code():
    bad = [f"{p.relative_to(PACKAGE)}:{node.lineno}"
           for p in _library_files()
           for node in ast.walk(ast.parse(p.read_text())) if isinstance(node, ast.Assert)]
    assert bad == []


@pytest.mark.parametrize("name", sorted(n for n in dir(laxarray) if not n.startswith("_")))
def test_public_callables_have_a_summary_docstring(name):
    obj = getattr(laxarray, name)
    if not callable(obj) or isinstance(obj, type) and obj.__module__ == "numpy":
        return
    if getattr(obj, "__module__", "").startswith("numpy"):
        return  # dtype objects
    doc = (obj.__doc__ or "").strip()
    assert doc, f"laxarray.{name} has no docstring"
    assert len(doc.splitlines()[0]) <= 120


def test_array_api_version():
    assert laxarray.__array_api_version__ == "2025.12"
