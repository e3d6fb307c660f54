"""The API reference of the documentation site, generated from the code (issue 55).

At ``builder-inited`` this Sphinx extension writes ``docs/reference/`` (git-ignored, made
anew on every build) from what the code says:

- which names each module exports: its ``__all__`` (``laxarray`` and ``laxarray.sparse``
  have none: their public names, as ``tests/test_house_rules.py`` reads them);
- the group of each name of the standard: the conformance runner's chapters
  (``laxarray.conformance.chapters``, the standard's reference pages); the NumPy extras
  apart, one page per family module of ``laxarray.numpy_api``;
- per entry, beside autodoc's signature and docstring: what is static under ``jax.jit``
  (read from the signature), the dtypes its conformance spec checks and which of them each
  backend has (``laxarray._core.backend``: ``dtypes`` and the ``linalg``/``fft`` families),
  the standard's page for a function of the standard (``tests/data``'s signature table, the
  standard's names), and the rows of ``docs/differences.toml`` that name it;
- the backend table and the differences page.

:func:`pages` is the whole plan and imports no Sphinx: ``tests/test_docs_site.py``
compares the names it documents with the modules' ``__all__``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import pathlib
import re
import shutil
import tomllib
import types
from dataclasses import dataclass, field

DOCS = pathlib.Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
OUT = DOCS / "reference"
SIGNATURES = ROOT / "tests" / "data" / "array_api_2025_12_signatures.json"
DIFFERENCES = DOCS / "differences.toml"
STANDARD = "https://data-apis.org/array-api/2025.12"

#: the standard's chapter (``chapters.CHAPTERS``) -> (page title, the standard's page)
CHAPTER_PAGES = {
    "array object": ("The array object", "API_specification/array_object.html"),
    "constants": ("Constants", "API_specification/constants.html"),
    "creation": ("Creation functions", "API_specification/creation_functions.html"),
    "data types": ("Data type functions", "API_specification/data_type_functions.html"),
    "elementwise": ("Elementwise functions", "API_specification/elementwise_functions.html"),
    "indexing": ("Indexing functions", "API_specification/indexing_functions.html"),
    "inspection": ("Inspection", "API_specification/inspection.html"),
    "linear algebra": ("Linear algebra functions",
                       "API_specification/linear_algebra_functions.html"),
    "manipulation": ("Manipulation functions",
                     "API_specification/manipulation_functions.html"),
    "searching": ("Searching functions", "API_specification/searching_functions.html"),
    "sets": ("Set functions", "API_specification/set_functions.html"),
    "sorting": ("Sorting functions", "API_specification/sorting_functions.html"),
    "statistical": ("Statistical functions", "API_specification/statistical_functions.html"),
    "utility": ("Utility functions", "API_specification/utility_functions.html"),
}
#: the standard's extensions: laxarray module -> (chapter, the standard's page)
EXTENSIONS = {
    "laxarray.linalg": ("linalg", "extensions/linear_algebra_functions.html"),
    "laxarray.fft": ("fft", "extensions/fourier_transform_functions.html"),
}
#: the modules beyond the standard, each one page: module -> title
OTHER_MODULES = {
    "laxarray.sparse": "Sparse arrays: laxarray.sparse",
    "laxarray.sparse.linalg": "Sparse solvers: laxarray.sparse.linalg",
    "laxarray.checkify": "Runtime checks: laxarray.checkify",
    "laxarray.optimize": "Minimisation: laxarray.optimize",
    "laxarray.precompile": "Compiling ahead: laxarray.precompile",
    "laxarray.conformance": "The conformance runner: laxarray.conformance",
}
#: the guide page of each module beyond the standard
GUIDES = {"laxarray.sparse": "sparse", "laxarray.sparse.linalg": "sparse",
          "laxarray.checkify": "checkify", "laxarray.precompile": "compilation",
          "laxarray.conformance": "conformance"}

#: parameters that laxarray makes hashable and passes to its kernels as static arguments
#: (STYLE: axis, shape and dtype; the switches that choose a program), and the options of
#: a transformation (``argnums``, ``in_axes`` ...): under ``jax.jit`` they are Python values,
#: and each new value compiles once more.  A docstring's own statement comes first
#: (:func:`static_parameters`).
STATIC_PARAMETERS = frozenset((
    "axis", "axes", "axis1", "axis2", "axisa", "axisb", "axisc", "source", "destination",
    "keepdims", "dtype", "shape", "newshape", "device", "copy", "size", "stable",
    "descending", "endpoint", "num", "mode", "method", "order", "norm", "side", "ord",
    "correction", "ddof", "equal_nan", "indexing", "sparse", "casting", "decimals",
    "return_index", "return_inverse", "return_counts", "assume_unique", "kind",
    "include_initial", "right", "repeats", "reps", "shift", "k", "offset", "n", "s",
    "argnums", "has_aux", "holomorphic", "allow_int", "in_axes", "out_axes", "axis_name",
    "axis_size", "spmd_axis_name", "sum_match"))
#: the paragraph of a docstring's Notes that names its static parameters (the convention
#: of the docstrings: "Static under ``jax.jit``: ``axis``, ``keepdims``.")
STATIC_PARAGRAPH = re.compile(r"^Static under ``jax\.jit``:(.*?)(?:\n\s*\n|\Z)", re.S | re.M)
#: the standard's methods of the array object whose names are dunders (documented with
#: the class where it defines them)
ARRAY_SPECIAL_MEMBERS = (
    "__array_namespace__", "__getitem__", "__setitem__", "__dlpack__", "__dlpack_device__",
    "__bool__", "__complex__", "__float__", "__int__", "__index__", "__len__", "__iter__",
    "__array__")
_JIT_WORDS = re.compile(r"jit|static|traced|trace|eager|size=")


@dataclass
class Entry:
    """One documented name: ``module.name``."""

    module: str
    name: str
    obj: object
    #: the name the standard and the spec table use (``linalg.inv``), if of the standard
    standard: str | None = None


@dataclass
class Page:
    """One page of the reference."""

    slug: str
    title: str
    intro: str
    sections: list = field(default_factory=list)   # [(heading or None, [Entry])]


# ---- which names -------------------------------------------------------------------------

def public_names(module):
    """The public names of ``module``: its ``__all__``; without one (``laxarray``,
    ``laxarray.sparse``) every name not starting with ``_`` that is not a laxarray module."""
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return sorted(n for n in dir(module) if not n.startswith("_") and not (
        isinstance(getattr(module, n), types.ModuleType)
        and getattr(module, n).__name__.startswith("laxarray.")))


def documented_modules():
    """``{module name: public names}`` of every module the reference covers."""
    import laxarray
    import laxarray.array_api as api
    out = {"laxarray": sorted(set(public_names(laxarray)) | set(api.__all__))}
    for name in (*EXTENSIONS, *OTHER_MODULES):
        out[name] = public_names(importlib.import_module(name))
    return out


def _standard_names():
    """The standard's function names (``linalg.inv`` for an extension's)."""
    return set(json.loads(SIGNATURES.read_text())["functions"])


# ---- the plan --------------------------------------------------------------------------

def pages():
    """Every page of the reference, in order (no Sphinx needed)."""
    import laxarray
    import laxarray.array_api as api
    import laxarray.numpy_api as npapi
    from laxarray.conformance import SPECS
    from laxarray.conformance.chapters import chapter_of_name

    modules = documented_modules()
    standard = _standard_names()
    out = []
    by_chapter = {c: [] for c in CHAPTER_PAGES}
    for n in api.__all__:
        chapter = "array object" if n == "Array" else chapter_of_name(n, SPECS)
        by_chapter[chapter].append(Entry("laxarray", n, getattr(laxarray, n),
                                         n if n in standard else None))
    dtypes = sorted((n for n in modules["laxarray"] if _is_dtype(getattr(laxarray, n))),
                    key=lambda n: _dtype_order(_dtype_name(getattr(laxarray, n))))
    for chapter, (title, url) in CHAPTER_PAGES.items():
        sections = [(None, by_chapter[chapter])]
        if chapter == "data types":
            sections.append(("Data type objects",
                             [Entry("laxarray", n, getattr(laxarray, n)) for n in dtypes]))
        out.append(Page(_slug("standard", chapter), title,
                        f"The standard's page: {_link(title, f'{STANDARD}/{url}')}.",
                        sections))
    for module, (chapter, url) in EXTENSIONS.items():
        mod = importlib.import_module(module)
        ours = [Entry(module, n, getattr(mod, n), f"{chapter}.{n}") for n in modules[module]
                if f"{chapter}.{n}" in standard]
        extra = [Entry(module, n, getattr(mod, n)) for n in modules[module]
                 if f"{chapter}.{n}" not in standard]
        out.append(Page(chapter, f"{module}",
                        f"The standard's {_link(f'{chapter} extension', f'{STANDARD}/{url}')}"
                        " first, then the NumPy functions of the same module.",
                        [(None, ours), ("Beyond the standard (NumPy)", extra)]))
    taken = set(api.__all__) | set(dtypes)
    for family in ("aliases", "editing", "mathfuncs", "shaping", "statistics", "ufuncs"):
        mod = importlib.import_module(f"laxarray.numpy_api.{family}")
        names = [n for n in mod.__all__ if n not in taken]
        taken.update(names)
        summary = escape((inspect.getdoc(mod) or family).split("\n\n")[0].replace("\n", " "),
                         stars=True)
        out.append(Page(f"numpy-{family}", f"NumPy extras: {family}",
                        f"Beyond the standard, NumPy's: {summary}",
                        [(None, [Entry("laxarray", n, getattr(laxarray, n)) for n in names])]))
    own = [n for n in modules["laxarray"] if n not in taken and n not in npapi.__all__]
    out.append(Page("laxarray-own", "laxarray's own names",
                    "Neither the standard's nor NumPy's: configuration, jax "
                    "transformations of Array-valued functions, errors and types.",
                    [(None, [Entry("laxarray", n, getattr(laxarray, n)) for n in own])]))
    for module, title in OTHER_MODULES.items():
        mod = importlib.import_module(module)
        guide = f" Guide: :doc:`../{GUIDES[module]}`." if module in GUIDES else ""
        out.append(Page(module.replace("laxarray.", "").replace(".", "-"), title,
                        f"Module ``{module}``.{guide}",
                        [(None, [Entry(module, n, getattr(mod, n)) for n in modules[module]])]))
    return out


def _slug(prefix, chapter):
    return f"{prefix}-{chapter.replace(' ', '-')}"


def _link(text, url):
    return f"`{text} <{url}>`__"


def _is_dtype(obj):
    import numpy as np
    return isinstance(obj, np.dtype) or (isinstance(obj, type) and obj.__module__ in (
        "ml_dtypes", "ml_dtypes._ml_dtypes_ext") and issubclass(obj, np.generic))


def _dtype_name(obj):
    import numpy as np
    return np.dtype(obj).name


def index(plan=None):
    """``{module: sorted names}`` that the pages document (the test's view of the index)."""
    out = {}
    for page in plan or pages():
        for _, entries in page.sections:
            for e in entries:
                out.setdefault(e.module, set()).add(e.name)
    return {m: sorted(v) for m, v in out.items()}


# ---- per-entry facts ---------------------------------------------------------------------

_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=\W|$)")


def escape(text, stars=False):
    """``text`` (docstring prose) with NumPy's names that end in ``_`` (``r_``,
    ``numpy.s_``) kept from reading as reST references, and with ``stars`` its ``*`` from
    reading as emphasis: outside ````literals```` only."""
    def plain(p):
        p = _TRAILING_UNDERSCORE.sub(r"\\_", p)
        return p.replace("*", r"\*") if stars else p
    parts = text.split("``")
    return "``".join(p if i % 2 else plain(p) for i, p in enumerate(parts))


def summary(obj):
    """The first sentence of ``obj``'s docstring (a period outside ````literals````
    ends it), or what :func:`_describe` says of an object that is not laxarray's."""
    if not (getattr(obj, "__module__", "") or "").startswith("laxarray") or isinstance(
            obj, (int, float)) or not (inspect.isroutine(obj) or isinstance(obj, type)
                                       or type(obj).__module__.startswith("laxarray")):
        return _describe(obj)
    doc = (inspect.getdoc(obj) or "").split("\n\n")[0].replace("\n", " ").strip()
    parts = doc.split("``")
    for i in range(0, len(parts), 2):
        cut = re.search(r"\.(\s|$)", parts[i])
        if cut:
            parts = parts[:i] + [parts[i][:cut.start() + 1]]
            break
    return rich("``".join(parts), getattr(obj, "__module__", None)) or "(no docstring)"


def process_docstring(app, what, name, obj, options, lines):
    """autodoc's hook: NumPy's names ending in ``_`` are not references (``numpy.s_``);
    NumPy's names link to NumPy's pages (:func:`link_numpy`); "the module docstring"
    links to the module's notes (:func:`module_notes_rst`)."""
    module = getattr(obj, "__module__", None) or ""
    lines[:] = rich_lines(lines, module)


def _indent(line):
    return len(line) - len(line.lstrip())


def rich_lines(lines, module=None):
    """:func:`rich` on each paragraph of reST ``lines`` but doctest blocks and literal
    blocks (their code is shown as written)."""
    out, para = [], []
    literal_indent = None   # the indentation of the "::" paragraph a literal block follows

    def flush():
        nonlocal literal_indent
        if not para:
            return
        first = next(line for line in para if line.strip())
        if literal_indent is not None and _indent(first) > literal_indent:
            out.extend(para)
        elif first.lstrip().startswith(">>>"):
            literal_indent = None
            out.extend(para)
        else:
            out.extend(rich("\n".join(para), module).split("\n"))
            literal_indent = _indent(first) if para[-1].rstrip().endswith("::") else None
        para.clear()

    for line in lines:
        if line.strip():
            para.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return out


#: the NumPy names that the offline inventory (docs/_intersphinx/numpy.inv) has pages for
NUMPY_INVENTORY = DOCS / "_intersphinx" / "numpy.inv"
#: NumPy's documentation of that inventory's release (intersphinx_mapping in conf.py)
NUMPY_DOCS = "https://numpy.org/doc/2.4/"
_NUMPY_NAME = re.compile(r"(?<![\w.`~])numpy(?:\.[A-Za-z_]\w*)+")
_MODULE_DOCSTRING = re.compile(r"(?:the |its |this )?module docstring")
_ROLE = re.compile(r"(:[\w:]+:`[^`]*`)")


@functools.lru_cache(maxsize=None)
def numpy_names():
    """The names of ``docs/_intersphinx/numpy.inv`` (Sphinx's inventory format 2)."""
    import zlib
    if not NUMPY_INVENTORY.is_file():
        return frozenset()
    body = zlib.decompress(NUMPY_INVENTORY.read_bytes().split(b"\n", 4)[4]).decode()
    return frozenset(line.split(" ", 1)[0] for line in body.splitlines() if line)


def link_numpy(text):
    """``text`` with each NumPy name that NumPy's documentation has a page for
    (``numpy.corrcoef``, ``numpy.linalg.svd``) made a link to that page (intersphinx)."""
    def sub(m):
        name = m.group(0)
        while name not in numpy_names() and "." in name[len("numpy"):]:
            name = name.rsplit(".", 1)[0]      # "numpy.linalg.svd." -> the longest known
        if name not in numpy_names():
            return m.group(0)
        return f":py:obj:`{name}`" + m.group(0)[len(name):]
    return _NUMPY_NAME.sub(sub, text)


def module_label(module):
    return "module-notes-" + module.replace(".", "-").replace("_", "-")


def rich(text, module=None):
    """Docstring prose for the site: :func:`escape`'s rules, NumPy's names linked
    (:func:`link_numpy`) and "the module docstring" a link to ``module``'s notes --
    outside ````literals```` and roles only."""
    out = []
    for i, part in enumerate(text.split("``")):
        if i % 2:
            out.append(part)
            continue
        pieces = _ROLE.split(part)
        for j, piece in enumerate(pieces):
            if j % 2:
                continue
            piece = link_numpy(piece)
            sub = _ROLE.split(piece)
            sub = [p if k % 2 else escape(p) for k, p in enumerate(sub)]
            piece = "".join(sub)
            if module and module.startswith("laxarray"):
                piece = _MODULE_DOCSTRING.sub(
                    lambda m: f":ref:`the notes of {module} <{module_label(module)}>`",
                    piece)
            pieces[j] = piece
        out.append("".join(pieces))
    return "``".join(out)


def _parameters(obj):
    """The parameter names of ``obj``'s signature, or ``None`` where it has none."""
    try:
        return list(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return None


def _sentences(doc):
    return re.split(r"(?<=[.;])\s+", " ".join(doc.split()))


def static_parameters(obj):
    """``(names, explicit)``: the parameters of ``obj`` that are static under ``jax.jit``,
    and whether its docstring lists them itself (a paragraph "Static under ``jax.jit``:",
    the docstrings' convention; then exactly those, in its order).  Otherwise: the
    parameters of the usual static kinds (:data:`STATIC_PARAMETERS`), and those a sentence
    of the docstring calls static ("``rowvar`` static under ``jax.jit``", "All arguments
    are static", "All arguments but ``a`` are static")."""
    params = _parameters(obj)
    if params is None or isinstance(obj, type):
        return [], False
    params = [p for p in params if p != "self"]
    doc = inspect.getdoc(obj) or ""
    m = STATIC_PARAGRAPH.search(doc)
    if m:
        named = re.findall(r"``(\w+)``", m.group(1))
        return [p for p in dict.fromkeys(named) if p in params], True
    found = {p for p in params if p in STATIC_PARAMETERS}
    for sentence in _sentences(doc):
        low = sentence.lower()
        if "static" not in low or "not static" in low:
            continue
        head = sentence[:low.index("static")]
        if re.search(r"\ball (the )?arguments\b", head, re.I):
            but = set(re.findall(r"``(\w+)``", head)) if re.search(r"\bbut\b", head) else set()
            found |= {p for p in params if p not in but}
        elif not re.search(r"traced|may be|not\b", head):
            found |= {p for p in re.findall(r"``(\w+)``", head) if p in params}
    return [p for p in params if p in found], False


def jit_note(obj):
    """What ``jax.jit`` sees of ``obj``'s arguments, or ``None`` where there is nothing to
    say: its static parameters (:func:`static_parameters`, from the docstring's own list
    or the signature), and ``size=`` for a data-dependent length."""
    if isinstance(obj, type):
        return None
    params = _parameters(obj)
    if params is None:
        return None
    static, _ = static_parameters(obj)
    parts = []
    if static:
        parts.append("static: " + ", ".join(f"``{p}``" for p in static)
                     + " (Python values; each new value compiles once more)")
    if "size" in params and "fill_value" in params:
        parts.append("a data-dependent length needs ``size=`` (and ``fill_value=``)")
    return "; ".join(parts) + "." if parts else None


def dtype_note(entry, specs, records):
    """The dtypes the entry's conformance spec checks, and which of them each backend
    lacks (its ``dtypes``, or the ``linalg``/``fft`` family's)."""
    key = entry.standard or (entry.name if entry.module == "laxarray" else None)
    if entry.module in EXTENSIONS:
        key = f"{EXTENSIONS[entry.module][0]}.{entry.name}"
    spec = specs.get(key) if key else None
    if spec is None or not spec.dtypes:
        return None
    family = {"laxarray.linalg": "linalg", "laxarray.fft": "fft"}.get(entry.module)
    checked = [d for d in spec.dtypes]
    parts = []
    for platform, record in records:
        if not record.tested:   # never run there: the record's expectation is no claim
            parts.append(f"{platform}: untested")
            continue
        have = record.families[family] if family else record.dtypes
        missing = [d for d in checked if not any(d == x.name for x in have)]
        parts.append(f"{platform}: " + ("all" if not missing else
                                        "not " + ", ".join(missing)))
    return (f"checked in {', '.join(checked)} (conformance spec ``{spec.name}``); "
            + "; ".join(parts) + ".")


def standard_url(entry):
    if entry.standard is None:
        return None
    if "." in entry.standard:
        return f"{STANDARD}/extensions/generated/array_api.{entry.standard}.html"
    return f"{STANDARD}/API_specification/generated/array_api.{entry.standard}.html"


def differences():
    """The rows of ``docs/differences.toml``."""
    return tomllib.loads(DIFFERENCES.read_text())["difference"]


def _qualified(entry):
    return f"{entry.module}.{entry.name}"


def _difference_key(entry):
    if entry.module in EXTENSIONS:
        return f"{EXTENSIONS[entry.module][0]}.{entry.name}"
    return entry.name if entry.module == "laxarray" else None


# ---- reStructuredText ----------------------------------------------------------------------

def _directive(entry):
    """The autodoc (or plain) directive of an entry, and whether its body is autodoc's."""
    obj, qual = entry.obj, _qualified(entry)
    mod = getattr(obj, "__module__", "") or ""
    ours = mod.startswith("laxarray")
    if isinstance(obj, type) and ours and entry.name != obj.__name__:   # ndarray = Array
        target = f"{obj.__module__.split('.')[0]}.{obj.__name__}"
        return [f".. py:class:: {qual}", "",
                f"   The class :py:class:`{target}` under NumPy's name.", ""], False
    if isinstance(obj, type) and ours:
        kind = "autoexception" if issubclass(obj, BaseException) else "autoclass"
        special = [n for n in ARRAY_SPECIAL_MEMBERS if n in vars(obj)]
        lines = [f".. {kind}:: {qual}", "   :members:"]
        if special:
            lines.append(f"   :special-members: {', '.join(special)}")
        return lines + [""], True
    if callable(obj) and ours and not isinstance(obj, type):
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)) or hasattr(
                obj, "__wrapped__") or inspect.isroutine(obj):
            return [f".. autofunction:: {qual}", ""], True
    if _numpy_name(obj) and inspect.isroutine(obj):    # NumPy's own, re-exported
        return [f".. py:function:: {qual}{_signature_text(obj)}", "",
                f"   {_describe(obj)}", ""], False
    kind = "py:class" if isinstance(obj, type) else "py:data"
    if ours and not isinstance(obj, (int, float, type(None))):   # r_, mgrid ...
        doc = rich_lines((inspect.getdoc(obj) or "").splitlines(), type(obj).__module__)
        return [f".. {kind}:: {qual}", "", *(f"   {line}" for line in doc), ""], False
    return [f".. {kind}:: {qual}", "", f"   {_describe(obj)}", ""], False


def _signature_text(obj):
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "()"


def _numpy_name(obj):
    """``numpy.name`` of a NumPy object laxarray re-exports, or ``None``."""
    mod = getattr(obj, "__module__", None) or ""
    name = getattr(obj, "__name__", None)
    if not (mod == "numpy" or mod.startswith("numpy.")) or not name:
        return None
    import numpy
    return f"numpy.{name}" if getattr(numpy, name, None) is obj else f"{mod}.{name}"


def _describe(obj):
    """What an entry that has no docstring of laxarray's is, in words: a constant's value,
    a dtype's name, a re-exported NumPy object (linked to NumPy's page), a container by its
    type, length and the kinds of its items -- never a repr with addresses."""
    import numpy as np
    if isinstance(obj, np.dtype):
        return f"The dtype ``{obj.name}``."
    numpy_name = _numpy_name(obj)
    if numpy_name and isinstance(obj, type):
        return f"NumPy's type :py:class:`{numpy_name}`, re-exported."
    if numpy_name:
        return (f"NumPy's own :py:func:`{numpy_name}`, re-exported: the same function "
                "(its parameters: NumPy's page).")
    if isinstance(obj, type):
        return f"``{obj.__module__}.{obj.__qualname__}``, re-exported."
    if obj is None or isinstance(obj, (bool, int, float, complex)):
        return f"``{obj!r}``"
    if isinstance(obj, (set, frozenset, tuple, list)):
        items = sorted(obj, key=repr) if isinstance(obj, (set, frozenset)) else list(obj)
        kind = type(obj).__name__
        if items and all(isinstance(i, type) for i in items):
            return (f"A {kind} of {len(items)} class{'es' if len(items) > 1 else ''}: "
                    + ", ".join(f":py:class:`{_public_path(i)}`" for i in items) + ".")
        if all(isinstance(i, str) for i in items):
            return (f"A {kind} of {len(items)} names: "
                    + ", ".join(f"``{i}``" for i in items) + ".")
        return f"A {kind} of {len(items)} items."
    if isinstance(obj, dict):
        values = {type(v).__name__ for v in obj.values()}
        of = f" of ``{values.pop()}``" if len(values) == 1 else ""
        keys = list(obj)[:3]
        return (f"A dict of {len(obj)} entries{of}, keyed by name ("
                + ", ".join(f"``{k!s}``" for k in keys) + ", ...).")
    return f"An object of type ``{type(obj).__name__}``."


def _public_path(cls):
    """``laxarray.checkify.NaNError`` for a class a documented module exports, else its
    defining module's path."""
    return _exports().get(id(cls), f"{cls.__module__}.{cls.__qualname__}")


@functools.lru_cache(maxsize=None)
def _exports():
    """``{id(object): "module.name"}`` of the classes the documented modules export (the
    first module that exports each)."""
    out = {}
    for module, names in documented_modules().items():
        mod = importlib.import_module(module)
        for n in names:
            obj = getattr(mod, n, None)
            if isinstance(obj, type):
                out.setdefault(id(obj), f"{module}.{n}")
    return out


def entry_rst(entry, specs, records, rows):
    is_array = entry.obj is _array_class() and entry.name == "Array"
    lines = [f".. autoclass:: {_qualified(entry)}", ""] if is_array else _directive(entry)[0]
    fields = []
    jit = jit_note(entry.obj) if callable(entry.obj) else None
    if jit:
        fields.append(("Under jax.jit", jit))
    dt = dtype_note(entry, specs, records)
    if _is_dtype(entry.obj):
        name = _dtype_name(entry.obj)
        dt = "arrays of it on " + (", ".join(
            p for p, r in records if r.tested and any(d.name == name for d in r.dtypes))
            or "none") + "".join(f"; {p}: untested" for p, r in records if not r.tested) + "."
    if dt:
        fields.append(("Dtypes and devices", dt))
    url = standard_url(entry)
    if url:
        fields.append(("Array API", _link(f"array_api.{entry.standard}", url)))
    key = _difference_key(entry)
    for i, row in enumerate(rows):
        if key and key in row["names"]:
            fields.append((f"Differs from {row['versus']}",
                           f"{row['laxarray']} (:ref:`difference {i + 1} <difference-{i + 1}>`)"))
    if fields:
        lines += ["   .. rst-class:: laxarray-facts", ""]
        lines += [f"   :{k}: {v}" for k, v in fields] + [""]
    if is_array:
        lines += array_sections()
    return lines


# ---- the array object ----------------------------------------------------------------------

def _array_class():
    import laxarray
    return laxarray.Array


#: Python's syntax of each operator method's stem (``__add__`` -> ``x + y``)
OPERATOR_SYNTAX = {
    "add": "x + y", "sub": "x - y", "mul": "x * y", "truediv": "x / y",
    "floordiv": "x // y", "mod": "x % y", "pow": "x ** y", "matmul": "x @ y",
    "and": "x & y", "or": "x | y", "xor": "x ^ y", "lshift": "x << y", "rshift": "x >> y",
    "eq": "x == y", "ne": "x != y", "lt": "x < y", "le": "x <= y", "gt": "x > y",
    "ge": "x >= y", "neg": "-x", "pos": "+x", "abs": "abs(x)", "invert": "~x"}
#: the Array's conversions and protocols, in the order the page lists them
ARRAY_PROTOCOLS = (
    "__bool__", "__int__", "__float__", "__complex__", "__index__", "__len__", "__iter__",
    "__array__", "__array_namespace__", "__array_ufunc__", "__dlpack__",
    "__dlpack_device__", "to_device", "block_until_ready")
#: NumPy's properties of the Array, where their bodies have no docstring of their own
NUMPY_PROPERTIES = {
    "real": "The real part, a view: ``x.real[...] = v`` and ``x.real = v`` write into "
            "``x``. NumPy: numpy.ndarray.real.",
    "imag": "The imaginary part, a view of a complex array's (writes go into ``x``); of a "
            "real array, zeros that cannot be written to. NumPy: numpy.ndarray.imag."}
_OPERATOR_DOC = re.compile(r"``(\w+)`` as an operator")


def array_operators():
    """``[(syntax, [method names], function)]`` of the Array's operators, read from the
    class: each operator method says which function of the namespace it calls."""
    cls = _array_class()
    by_stem = {}
    for name, member in vars(cls).items():
        m = _OPERATOR_DOC.match(getattr(member, "__doc__", None) or "")
        if not (m and name.startswith("__")):
            continue
        stem = name.strip("_")
        base = stem[1:] if stem not in OPERATOR_SYNTAX and stem[1:] in OPERATOR_SYNTAX \
            else stem
        by_stem.setdefault(base, ([], m.group(1)))[0].append(name)
    return [(OPERATOR_SYNTAX[stem], names, fn) for stem, (names, fn) in by_stem.items()]


def array_sections():
    """The Array page's sections below the class: how arrays are made, attributes,
    operators, indexing, conversions and protocols, NumPy's methods."""
    import laxarray.array_api._method_bodies as dispatch
    cls = _array_class()
    q = "laxarray.Array"
    lines = ["Making arrays", "-------------", "",
             "``Array(...)`` raises ``TypeError``: arrays are made by "
             ":py:func:`laxarray.asarray` (from Python scalars and nested sequences, NumPy "
             "and jax arrays, and objects with ``__dlpack__`` or ``__array__``), by the "
             "creation functions (:doc:`standard-creation`) and by every other function "
             "of the namespace. ``Array`` is a jax pytree with one leaf, so ``jax.jit``, "
             "``jax.vmap`` and ``jax.lax.scan`` take and return arrays.", ""]
    props = [n for n, v in vars(cls).items() if isinstance(v, property)
             and not n.startswith("_") and n != "at"]
    lines += ["Attributes", "----------", ""]
    for n in props:
        lines += [f".. autoproperty:: {q}.{n}", ""]
    for n, v in vars(cls).items():   # NumPy's properties (x.real, x.imag)
        if type(v).__name__ == "_NumpyProperty":
            doc = inspect.getdoc(dispatch.NUMPY_METHODS[n]) or NUMPY_PROPERTIES.get(n, "")
            lines += [f".. py:property:: {q}.{n}", "",
                      *(f"   {d}" for d in rich_lines(doc.splitlines())), ""]
    lines += ["Operators", "---------", "",
              "Each operator calls the function of the namespace named beside it, with its "
              "type promotion and broadcasting; the reflected form (``__radd__``) serves a "
              "Python scalar or NumPy array on the left. The in-place form (``x += y``) "
              "rebinds ``x`` to the result cast to ``x.dtype`` by NumPy's ``same_kind`` "
              "rule (a kind change, ``int32 += float64``, raises), and writes through a "
              "view. Comparisons are elementwise, as in NumPy, so arrays are not hashable.",
              "", ".. list-table::", "   :header-rows: 1", "   :widths: 20 45 35", "",
              "   * - syntax", "     - methods", "     - function"]
    for syntax, names, fn in array_operators():
        lines += [f"   * - ``{syntax}``", "     - " + ", ".join(f"``{n}``" for n in names),
                  f"     - :py:func:`laxarray.{fn}`"]
    lines += ["", "Indexing", "--------", "",
              "Basic keys give views, advanced keys (integer arrays, boolean masks) copies; "
              "``x.at[key]`` gives jax's functional updates. The guide: "
              ":doc:`../dense`.", ""]
    for n in ("__getitem__", "__setitem__"):
        lines += [f".. automethod:: {q}.{n}", ""]
    lines += [f".. autoproperty:: {q}.at", ""]
    lines += ["Conversions and protocols", "-------------------------", ""]
    for n in ARRAY_PROTOCOLS:
        if n in vars(cls):
            lines += [f".. automethod:: {q}.{n}", ""]
    numpy_methods = [n for n, v in vars(cls).items() if type(v).__name__ == "_NumpyMethod"
                     and n not in ARRAY_PROTOCOLS]
    lines += ["NumPy's methods", "---------------", "",
              "NumPy's ``ndarray`` methods, each the function of the same name applied to "
              "the array (``x.sum(axis=0)`` is ``laxarray.sum(x, axis=0)``), with NumPy's "
              "parameters.", ""]
    for n in numpy_methods:
        lines += [f".. automethod:: {q}.{n}", ""]
    return lines


def process_signature(app, what, name, obj, options, signature, return_annotation):
    """autodoc's hook: the Array class shows no constructor signature (it has none:
    ``Array(...)`` raises; :func:`array_sections` says how arrays are made)."""
    if what == "class" and obj is _array_class():
        return "", ""
    return None


def page_rst(page, specs, records, rows):
    lines = [page.title, "=" * len(page.title), "", page.intro, ""]
    for heading, entries in page.sections:
        if not entries:
            continue
        if heading:
            lines += [heading, "-" * len(heading), ""]
        lines += [".. list-table::", "   :widths: 30 70", ""]
        for e in entries:
            lines += [f"   * - :py:obj:`{e.name} <{_qualified(e)}>`",
                      f"     - {summary(e.obj)}"]
        lines.append("")
        for e in entries:
            lines += entry_rst(e, specs, records, rows)
    return "\n".join(lines) + "\n"


def backends_rst():
    """The backend table: which dtypes each platform has, and what linalg/fft compute in."""
    from laxarray._core import backend
    from laxarray._core.dtypes import bfloat16  # noqa: F401  (the dtype's name below)
    records = [(p, backend.RECORDS[p]) for p in ("cpu", "gpu", "tpu")]
    names = sorted({d.name for _, r in records for d in r.dtypes},
                   key=_dtype_order)
    head = ["dtype", *[p for p, _ in records]]
    rows = [[f"``{n}``", *[("yes" if any(d.name == n for d in r.dtypes) else "**no**")
                          for _, r in records]] for n in names]
    for label, key in (("default real floating", "real floating"),
                       ("default complex floating", "complex floating"),
                       ("default integer", "integral"), ("index dtype", "indexing")):
        rows.append([label, *[f"``{r.defaults[key].name}``" for _, r in records]])
    for fam in ("linalg", "fft"):
        rows.append([f"``{fam}`` computes in", *[", ".join(
            f"``{d.name}``" for d in sorted(r.families[fam], key=lambda d: _dtype_order(
                d.name))) for _, r in records]])
    for label, attr in (("64-bit integer matrix products in XLA", "int64_dot"),
                        ("``linalg.eig`` in XLA", "eig"),
                        ("SVD from the polar decomposition", "polar_svd"),
                        ("host (NumPy/SciPy) paths", "host"),
                        ("executable store", "store"),
                        ("one process at a time (``precompile`` in-process)", "exclusive")):
        rows.append([label, *[("yes" if getattr(r, attr) else "no") for _, r in records]])
    rows.append(["float32 functions laxarray computes itself", *[
        ", ".join(f"``{n}``" for n in sorted(r.own_math)) or "none" for _, r in records]])
    title = "Backends: dtypes and devices"
    lines = [title, "=" * len(title), "",
             "Generated from the backend records of ``laxarray/_core/backend.py`` (one "
             "``Backend`` per XLA platform; every decision that depends on the platform "
             "reads it). ``LAXARRAY_PLATFORM=tpu`` gives a CPU process the TPU's record. "
             "Each entry of the reference lists the dtypes its conformance spec checks "
             "and which of them a backend lacks. Guide: :doc:`../devices`.", "",
             ".. list-table::", "   :header-rows: 1", ""]
    for row in [head, *rows]:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {c}" for c in row[1:]]
    return "\n".join(lines) + "\n"


def _dtype_order(name):
    order = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "bfloat16", "float32", "float64", "complex64", "complex128")
    return order.index(name) if name in order else len(order)


def differences_rst(rows):
    title = "Differences from NumPy and from the standard"
    lines = [title, "=" * len(title), "",
             "Where laxarray knowingly differs, generated from ``docs/differences.toml`` "
             "(the one table: each row also appears in the reference entry of the "
             "functions it names).", ""]
    for versus in ("NumPy", "the standard"):
        head = f"From {versus}"
        lines += [head, "-" * len(head), ""]
        for i, row in enumerate(rows):
            if row["versus"] != versus:
                continue
            names = ", ".join(f":py:obj:`{_target(n)}`" for n in row["names"]) or \
                "the whole namespace"
            lines += [f".. _difference-{i + 1}:", "",
                      f"**{i + 1}.** {names}", "",
                      f"   :laxarray: {row['laxarray']}",
                      f"   :{versus}: {row['other']}", f"   :why: {row['why']}"]
            if row.get("see"):
                lines.append(f"   :see: :doc:`../{row['see'].removesuffix('.md')}`")
            lines.append("")
    return "\n".join(lines) + "\n"


def noted_modules(plan):
    """The modules whose docstrings an entry (or a member of a documented class) refers to
    as "the module docstring": the notes page shows them."""
    out = set()
    for page in plan:
        for _, entries in page.sections:
            for e in entries:
                objs = [e.obj]
                if isinstance(e.obj, type):
                    objs += [getattr(e.obj, n, None) for n in vars(e.obj)]
                for obj in objs:
                    try:
                        doc = inspect.getdoc(obj) or ""
                    except Exception:
                        continue
                    module = getattr(obj, "__module__", None) or ""
                    if module.startswith("laxarray") and _MODULE_DOCSTRING.search(
                            " ".join(doc.split())):
                        out.add(module)
    return sorted(out)


def module_notes_rst(modules):
    title = "Notes of laxarray's modules"
    lines = [title, "=" * len(title), "",
             "The docstrings of the modules that entries of the reference refer to "
             "(\"see the module docstring\"): what their functions share.", ""]
    for module in modules:
        doc = inspect.getdoc(importlib.import_module(module)) or ""
        lines += [f".. _{module_label(module)}:", "", f"``{module}``",
                  "-" * (len(module) + 4), "", *rich_lines(doc.splitlines()), ""]
    return "\n".join(lines) + "\n"


def _target(name):
    return f"laxarray.{name}"


def index_rst(plan):
    title = "API reference"
    lines = [title, "=" * len(title), "",
             "Every public name of ``laxarray`` and of ``laxarray.linalg``, ``fft``, "
             "``sparse`` (and ``sparse.linalg``), ``checkify``, ``optimize``, ``precompile`` "
             "and ``conformance`` (each module's ``__all__``), generated from the code: "
             "signature, docstring, what is static under ``jax.jit``, the dtypes and "
             "devices, and the standard's page for a function of the standard. The "
             "standard's functions are grouped as the standard groups them; NumPy's "
             "extras follow.", "",
             ".. toctree::", "   :caption: The standard", "   :maxdepth: 1", ""]
    lines += [f"   {p.slug}" for p in plan if p.slug.startswith("standard-")]
    lines += [f"   {p.slug}" for p in plan if p.slug in ("linalg", "fft")]
    lines += ["", ".. toctree::", "   :caption: NumPy extras and laxarray's own",
              "   :maxdepth: 1", ""]
    lines += [f"   {p.slug}" for p in plan if p.slug.startswith("numpy-")
              or p.slug == "laxarray-own"]
    lines += ["", ".. toctree::", "   :caption: Beyond the dense namespace", "   :maxdepth: 1",
              ""]
    lines += [f"   {p.slug}" for p in plan if p.slug.startswith(
        ("sparse", "checkify", "optimize", "precompile", "conformance"))]
    lines += ["", ".. toctree::", "   :caption: Tables", "   :maxdepth: 1", "",
              "   backends", "   differences", "   module-notes", ""]
    head = "Index of every name"
    lines += [head, "-" * len(head), ""]
    for module, names in index(plan).items():
        lines += [f"``{module}``", ""]
        lines.append("   " + ", ".join(f":py:obj:`{n} <{module}.{n}>`" for n in names))
        lines.append("")
    return "\n".join(lines) + "\n"


def write(out=OUT):
    """Write the reference into ``out`` (made anew) and return the plan."""
    from laxarray._core import backend
    from laxarray.conformance import SPECS
    plan = pages()
    records = _platform_groups(backend)
    rows = differences()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for page in plan:
        (out / f"{page.slug}.rst").write_text(page_rst(page, SPECS, records, rows))
    (out / "backends.rst").write_text(backends_rst())
    (out / "differences.rst").write_text(differences_rst(rows))
    (out / "module-notes.rst").write_text(module_notes_rst(noted_modules(plan)))
    (out / "index.rst").write_text(index_rst(plan))
    (out / "api_index.json").write_text(json.dumps(index(plan), indent=1) + "\n")
    return plan


def _platform_groups(backend):
    """``[(platforms, record)]``: the platforms of ``backend.RECORDS`` (by their own names)
    whose records have the same dtypes and families and have both run laxarray or both
    not (``Backend.tested``), grouped."""
    groups = {}
    for name, record in backend.RECORDS.items():
        if record.platform != name:
            continue   # an alias ("cuda" -> the gpu record)
        key = (record.dtypes, tuple(sorted(record.families.items())), bool(record.tested))
        groups.setdefault(key, []).append(record)
    return [(", ".join(r.platform for r in rs), rs[0]) for rs in groups.values()]


def _on_builder_inited(app):
    write()


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    app.connect("autodoc-process-docstring", process_docstring)
    app.connect("autodoc-process-signature", process_signature)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
