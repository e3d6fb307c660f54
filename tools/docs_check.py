"""Check every entry of the API reference, and count what the entries have.

    python tools/docs_check.py [--no-examples] [--report FILE.json]

``make docs-check`` runs it before building the site (``tests/test_docs_site.py``); it
exits 1 on a broken rule and prints the counts either way. The rules, each a function of
this module that ``tests/test_docs_check.py`` breaks on purpose:

- ``repr``: no entry shows an object's repr with an address (``<function f at 0x7f...>``):
  its summary, its generated text and its docstring are read (:func:`check_repr`);
- ``signature``: every function, and every class but exceptions and the array object
  (``Array(...)`` raises; its page says how arrays are made), has a signature that
  :func:`inspect.signature` reads (:func:`check_signature`);
- ``parameters``: every function of the goal set -- the standard's functions and every
  function of ``laxarray.linalg``, ``laxarray.fft``, ``laxarray.sparse`` and
  ``laxarray.sparse.linalg`` (and their classes' constructors) -- that takes a parameter
  has a numpydoc ``Parameters`` section, unless it is on the allow-list
  ``tools/docs_parameters_allowlist.txt``, which only shrinks: a name on it that has its
  section now, or that is not in the goal set, is an error too (:func:`check_parameters`);
- ``example``: every example in an entry's docstring runs and prints what it says
  (:func:`check_example`, doctest with the flags of ``tests/test_doctests.py``);
- ``device``: an entry's "Dtypes and devices" field names only platforms of the backend
  records (``laxarray/_core/backend.py``), calls a platform where laxarray never ran
  (``Backend.tested`` empty: the GPU) "untested" and no other, and says "all" or "not ..."
  exactly as the record's dtypes (or its ``linalg``/``fft`` family's) give them
  (:func:`check_device_claim`);
- ``jit``: the "Under jax.jit" field never says "the docstring above says more", and a
  docstring's "Static under ``jax.jit``:" paragraph names parameters of the signature, and
  every parameter another sentence calls static (:func:`check_jit`).
"""

from __future__ import annotations

import argparse
import doctest
import importlib.util
import inspect
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ALLOWLIST = ROOT / "tools" / "docs_parameters_allowlist.txt"
#: the modules every function of which is in the goal set (beside the standard's)
GOAL_MODULES = ("laxarray.linalg", "laxarray.fft", "laxarray.sparse",
                "laxarray.sparse.linalg")
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
_ADDRESS = re.compile(r"\bat 0x[0-9a-fA-F]{4,}|<[^<>]* object at |\b0x[0-9a-f]{8,}\b")
_PARAMETERS = re.compile(r"^Parameters\n-{3,}\s*$", re.M)
_DEVICES_FIELD = re.compile(r"^\s*:Dtypes and devices: (.*)$", re.M)
_JIT_FIELD = re.compile(r"^\s*:Under jax.jit: (.*)$", re.M)


def generator():
    """docs/_ext/laxarray_reference.py, imported by path (docs/ is no package)."""
    name = "laxarray_reference"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(
            name, ROOT / "docs" / "_ext" / "laxarray_reference.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module   # (its dataclasses look their module up there)
        spec.loader.exec_module(module)
    return module


class Problem(tuple):
    """``(rule, name, detail)``."""

    def __new__(cls, rule, name, detail):
        return super().__new__(cls, (rule, name, detail))

    def __str__(self):
        return f"[{self[0]}] {self[1]}: {self[2]}"


def entries(plan=None):
    """Every entry of the reference, in page order."""
    ref = generator()
    return [e for p in (plan or ref.pages()) for _, es in p.sections for e in es]


def qualified(entry):
    return f"{entry.module}.{entry.name}"


def _doc(obj):
    try:
        return inspect.getdoc(obj) or ""
    except Exception:
        return ""


def _ours(obj):
    module = getattr(obj, "__module__", None) or ""
    return module.startswith("laxarray")


# ---- the rules ------------------------------------------------------------------------------

def check_repr(name, texts):
    """``repr``: none of ``texts`` (what the site shows of entry ``name``) holds an
    object's address."""
    for text in texts:
        m = _ADDRESS.search(text)
        if m:
            i = m.start()
            return [Problem("repr", name, f"an object's address: ...{text[max(0, i - 40):i + 30]}"
                            f"... ({len(text)} characters)")]
    return []


def needs_signature(obj):
    if isinstance(obj, type):
        return not issubclass(obj, BaseException) and obj.__name__ != "Array"
    return callable(obj)


def check_signature(name, obj):
    """``signature``: a function or class (not an exception, not the array object) has a
    signature, and laxarray's own not the uninformative ``(*args, **kwargs)`` (NumPy's
    ``printoptions``, re-exported, has just that)."""
    if not needs_signature(obj):
        return []
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError) as e:
        return [Problem("signature", name, f"no signature ({e})")]
    kinds = [p.kind for p in sig.parameters.values()]
    if kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD] and _ours(obj):
        return [Problem("signature", name, f"only {sig}: not the real parameters")]
    return []


def in_goal(entry):
    """Whether the entry is in the goal set: a function of the standard, or a function or
    constructible class of a goal module (not an exception, not a result tuple)."""
    obj = entry.obj
    if isinstance(obj, type):
        if entry.module not in GOAL_MODULES or issubclass(obj, (BaseException, tuple)):
            return False
        return bool(_own_parameters(obj))
    if not callable(obj) or not _ours(obj):
        return False
    return entry.standard is not None or entry.module in GOAL_MODULES


def _own_parameters(obj):
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return []
    return [p for p in params if p != "self"]


def has_parameters(obj):
    """Whether the docstring has a numpydoc ``Parameters`` section (a class's, or its
    ``__init__``'s)."""
    docs = [_doc(obj)]
    if isinstance(obj, type) and "__init__" in vars(obj):
        docs.append(_doc(vars(obj)["__init__"]))
    return any(_PARAMETERS.search(d) for d in docs)


def check_parameters(goal, allow):
    """``parameters``: ``goal`` is ``{name: obj}`` of the goal set; ``allow`` the names
    the allow-list excuses for now."""
    out = []
    for name, obj in goal.items():
        needed = bool(_own_parameters(obj)) or isinstance(obj, type)
        if needed and not has_parameters(obj) and name not in allow:
            out.append(Problem("parameters", name,
                               "no Parameters section (and not on the allow-list)"))
    for name in sorted(allow):
        if name not in goal:
            out.append(Problem("parameters", name, "on the allow-list but not a function "
                               "of the goal set: take it off"))   # (prune: "take it off")
        elif has_parameters(goal[name]) or not (_own_parameters(goal[name])
                                                 or isinstance(goal[name], type)):
            out.append(Problem("parameters", name, "has its Parameters section now: take "
                               f"it off {ALLOWLIST.relative_to(ROOT)}"))
    return out


def run_examples(name, obj):
    """``(attempted, failures)`` of the examples in ``obj``'s own docstring, run in its
    module's globals (as ``tests/test_doctests.py`` runs them)."""
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=FLAGS, verbose=False)
    module = inspect.getmodule(obj)
    try:
        tests = finder.find(obj, name, module=module,
                            globs=dict(vars(module)) if module else {})
    except ValueError:
        return 0, 0
    attempted = failed = 0
    for test in tests:
        result = runner.run(test, out=lambda _: None)
        attempted += result.attempted
        failed += result.failed
    return attempted, failed


def check_example(name, obj):
    """``example``: the examples of ``obj``'s docstring run; ``(problems, ran)`` where
    ``ran`` says whether it has examples that all passed."""
    if not _ours(obj) or ">>>" not in _doc(obj):
        return [], False
    attempted, failed = run_examples(name, obj)
    if failed:
        return [Problem("example", name, f"{failed} of {attempted} examples fail "
                        f"(python -m doctest, or tests/test_doctests.py)")], False
    return [], attempted > 0


def check_device_claim(name, text, records, checked=None, family=None):
    """``device``: the field ``text`` ("checked in ...; cpu: all; gpu: untested; tpu: not
    float64, complex128.", or a dtype's "arrays of it on cpu, tpu; gpu: untested.")
    against ``records`` (``{platform: Backend}``); ``checked`` the dtype names the claim
    is about, ``family`` the record's family (``linalg``/``fft``) that computes them."""
    out = []
    text = text.rstrip(".")
    clauses = text.split("; ")
    m = re.match(r"arrays of it on (.*)", clauses[0])
    if m:   # a dtype object's entry: the platforms that have it, then the untested ones
        first, rest = clauses[0], clauses[1:]
        claimed = [p.strip() for p in m.group(1).split(",")] if "none" not in first else []
        for platform in claimed:
            record = records.get(platform)
            if record is None:
                out.append(Problem("device", name, f"{platform!r} has no backend record"))
            elif not record.tested:
                out.append(Problem("device", name, f"claims {platform}, where laxarray never "
                                   "ran (say untested)"))
            elif checked and not all(record.supports(d) for d in checked):
                out.append(Problem("device", name, f"claims {platform}, whose record lacks it"))
        clauses = rest
    else:
        clauses = [c for c in clauses if not c.startswith("checked in")]
    for clause in clauses:
        platforms, _, claim = clause.partition(": ")
        for platform in (p.strip() for p in platforms.split(",")):
            record = records.get(platform)
            if record is None:
                out.append(Problem("device", name, f"{platform!r} has no backend record"))
                continue
            if claim == "untested":
                if record.tested:
                    out.append(Problem("device", name, f"{platform} called untested, but its "
                                       f"record says it ran: {record.tested}"))
                continue
            if not record.tested:
                out.append(Problem("device", name, f"{platform}: {claim!r}, but laxarray "
                                   "never ran there (the record's tested is empty)"))
                continue
            if checked is None:
                continue
            have = {d.name for d in (record.families[family] if family else record.dtypes)}
            missing = [d for d in checked if d not in have]
            expected = "all" if not missing else "not " + ", ".join(missing)
            if claim != expected:
                out.append(Problem("device", name, f"{platform}: {claim!r}; the record "
                                   f"gives {expected!r}"))
    return out


def check_jit(name, obj, field):
    """``jit``: ``field`` (the entry's "Under jax.jit" text, or ``None``) against the
    docstring and the signature."""
    ref = generator()
    out = []
    if field and "says more" in field:
        out.append(Problem("jit", name, f"an empty field: {field!r}"))
    doc = _doc(obj)
    params = _own_parameters(obj) if callable(obj) and not isinstance(obj, type) else []
    m = ref.STATIC_PARAGRAPH.search(doc)
    # a class's paragraph is about its constructor's parameters
    known = _own_parameters(obj) if isinstance(obj, type) else params
    if m:
        named = re.findall(r"``(\w+)``", m.group(1))
        unknown = [n for n in named if n not in known]
        if unknown:
            out.append(Problem("jit", name, f"'Static under jax.jit' names {unknown}, "
                               f"which are not parameters {known}"))
    static, _ = ref.static_parameters(obj) if params else ([], False)
    shown = set(re.findall(r"``(\w+)``", (field or "").split(";")[0])) \
        if field and field.startswith("static") else set()
    missing = [p for p in static if p not in shown]
    if missing:
        out.append(Problem("jit", name, f"static {missing} not in the field {field!r}"))
    return out


# ---- all of them ------------------------------------------------------------------------------

def read_allowlist(path=ALLOWLIST):
    if not path.is_file():
        return set()
    return {line.split("#")[0].strip() for line in path.read_text().splitlines()
            if line.split("#")[0].strip()}


def prune(path=ALLOWLIST):
    """Take off the allow-list the names the parameters rule calls stale; their number."""
    stale = {p[1] for p in check_parameters(goal_set(), read_allowlist(path))
             if p[0] == "parameters" and "take it off" in p[2]}
    kept = [line for line in path.read_text().splitlines(keepends=True)
            if line.split("#")[0].strip() not in stale]
    path.write_text("".join(kept))
    return len(stale)


def goal_set(plan=None):
    """``{name: obj}`` of the goal set's entries."""
    return {qualified(e): e.obj for e in entries(plan) if in_goal(e)}


def _spec_dtypes(ref, entry, specs):
    """``(dtype names, family)`` an entry's device claim is about."""
    key = entry.standard or (entry.name if entry.module == "laxarray" else None)
    if entry.module in ref.EXTENSIONS:
        key = f"{ref.EXTENSIONS[entry.module][0]}.{entry.name}"
    spec = specs.get(key) if key else None
    family = {"laxarray.linalg": "linalg", "laxarray.fft": "fft"}.get(entry.module)
    if ref._is_dtype(entry.obj):
        return [ref._dtype_name(entry.obj)], None
    return (list(spec.dtypes) if spec is not None and spec.dtypes else None), family


def check(examples=True, allow=None):
    """Every rule on every entry: ``(problems, counts)``."""
    from laxarray._core import backend
    from laxarray.conformance import SPECS
    ref = generator()
    plan = ref.pages()
    records = dict(backend.RECORDS)
    groups = ref._platform_groups(backend)
    rows = ref.differences()
    allow = read_allowlist() if allow is None else allow
    problems, goal = [], {}
    counts = {"entries": 0, "with Parameters": 0, "with a running example": 0}
    for e in entries(plan):
        name, obj = qualified(e), e.obj
        counts["entries"] += 1
        rst = "\n".join(ref.entry_rst(e, SPECS, groups, rows))
        problems += check_repr(name, [ref.summary(obj), rst, _doc(obj) if _ours(obj) else ""])
        problems += check_signature(name, obj)
        if in_goal(e):
            goal[name] = obj
        if _ours(obj) and has_parameters(obj):   # (not NumPy's re-exported functions)
            counts["with Parameters"] += 1
        if examples:
            found, ran = check_example(name, obj)
            problems += found
            counts["with a running example"] += ran
        for m in _DEVICES_FIELD.finditer(rst):
            checked, family = _spec_dtypes(ref, e, SPECS)
            problems += check_device_claim(name, m.group(1), records, checked, family)
        jit = _JIT_FIELD.search(rst)
        problems += check_jit(name, obj, jit.group(1) if jit else None)
    problems += check_parameters(goal, allow)
    with_params = sum(has_parameters(o) for o in goal.values())
    counts.update({"goal set": len(goal), "goal set with Parameters": with_params,
                   "allow-list": len(allow)})
    if not examples:
        del counts["with a running example"]
    return problems, counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-examples", action="store_true",
                        help="skip running the entries' examples (the rule and its count)")
    parser.add_argument("--prune", action="store_true",
                        help="rewrite the allow-list without the names that have their "
                        "Parameters section now or left the goal set, then check")
    parser.add_argument("--report", type=pathlib.Path,
                        help="also write the counts and problems to this JSON file")
    args = parser.parse_args(argv)
    if args.prune:
        print(f"{ALLOWLIST.relative_to(ROOT)}: {prune()} names taken off")
    problems, counts = check(examples=not args.no_examples)
    for p in problems:
        print(p)
    print("; ".join(f"{k}: {v}" for k, v in counts.items()))
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps({"counts": counts,
                                           "problems": [list(p) for p in problems]},
                                          indent=1) + "\n")
    print(f"{len(problems)} problems" if problems else "every rule holds")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
