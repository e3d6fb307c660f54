"""The NumPy names laxarray does not provide, computed from the code at each build.

``missing()`` compares NumPy's public names with laxarray's (``numpy`` with ``laxarray``,
``numpy.linalg`` with ``laxarray.linalg``, ``numpy.fft`` with ``laxarray.fft``) and sorts
what laxarray lacks into groups; ``markdown()`` renders the groups as the table that
``docs/numpy_missing.md`` includes. The Sphinx extension writes that table to
``docs/_generated/numpy_missing.md`` when the build starts (git-ignored), so the page
follows the code: a name laxarray gains leaves the table at the next build.

    python docs/_ext/laxarray_numpy_gaps.py        # print the table
"""

from __future__ import annotations

import pathlib
import types

OUT = pathlib.Path(__file__).resolve().parents[1] / "_generated" / "numpy_missing.md"

#: (group, why laxarray lacks it, the names); a name of no group lands in the last, and a
#: submodule of NumPy (a module object) in the first
GROUPS = (
    ("Submodules", "Most are NumPy's own machinery (`ctypeslib`, `f2py`, `lib`, `core`, "
     "`testing`) or types XLA has no arrays of (`char`, `strings`, `rec`, `ma`). "
     "`random`: use `jax.random` with explicit keys, and `laxarray.asarray` on the result "
     "(or draw with NumPy's `default_rng` and convert).", ()),
    ("Datetimes and timedeltas", "XLA has no datetime dtypes; keep them in NumPy, or "
     "compute on int64 counts (`x.astype('int64')`).",
     ("busday_count", "busday_offset", "busdaycalendar", "datetime64", "datetime_as_string",
      "datetime_data", "is_busday", "isnat", "timedelta64")),
    ("Floating-point errors and ufunc buffers", "XLA computes IEEE results and reports no "
     "floating-point errors, so there is nothing to configure: a division by zero gives "
     "`inf`, the value NumPy gives, without NumPy's warning. To find where NaNs or "
     "infinities arise, use `laxarray.checkify`. laxarray has no ufunc buffers to size.",
     ("errstate", "geterr", "geterrcall", "seterr", "seterrcall", "getbufsize",
      "setbufsize")),
    ("Scalar types and type codes", "laxarray's dtypes are NumPy's; these are NumPy's "
     "scalar classes beyond the standard's dtypes (platform C types, `longdouble`, "
     "`str_`, `void`) and their type-code tables. `numpy.float64` and the like work "
     "wherever laxarray takes a dtype.",
     ("ScalarType", "sctypeDict", "typecodes", "mintypecode", "typename", "min_scalar_type",
      "common_type", "little_endian", "False_", "True_")),
    ("Memory layout and iteration", "An XLA buffer has no strides or memory order that "
     "Python can see, and views are laxarray's own (`x.base`); iterate with Python "
     "(`for row in x`) or convert with `numpy.asarray(x)`.",
     ("ascontiguousarray", "asfortranarray", "isfortran", "require", "may_share_memory",
      "shares_memory", "flatiter", "nditer", "nested_iters", "ndenumerate", "ndindex",
      "broadcast", "memmap")),
    ("Text and file input/output, formatting", "Read and write with NumPy "
     "(`numpy.loadtxt`, `numpy.save`) and convert (`laxarray.asarray`, "
     "`numpy.asarray(x)`); laxarray has `save`, `load`, `savez` and `fromfile`.",
     ("loadtxt", "savetxt", "genfromtxt", "fromregex", "savez_compressed", "array2string",
      "base_repr", "binary_repr", "format_float_positional", "format_float_scientific")),
    ("Matrices, records and the old polynomial class", "NumPy keeps these for old code: "
     "use 2-D arrays and `@`, structured data in NumPy, and `polyval`/`polyfit` "
     "(which laxarray has) for polynomials.",
     ("matrix", "asmatrix", "bmat", "poly1d", "recarray", "record")),
    ("Other", "`asanyarray`: `asarray` (laxarray has no array subclasses); "
     "`asarray_chkfinite`: `asarray`, then `all(isfinite(x))`; `fix`: `trunc`; `row_stack`: "
     "`vstack`; `get_include`, `info`, `show_config`, `show_runtime`, `test`: NumPy's own "
     "tooling.", ()),
)


def _public(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = dir(module)
    return {n for n in names if not n.startswith("_")}


def missing():
    """``{module: [names]}``: NumPy's public names laxarray lacks, per module pair."""
    import numpy as np
    import numpy.fft
    import numpy.linalg

    import laxarray
    pairs = (("numpy", np, laxarray), ("numpy.linalg", numpy.linalg, laxarray.linalg),
             ("numpy.fft", numpy.fft, laxarray.fft))
    out = {}
    for name, theirs, ours in pairs:
        names = sorted(n for n in _public(theirs) if not hasattr(ours, n))
        if name != "numpy":   # (a submodule's re-exported modules and helpers are no names)
            names = [n for n in names if not isinstance(getattr(theirs, n), types.ModuleType)]
        out[name] = names
    return out


def grouped(names, module="numpy"):
    """``[(group, why, [names])]`` of ``names`` (of NumPy's ``module``), empty groups left
    out; every name in exactly one group."""
    import importlib
    mod = importlib.import_module(module)
    placed = {}
    for group, _, members in GROUPS:
        for n in members:
            placed.setdefault(n, group)
    rows = {group: [] for group, _, _ in GROUPS}
    for n in names:
        obj = getattr(mod, n, None)
        if isinstance(obj, types.ModuleType):
            rows["Submodules"].append(n)
        elif n in placed:
            rows[placed[n]].append(n)
        elif isinstance(obj, type) and issubclass(obj, __import__("numpy").generic):
            rows["Scalar types and type codes"].append(n)
        else:
            rows["Other"].append(n)
    return [(g, why, rows[g]) for g, why, _ in GROUPS if rows[g]]


def markdown():
    """The page's tables, one per module."""
    lines = []
    found = missing()
    total = sum(len(v) for v in found.values())
    lines.append(f"{total} names in all, computed when this site was built.\n")
    for module, names in found.items():
        lines.append(f"## `{module}`\n")
        if not names:
            lines.append(f"laxarray has every public name of `{module}`.\n")
            continue
        lines.append("| group | names | instead |")
        lines.append("|---|---|---|")
        for group, why, members in grouped(names, module):
            cells = ", ".join(f"{{py:obj}}`{n} <{module}.{n}>`" for n in members)
            lines.append(f"| {group} ({len(members)}) | {cells} | {why} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def write(app=None):
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = markdown()
    if not OUT.is_file() or OUT.read_text() != text:
        OUT.write_text(text)


def setup(app):
    app.connect("builder-inited", write)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    print(markdown())
