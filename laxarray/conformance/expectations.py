"""``--xfails FILE`` / ``--skips FILE``: the official array-api-tests suite's expectation
files, read as spec names.

The format is the suite's (``array-api-tests``' ``--xfails-file``/``--skips-file``): one
entry a line; blank lines and lines starting with ``#`` are ignored, and so is a trailing
`` # comment``.  An entry is

- a pytest node id of the official suite, ``array_api_tests/FILE.py::test_NAME`` or
  ``...::test_NAME[PARAMS]`` (an ``array-api-tests/`` prefix is dropped);
- a bare test name, ``test_NAME``;
- or a spec name or fnmatch glob of this runner (``linalg.*``, ``__setitem__``).

A test name maps to a spec by its function part: ``test_add`` -> ``add``,
``test_asarray_scalars`` -> ``asarray`` (the longest leading part, at ``_`` boundaries,
that names a spec), ``test_linalg_solve`` -> ``linalg.solve``; in ``test_linalg.py``
``test_solve`` -> ``linalg.solve`` (``test_matmul``, ``test_matrix_transpose``,
``test_tensordot`` and ``test_vecdot`` there test the main namespace's functions); in
``test_fft.py`` ``test_fft`` -> ``fft.fft``; in ``test_array_object.py`` ``test_getitem*``
-> ``__getitem__`` and ``test_setitem*`` -> ``__setitem__``; in
``test_inspection_functions.py`` -> ``__array_namespace_info__``.  The parameters of
``test_special_cases.py`` (``test_unary[sign(x_i is NaN) -> NaN]``) and of
``test_constants.py`` (``test_basic_constant[e]``) name the function or constant; elsewhere
parameters are dropped.  A spec checks a whole function, so an entry naming one
parametrization (a dtype, a special case) applies to the whole spec.  The whole files
``test_linalg.py`` and ``test_fft.py`` map to ``linalg.*`` and ``fft.*``.

What cannot be mapped is reported (``FILE:LINE: entry (why)``), never silently ignored:
operator forms (``__add__``, ``__iadd__``: the runner has no operator specs, and
``test_iop``), tests of names and signatures (``test_has_names.py``,
``test_signatures.py``), other whole files and directories, a special-case test without
its parameter, and names with no spec.
"""

from __future__ import annotations

import fnmatch
import re

#: tests of test_linalg.py that check the main namespace's function of the same name.
MAIN_NAMESPACE_LINALG = frozenset({"matmul", "matrix_transpose", "tensordot", "vecdot"})
#: whole files of the official suite with a glob of specs.
FILE_GLOBS = {"test_linalg.py": "linalg.*", "test_fft.py": "fft.*"}
#: files whose tests have no counterpart here, with why.
NO_COUNTERPART = {
    "test_has_names.py": "the runner does not check the presence of names on their own",
    "test_signatures.py": "the runner does not check signatures",
}
_COMMENT = re.compile(r"\s+#.*$")


def read_entries(path):
    """``[(line_number, entry)]`` of the expectation file ``path`` (blank lines, ``#``
    lines and trailing `` # comments`` left out); raises ``OSError`` if it cannot be read."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            text = _COMMENT.sub("", text)
            if text:
                entries.append((number, text))
    return entries


def _from_test_name(test, names, file=""):
    """``(spec names, why-not)`` for the function part of test name ``test``."""
    base = test.removeprefix("test_")
    if file == "test_linalg.py" and not base.startswith("linalg_"):
        candidate = base if base in MAIN_NAMESPACE_LINALG else f"linalg.{base}"
        return ([candidate], "") if candidate in names else ([], f"no spec {candidate}")
    if file == "test_fft.py":
        candidate = f"fft.{base.removeprefix('fft_')}"
        return ([candidate], "") if candidate in names else ([], f"no spec {candidate}")
    if file == "test_array_object.py":
        for prefix in ("getitem", "setitem"):
            if base.startswith(prefix):
                return [f"__{prefix}__"], ""
    if file == "test_inspection_functions.py" and "__array_namespace_info__" in names:
        return ["__array_namespace_info__"], ""
    if base.startswith("linalg_"):
        base = "linalg." + base[len("linalg_"):]
    parts = base.split("_")
    for n in range(len(parts), 0, -1):
        candidate = "_".join(parts[:n])
        if candidate in names:
            return [candidate], ""
    return [], f"no spec for {test}"


def _from_node_id(entry, names):
    """``(spec names, why-not)`` for a node id of the official suite."""
    entry = entry.removeprefix("array-api-tests/")
    path, _, test = entry.partition("::")
    file = path.rstrip("/").rsplit("/", 1)[-1]
    if file in NO_COUNTERPART:
        return [], NO_COUNTERPART[file]
    if not test:
        glob = FILE_GLOBS.get(file)
        if glob:
            return sorted(n for n in names if fnmatch.fnmatchcase(n, glob)), ""
        return [], "a whole file or directory of the official suite has no single counterpart"
    test = test.rsplit("::", 1)[-1]
    name, _, params = test.partition("[")
    params = params[:-1] if params.endswith("]") else params
    if file in ("test_special_cases.py", "test_constants.py"):
        if name == "test_iop":
            return [], "in-place operators have no specs"
        if not params:
            return [], f"{name} without parameters names no single function"
        head = re.match(r"[A-Za-z_][A-Za-z0-9_.]*", params)
        target = head.group(0) if head else ""
        if target.startswith("__"):
            return [], f"operator {target} has no spec"
        return ([target], "") if target in names else ([], f"no spec {target or params!r}")
    if params:
        head = re.match(r"(__[a-z]+__)\(", params)
        if head:
            return [], f"operator {head.group(1)} has no spec"
    return _from_test_name(name, names, file)


def map_entry(entry, names):
    """``(spec names, why-not)``: the specs among ``names`` that expectation-file entry
    ``entry`` stands for (see the module docstring), or ``([], reason)``."""
    if "::" in entry or entry.startswith(("array_api_tests", "array-api-tests")) \
            or entry.endswith(".py"):
        return _from_node_id(entry, names)
    if entry.startswith("test_"):
        return _from_test_name(entry, names)
    matched = sorted(n for n in names if fnmatch.fnmatchcase(n, entry))
    return (matched, "") if matched else ([], "no spec of that name")


def load(path, names):
    """``(mapping, unmapped)`` of the expectation file ``path``: ``{spec name: "PATH:LINE"}``
    (the first line naming each spec) and ``["PATH:LINE: entry (why)"]`` of the entries
    naming no spec among ``names``.  Raises ``OSError`` if the file cannot be read."""
    mapping, unmapped = {}, []
    names = set(names)
    for number, entry in read_entries(path):
        where = f"{path}:{number}"
        specs, why = map_entry(entry, names)
        if not specs:
            unmapped.append(f"{where}: {entry} ({why})")
        for name in specs:
            mapping.setdefault(name, where)
    return mapping, unmapped
