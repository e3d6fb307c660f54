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
#: (STYLE: axis, shape and dtype; the switches that choose a program): under ``jax.jit``
#: they are Python values, and each new value compiles once more
STATIC_PARAMETERS = frozenset((
    "axis", "axes", "axis1", "axis2", "axisa", "axisb", "axisc", "source", "destination",
    "keepdims", "dtype", "shape", "newshape", "device", "copy", "size", "stable",
    "descending", "endpoint", "num", "mode", "method", "order", "norm", "side", "ord",
    "correction", "ddof", "equal_nan", "indexing", "sparse", "casting", "decimals",
    "return_index", "return_inverse", "return_counts", "assume_unique", "kind",
    "include_initial", "right", "repeats", "reps", "shift", "k", "offset", "n", "s"))
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
            obj, (int, float)):
        return _describe(obj)
    doc = (inspect.getdoc(obj) or "").split("\n\n")[0].replace("\n", " ").strip()
    parts = doc.split("``")
    for i in range(0, len(parts), 2):
        cut = re.search(r"\.(\s|$)", parts[i])
        if cut:
            parts = parts[:i] + [parts[i][:cut.start() + 1]]
            break
    return escape("``".join(parts)) or "(no docstring)"


def process_docstring(app, what, name, obj, options, lines):
    """autodoc's hook: NumPy's names ending in ``_`` are not references (``numpy.s_``)."""
    lines[:] = [escape(line) for line in lines]


def jit_note(obj):
    """What ``jax.jit`` sees of ``obj``'s arguments, read from its signature."""
    if isinstance(obj, type):
        return None
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return None
    static = [p for p in params if p in STATIC_PARAMETERS]
    parts = []
    if static:
        parts.append("static (Python values; each new value compiles once more): "
                     + ", ".join(f"``{p}``" for p in static))
    if "size" in params and "fill_value" in params:
        parts.append("data-dependent length: pass ``size=`` (and ``fill_value=``)")
    doc = inspect.getdoc(obj) or ""
    if _JIT_WORDS.search(doc):
        parts.append("the docstring above says more")
    if not parts:
        parts.append("no static argument of the usual kinds (axis, shape, dtype, switches)")
    return "; ".join(parts) + "."


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
    if isinstance(obj, type) and ours:
        special = [n for n in ARRAY_SPECIAL_MEMBERS if n in vars(obj)]
        lines = [f".. autoclass:: {qual}", "   :members:"]
        if special:
            lines.append(f"   :special-members: {', '.join(special)}")
        return lines + [""], True
    if callable(obj) and ours and not isinstance(obj, type):
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)) or hasattr(
                obj, "__wrapped__") or inspect.isroutine(obj):
            return [f".. autofunction:: {qual}", ""], True
    kind = "py:class" if isinstance(obj, type) else "py:data"
    if ours and not isinstance(obj, (int, float, type(None))):   # r_, mgrid, SPECS ...
        doc = escape(inspect.getdoc(obj) or "").splitlines()
        return [f".. {kind}:: {qual}", "", *(f"   {line}" for line in doc), ""], False
    return [f".. {kind}:: {qual}", "", f"   {_describe(obj)}", ""], False


def _describe(obj):
    import numpy as np
    if isinstance(obj, np.dtype):
        return f"The dtype ``{obj.name}``."
    if isinstance(obj, type):
        return f"``{obj.__module__}.{obj.__qualname__}``, re-exported."
    return f"``{obj!r}``"


def entry_rst(entry, specs, records, rows):
    lines, _ = _directive(entry)
    fields = []
    jit = jit_note(entry.obj) if callable(entry.obj) else None
    if jit:
        fields.append(("Under jax.jit", jit))
    dt = dtype_note(entry, specs, records)
    if _is_dtype(entry.obj):
        name = _dtype_name(entry.obj)
        dt = "arrays of it on " + (", ".join(
            p for p, r in records if any(d.name == name for d in r.dtypes)) or "none") + "."
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
    return lines


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
              "   backends", "   differences", ""]
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
    (out / "index.rst").write_text(index_rst(plan))
    (out / "api_index.json").write_text(json.dumps(index(plan), indent=1) + "\n")
    return plan


def _platform_groups(backend):
    """``[(platforms, record)]``: the platforms of ``backend.RECORDS`` (by their own names)
    whose records have the same dtypes and families, grouped."""
    groups = {}
    for name, record in backend.RECORDS.items():
        if record.platform != name:
            continue   # an alias ("cuda" -> the gpu record)
        key = (record.dtypes, tuple(sorted(record.families.items())))
        groups.setdefault(key, []).append(record)
    return [(", ".join(r.platform for r in rs), rs[0]) for rs in groups.values()]


def _on_builder_inited(app):
    write()


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    app.connect("autodoc-process-docstring", process_docstring)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
