"""The house rules that a test can keep: import guard, one tracing module, docstrings."""

import ast
import functools
import pathlib

import pytest

import laxarray

PACKAGE = pathlib.Path(laxarray.__file__).parent
FORBIDDEN = ("jax.numpy", "jax.scipy", "jax.experimental", "jax._src")
TRACING_INTERNALS = ("jax.extend", "jax.core", "jax.interpreters")


@functools.cache
def _tree(path):
    """``path`` parsed (once per process: every rule reads every library file; the trees
    are only walked, never changed)."""
    return ast.parse(path.read_text(), filename=str(path))


def _imports(path):
    tree = _tree(path)
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


#: The one exception to FORBIDDEN: executables are serialized through jax's module,
#: imported by the module of jax's internals alone.
SERIALIZE = ("_core/jaxapi.py", "jax.experimental.serialize_executable")


def _allowed(path, mod):
    return (str(path.relative_to(PACKAGE)), mod) == SERIALIZE or (
        str(path.relative_to(PACKAGE)) == SERIALIZE[0] and mod == "jax.experimental")


def test_library_never_imports_jax_numpy_scipy_experimental_or_private():
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {mod}"
           for p in _library_files() for mod, line in _imports(p)
           if any(mod == f or mod.startswith(f + ".") for f in FORBIDDEN)
           and not _allowed(p, mod)]
    assert bad == []


def test_no_module_is_imported_by_name_around_the_guard():
    """``importlib.import_module("jax....")`` would pass the import guard unseen."""
    bad = [f"{p.relative_to(PACKAGE)}:{node.lineno}"
           for p in _library_files() for node in ast.walk(_tree(p))
           if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
           and node.args and isinstance(node.args[0], ast.Constant)
           and str(node.args[0].value).startswith("jax")]
    assert bad == []


def test_tracing_internals_go_through_jaxapi_only():
    allowed = {PACKAGE / "_core" / "jaxapi.py"}      # the one module of them
    assert all(p.exists() for p in allowed)
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {mod}"
           for p in _library_files() if p not in allowed for mod, line in _imports(p)
           if any(mod == f or mod.startswith(f + ".") for f in TRACING_INTERNALS)]
    assert bad == []


def test_no_assert_statements_in_library_code():
    bad = [f"{p.relative_to(PACKAGE)}:{node.lineno}"
           for p in _library_files()
           for node in ast.walk(_tree(p)) if isinstance(node, ast.Assert)]
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


def _attribute_uses(tree, module, names):
    """Line numbers of ``module.<name>`` in ``tree`` for a name in ``names``."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr in names
                and isinstance(node.value, ast.Name) and node.value.id == module):
            yield node.lineno


def _jit_calls(path):
    """Line numbers in ``path`` that call or import ``jax.jit`` (``jax.jit(...)``,
    ``@jax.jit``, ``partial(jax.jit, ...)``, ``from jax import jit``), and lines whose text
    spells a call (``jax.jit(``, in a docstring too: a text scan cannot tell them apart)."""
    text = path.read_text()
    for i, line in enumerate(text.splitlines(), 1):
        if "jax.jit(" in line:
            yield i
    tree = _tree(path)
    yield from _attribute_uses(tree, "jax", ("jit",))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "jax" and any(
                a.name == "jit" for a in node.names):
            yield node.lineno


def _scan_calls(path):
    """Line numbers in ``path`` that name one of lax's scans (``lax.cumsum`` ...)."""
    return _attribute_uses(_tree(path), "lax",
                           ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"))


def _padded_runs(path):
    """Line numbers in ``path`` that call a kernel binding's ``run_eager``/``run_masked``
    (a kernel run on bucket-shaped values: which ones, and the result's logical shape, are
    decided in one place)."""
    for node in ast.walk(_tree(path)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("run_eager", "run_masked")):
            yield node.lineno


@pytest.mark.parametrize("finder, owner, also", [
    (_jit_calls, "_core/runtime/kernel.py", ()),      # the one kernel helper jits
    (_scan_calls, "_core/numerics.py", ()),   # numerics.cumulative keeps scans in scan_block
    # _calls.call runs kernels on buckets (the kernel runtime runs its own bindings)
    (_padded_runs, "array_api/_calls.py", ("_core/runtime/kernel.py",)),
], ids=["jax.jit", "lax scans", "padded runs"])
def test_only_its_owner_uses_it(finder, owner, also):
    bad = [f"{p.relative_to(PACKAGE)}:{line}" for p in _library_files()
           if p != PACKAGE / owner and p not in {PACKAGE / a for a in also}
           for line in finder(p)]
    assert bad == []
    assert list(finder(PACKAGE / owner)), "the owner itself must use it"


#: laxarray's own public names: neither the standard's nor NumPy's (a short, reasoned list).
OWN_NAMES = {
    "Array": "the array object (the standard names no class)",
    "AxisError": "NumPy's exceptions.AxisError, exported at the top as jax.numpy does",
    "RankPromotionWarning": "the rank-promotion guard (jax's jax_numpy_rank_promotion)",
    "get_rank_promotion": "the rank-promotion guard", "set_rank_promotion": "the guard",
    "rank_promotion": "the guard, as a context manager",
    "get_host_sort": "the host (NumPy) sorting path on CPU", "set_host_sort": "the same",
    "host_sort": "the same, as a context manager",
    "get_matmul_precision": "the precision of float matrix products (GPU: TF32 or not)",
    "set_matmul_precision": "the same", "matmul_precision": "the same, as a context manager",
    "bfloat16": "jax's (ml_dtypes') bfloat16, a dtype NumPy lacks",
    "finfo_object": "the type finfo returns", "iinfo_object": "the type iinfo returns",
    "grad": "jax transformations for Array-valued functions", "value_and_grad": "same",
    "jacfwd": "same", "jacrev": "same", "vmap": "same", "jit": "same", "hessian": "same",
    "vjp": "same", "jvp": "same",
    "StoreHintWarning": "the category of the one-time hint that the executable store is empty",
}


def test_public_namespace_is_the_standard_numpy_or_documented():
    import json
    table = json.loads((PACKAGE.parent / "tests" / "data" /
                        "array_api_2025_12_signatures.json").read_text())["functions"]
    import numpy as np
    import types
    names = {n for n in dir(laxarray) if not n.startswith("_") and not (  # subpackages
        isinstance(getattr(laxarray, n), types.ModuleType)
        and getattr(laxarray, n).__name__.startswith("laxarray."))}
    stray = sorted(n for n in names if n not in table and not hasattr(np, n)
                   and n not in OWN_NAMES)
    assert stray == [], f"public names that are neither the standard's nor NumPy's: {stray}"
    assert not (set(OWN_NAMES) - names), "OWN_NAMES lists names laxarray no longer has"
    init = (PACKAGE / "__init__.py").read_text() + (PACKAGE / "array_api" /
                                                    "__init__.py").read_text()
    assert "globals().update" not in init and "dir()" not in init


#: The layer order, lowest first: a module may import its own layer and the ones before it.
#: ``laxarray/__init__.py`` assembles the namespace; ``conformance`` tests any namespace and
#: imports nothing of laxarray outside itself.
LAYERS = (
    ("_core",),       # what an array means: dtypes, backend records, devices, numerics, jaxapi
    ("_core.runtime",),  # compiling kernels and keeping their executables (_core/runtime/)
    ("array_api",),
    ("linalg", "fft", "numpy_api", "transforms", "typing"),
    ("sparse",),
    ("checkify", "optimize"),
    ("precompile",),
)
_LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def _part(path):
    """The top-level part of laxarray that ``path`` belongs to (``None``: the package file)."""
    rel = path.relative_to(PACKAGE).with_suffix("").parts
    if rel[:2] == ("_core", "runtime") and len(rel) > 2:
        return "_core.runtime"     # the runtime: a layer of its own inside _core
    return None if rel == ("__init__",) else rel[0]


def _target_part(parts):
    """The part of laxarray an import of ``laxarray.<parts[1:]>`` reaches (as :func:`_part`)."""
    return "_core.runtime" if parts[1:3] == ["_core", "runtime"] else parts[1]


def _layer_violations(path):
    here = _part(path)
    tree = _tree(path)
    for node in ast.walk(tree):  # every import, function-local ones included
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            targets = [node.module]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            if parts[0] != "laxarray":
                continue
            if len(parts) == 1:
                yield node.lineno, target, "imports the top-level package"
            elif here == "conformance" and parts[1] != "conformance":
                yield node.lineno, target, "conformance imports nothing of laxarray"
            elif here != "conformance" and parts[1] == "conformance":
                yield node.lineno, target, "the library does not import the runner"
            elif (here in _LAYER_OF and _target_part(parts) in _LAYER_OF
                  and _LAYER_OF[_target_part(parts)] > _LAYER_OF[here]):
                yield node.lineno, target, f"{here} is below {_target_part(parts)}"


def test_every_part_of_the_package_has_a_layer():
    parts = {_part(p) for p in _library_files()} - {None, "conformance"}
    assert parts <= set(_LAYER_OF), parts - set(_LAYER_OF)


def test_imports_flow_one_way():
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {target} ({why})"
           for p in _library_files() if _part(p) is not None
           for line, target, why in _layer_violations(p)]
    assert bad == []


def test_array_methods_are_declared_in_its_class_body():
    # no module attaches attributes to Array after its definition (setattr / Array.x = ...):
    # NumPy's methods are declared in the class body and looked up in NUMPY_METHODS
    bad = []
    for path in _library_files():
        tree = _tree(path)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "setattr" and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id == "Array"):
                bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                    and t.value.id == "Array" for t in node.targets):
                bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert bad == []
    from laxarray.array_api._array import NUMPY_METHODS, Array, _NumpyMethod, _NumpyProperty
    declared = {n for n, v in vars(Array).items()
                if isinstance(v, (_NumpyMethod, _NumpyProperty))}
    assert declared == set(NUMPY_METHODS)  # every declared name has a body, and back
    import numpy as np
    assert all(hasattr(np.ndarray, n) for n in declared)


# ---- the import graph: modules of laxarray, every import an edge --------------------------

def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


_MODULES = {_module_name(p): p for p in _library_files()}


def _nearest_module(name):
    """The laxarray module that importing ``name`` runs (``pkg.mod.attr`` -> ``pkg.mod``)."""
    while name and name not in _MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _import_targets(module, node):
    """The laxarray modules an ``import`` statement of ``module`` imports."""
    if isinstance(node, ast.Import):
        return {_nearest_module(alias.name) for alias in node.names} - {None}
    if node.level:  # relative: from the package of ``module``
        package = module.split(".")
        if _MODULES[module].name != "__init__.py":
            package = package[:-1]
        base = ".".join(package[:len(package) - node.level + 1] +
                        ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return {_nearest_module(f"{base}.{alias.name}") for alias in node.names} - {None}


def _import_nodes(tree):
    """``(node, inside a function)`` for every import statement of a module."""
    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, local
            yield from visit(child, local or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
    yield from visit(tree, False)


def _import_graph():
    """module -> the laxarray modules it imports, function-local imports included (they are
    how a cycle is hidden: the import runs later, but the modules still need each other)."""
    graph = {}
    for module, path in _MODULES.items():
        tree = _tree(path)
        graph[module] = set().union(*[_import_targets(module, node)
                                      for node, _ in _import_nodes(tree)]) - {module}
    return graph


def _cycles(graph):
    """The strongly connected components of ``graph`` with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_modules_import_each_other_as_a_dag():
    """No import cycle in laxarray -- inside a package (the Array and its operations,
    the conformance runner and its pool) or across packages.  A class whose methods need
    an operation defined above it looks the body up in a table the operation's module
    fills (``array_api._method_bodies``), never imports it back."""
    assert _cycles(_import_graph()) == []


def test_cycle_finder_sees_a_function_local_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    tree = ast.parse("import os\ndef f():\n    from laxarray.array_api import _array\n")
    assert [local for _, local in _import_nodes(tree)] == [False, True]
    assert _import_targets("laxarray.conformance.runner", ast.parse(
        "from . import parallel").body[0]) == {"laxarray.conformance.parallel"}


def test_laxarray_modules_are_imported_at_module_top():
    """With no cycle to break, a function-local import of a laxarray module only hides a
    dependency: import it at the top.  (Deferred imports of heavy or optional third-party
    modules -- SciPy's sparse solvers, scikit-learn -- are not laxarray's and stay.)"""
    bad = []
    for module, path in _MODULES.items():
        tree = _tree(path)
        bad += [f"{path.relative_to(PACKAGE)}:{node.lineno}"
                for node, local in _import_nodes(tree)
                if local and _import_targets(module, node)]
    assert bad == []


# ---- no import circle anywhere in the tree: the package and the scripts beside it ----------

REPO = pathlib.Path(__file__).resolve().parents[1]
#: the folders of scripts: each is run with its own folder on ``sys.path`` (and some put
#: another of these there: the device harnesses read benchmarks' timing helpers)
SCRIPT_DIRS = ("benchmarks", "tools", "tools/device", "examples")


def _script_graph(root, dirs=SCRIPT_DIRS):
    """``folder/stem`` -> what that script imports, function-local imports included: a bare
    ``import X`` or ``from X import ...`` is the script ``X`` of its own folder, else of the
    one other folder of ``dirs`` that has it; ``laxarray...`` is the package's module."""
    scripts = {f"{d}/{p.stem}": p for d in dirs for p in sorted((root / d).glob("*.py"))}

    def script(name, folder):
        if f"{folder}/{name}" in scripts:
            return f"{folder}/{name}"
        found = [f"{d}/{name}" for d in dirs if f"{d}/{name}" in scripts]
        return found[0] if len(found) == 1 else None

    graph = {}
    for node, path in scripts.items():
        folder, targets = node.rpartition("/")[0], set()
        for stmt, _ in _import_nodes(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(stmt, ast.ImportFrom) and stmt.level:
                continue   # scripts are not packages: a relative import is not theirs
            names = ([alias.name for alias in stmt.names] if isinstance(stmt, ast.Import)
                     else [f"{stmt.module}.{alias.name}" for alias in stmt.names])
            for name in names:
                if name.split(".")[0] == PACKAGE.name:
                    targets.add(_nearest_module(name))
                else:
                    targets.add(script(name.split(".")[0], folder))
        graph[node] = targets - {None, node}
    return graph


def test_no_import_circle_anywhere_in_the_tree():
    """No circle among laxarray's modules and the scripts of benchmarks/, tools/ and
    examples/ (a harness that imports another that imports it back: the two are one
    module that cannot be read, or run, apart); what two scripts share goes in a module
    both import (``tools/device/_harness.py``)."""
    graph = {**_import_graph(), **_script_graph(REPO)}
    assert _cycles(graph) == []


def test_circle_finder_sees_scripts_import_each_other(tmp_path):
    (tmp_path / "bench").mkdir()
    (tmp_path / "device").mkdir()
    (tmp_path / "bench" / "_timing.py").write_text("import time\n")
    (tmp_path / "device" / "a.py").write_text("import b\nfrom _timing import time\n")
    (tmp_path / "device" / "b.py").write_text("import os\n")
    graph = _script_graph(tmp_path, ("bench", "device"))
    assert graph == {"bench/_timing": set(), "device/a": {"device/b", "bench/_timing"},
                     "device/b": set()}
    assert _cycles(graph) == []
    # b imports a back, inside a function: a circle of the two
    (tmp_path / "device" / "b.py").write_text("def f():\n    from a import x\n")
    assert _cycles(_script_graph(tmp_path, ("bench", "device"))) == [["device/a", "device/b"]]


# ---- the Array's storage: its slots belong to the modules that define them ----------------

#: slot -> the modules that may touch it: ``_array`` owns the storage; ``_views`` reads the
#: view state it defines.  Everyone else goes through the Array's methods (``_value``,
#: ``_padded()``, ``_held()``, ``_rebind()``, ``base``) and ``_array``'s constructors.
SLOT_OWNERS = {
    "_v": {"array_api/_array.py"},
    "_pad": {"array_api/_array.py"},
    "_lshape": {"array_api/_array.py"},
    "_view": {"array_api/_array.py", "array_api/_views.py"},
}


def _slot_uses(tree):
    """``(slot, line)`` for every attribute access (read, write or delete) of an Array slot
    name, and every ``getattr``/``setattr``/``hasattr`` that names one."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SLOT_OWNERS:
            yield node.attr, node.lineno
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in SLOT_OWNERS):
            yield node.args[1].value, node.lineno


def test_array_slots_are_touched_only_by_their_owners():
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {slot}" for p in _library_files()
           for slot, line in _slot_uses(_tree(p))
           if str(p.relative_to(PACKAGE)) not in SLOT_OWNERS[slot]]
    assert bad == []
    from laxarray.array_api._array import Array
    assert set(Array.__slots__) - {"__weakref__"} == set(SLOT_OWNERS)


def test_no_namespace_is_filled_through_globals():
    """Namespaces are explicit imports and definitions (``sparse``'s unary functions are
    defined by name in ``sparse/ops/unary.py``), never ``globals().update(...)``."""
    bad = [f"{p.relative_to(PACKAGE)}:{node.lineno}" for p in _library_files()
           for node in ast.walk(_tree(p))
           if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
           and node.func.id == "globals"]
    assert bad == []


# ---- the CPU host path: declared on a kernel, decided by the kernel helper alone ------------

#: The gates and eager results of the host path, which only the kernel helper's module
#: (``_core/runtime/host_path.py``, asked by ``_core/runtime/kernel.py``) may call: a call of one of
#: them (as an attribute of these modules or imported from them) chooses host or XLA by hand.
HOST_GATES = {"usable", "usable_operands", "placed", "eager_view", "native", "platform",
              "array_like"}
HOST_GATE_MODULES = {"_host_order", "spgemm_host", "union_host", "host_path"}
HOST_HELPER = {"_core/runtime/host_path.py", "_core/runtime/kernel.py"}

#: Modules that still choose host or XLA by hand -- a ``host`` static or parameter, a gate
#: call -- because their kernels do not declare their host path yet (issue 42, item 1), with
#: the number of such places.  It only shrinks: a module that no longer has one leaves it.
HOST_CHOICES_LEFT = {}


def _host_gate_names(tree):
    """The names by which the module ``tree`` reaches the host gates: ``(modules, gates)``,
    each as bound by its imports (``spgemm_host as _host``, ``from ... import usable``)."""
    modules, gates = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            from_gates = node.module.rsplit(".", 1)[-1] in HOST_GATE_MODULES
            for alias in node.names:
                if alias.name in HOST_GATE_MODULES:
                    modules.add(alias.asname or alias.name)
                elif from_gates and alias.name in HOST_GATES:
                    gates.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name.rsplit(".", 1)[-1] in HOST_GATE_MODULES:
                    modules.add(alias.asname)
    return modules, gates


def _tests_host(test):
    """Whether the condition ``test`` is ``host``, ``not host`` or a chain of ``and``/``or``
    with ``host`` in it (``host is not None`` -- a concrete copy -- is not a choice)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, ast.BoolOp):
        return any(_tests_host(v) for v in test.values)
    return isinstance(test, ast.Name) and test.id == "host"


def host_choices(tree):
    """``(line, what)`` of each place in the module ``tree`` that chooses the host path or
    the XLA body by hand: a kernel static named ``host``, a branch on ``host`` (``if host:``,
    ``a if host else b``, ``host and ...``), a call of a host gate."""
    modules, gates = _host_gate_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.IfExp, ast.While)) and _tests_host(node.test):
            yield node.lineno, "a branch on 'host'"
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "kernel":
            for kw in node.keywords:
                if kw.arg == "static" and "host" in [getattr(e, "value", None) for e in
                                                     getattr(kw.value, "elts", ())]:
                    yield node.lineno, "a 'host' static"
        if (isinstance(func, ast.Attribute) and func.attr in HOST_GATES
                and isinstance(func.value, ast.Name) and func.value.id in modules):
            yield node.lineno, f"{func.value.id}.{func.attr}()"
        elif isinstance(func, ast.Name) and func.id in gates:
            yield node.lineno, f"{func.id}()"


def test_only_the_kernel_helper_chooses_the_host_path():
    """A kernel declares its host path (``@kernel(host=HostPath(...))``) and the kernel
    helper decides host or XLA; no module writes its own eager bypass or ``if host:``
    branch.  The modules not migrated yet are listed, with their counts, and only shrink."""
    found = {}
    for p in _library_files():
        rel = str(p.relative_to(PACKAGE))
        if rel not in HOST_HELPER:
            places = list(host_choices(ast.parse(p.read_text(), filename=str(p))))
            if places:
                found[rel] = places
    counts = {rel: len(places) for rel, places in found.items()}
    assert counts == HOST_CHOICES_LEFT, {
        rel: places for rel, places in found.items()
        if counts[rel] != HOST_CHOICES_LEFT.get(rel)}


def test_the_host_choice_finder_sees_each_form():
    tree = ast.parse(
        "from laxarray.array_api._host_order import usable\n"
        "from laxarray.array_api import _host_order\n"
        "@kernel(static=('axis', 'host'))\n"
        "def k(x, *, axis, host):\n"
        "    if not host:\n"
        "        return x\n"
        "    return _host_order.eager_view(x) if axis and host else x\n"
        "from laxarray.sparse.ops import spgemm_host as _h\n"
        "_h.usable(x) if host is not None else usable(x)\n")
    assert sorted(what for _, what in host_choices(tree)) == [
        "_h.usable()", "_host_order.eager_view()", "a 'host' static", "a branch on 'host'",
        "a branch on 'host'", "usable()"]


# ---- one topic a module: a size a reader can hold ------------------------------------------

#: STYLE: "one module, one topic; under ~800 lines with docstrings"; the array-semantics and
#: runtime core, read by every newcomer first, keeps its modules under 600
MODULE_LINES, CORE_LINES = 800, 600


def _oversized(paths, limit, root=PACKAGE):
    return {str(p.relative_to(root)): n for p in paths
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > limit}


def test_no_module_is_longer_than_a_reader_can_hold():
    assert _oversized(_library_files(), MODULE_LINES) == {}
    assert _oversized((PACKAGE / "_core").rglob("*.py"), CORE_LINES) == {}


def test_the_size_rule_sees_a_long_module(tmp_path):
    (tmp_path / "long.py").write_text("x = 1\n" * (CORE_LINES + 1))
    (tmp_path / "short.py").write_text("x = 1\n" * CORE_LINES)
    assert _oversized(tmp_path.glob("*.py"), CORE_LINES, tmp_path) == {"long.py": CORE_LINES + 1}
