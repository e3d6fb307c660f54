"""Checking every special case of the standard on a namespace, batched.

For each function with rows in :mod:`laxarray.conformance.special_cases_table` and each
floating dtype of the rows' domain (float32/float64; complex64/complex128), the inputs of
every row are built -- several representative values for conditions such as "a finite
number" or "greater than 0", exact values for "+0" or "NaN" -- and put into one array
per argument, so the namespace is called once per function, dtype and form: the function
(``xp.floor_divide(x1, x2)``), its operator (``x1.__floordiv__(x2)``) and, on namespaces
whose arrays can be written to, its in-place operator (``x1.__ifloordiv__(x2)``).  Each
result element is judged by the first row of its domain that holds for its inputs
(:func:`laxarray.conformance.special_cases.judge`).

The array object's conversions (``bool(x)``, ``float(x)``, ``int(x)``, ``complex(x)``)
are called once per value on 0-d arrays; reductions (``sum``, ``mean``, ``std``, ...,
``linalg.slogdet``) once per row and dtype on an input made for the row (an empty array,
an array with a NaN, a singular matrix, ``correction`` equal to the number of elements).

:func:`check` raises :class:`~laxarray.conformance.compare.ConformanceError` on the first
form that breaks a row; :func:`failures` lists them all (the runner uses :func:`check`
once per spec, after its hypothesis search; see :mod:`laxarray.conformance.runner`).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import itertools
import math
import warnings

import numpy as np

from . import snippets, special_cases as SC
from .compare import ConformanceError, to_numpy
from .flushing import Calls
from .spec import arrays_mutable, mutable_arrays, resolve

#: dtypes checked per domain
DTYPES = {"real": ("float32", "float64"), "complex": ("complex64", "complex128"),
          "bool": ("bool",)}
#: at most this many input combinations per alternative of a row's condition
CAP = 48
#: names of the conversions the array object's rows are about, and the builtin applied
CONVERSIONS = {"__bool__": bool, "__float__": float, "__int__": int, "__complex__": complex}
#: reductions with rows, and the extension they belong to
REDUCTIONS = ("max", "min", "mean", "prod", "std", "sum", "var", "linalg.trace",
              "linalg.slogdet")


def has_cases(name):
    """Whether the standard states special cases of ``name`` that this module checks."""
    return bool(SC.BY_FUNCTION.get(name))


# ---- representative values -----------------------------------------------------------------
def universe(dtype):
    """Representative values of a real floating ``dtype``: NaN of both signs, infinities,
    signed zeros, small integers and halves, values around 1, the extremes (no
    subnormals: a flush-to-zero platform reads them as zeros)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([True, False])
    info = np.finfo(dt)
    base = [math.nan, 0.0, 1.0, 0.5, 1.5, 2.0, 2.5, 3.0, 0.75, 1e30, float(info.max),
            float(info.tiny), math.inf]
    values = []
    for v in base:
        values += [v, -v] if not math.isnan(v) else [v, math.copysign(math.nan, -1.0)]
    return np.array(values, dt)


def _moderate(row):
    """Rows whose result involves ``cis(b)``: only arguments where cos and sin have a
    sign every implementation computes (|b| <= 3)."""
    return row[3][0] == "cis"


def _candidates(clauses, operand, dtype, moderate):
    """Values of ``operand`` (a real dtype's universe) meeting its clauses in ``clauses``."""
    vals = universe(dtype)
    if moderate and operand == "b":
        vals = vals[~np.isfinite(vals) | (np.abs(vals) <= 3)]
    keep = np.ones(vals.shape, bool)
    for c in clauses:
        if c[0] == operand and c[1] not in ("neg_of", "equals", "not_equals", "same_sign",
                                            "diff_sign"):
            keep &= SC._clause(c, {operand: vals})
        elif c[0] == "|x1|" and operand == "x1":
            keep &= SC._clause(c, {"|x1|": np.abs(vals)})
    return vals[keep]


def _spread(n, k, seed):
    """``k`` of ``range(n)``, spread deterministically."""
    if n <= k:
        return np.arange(n)
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n, size=k, replace=False))


def _alternative_inputs(index, alternative, parts, part_dtype):
    """Combinations of the operands ``parts`` meeting ``alternative`` (a tuple of clauses)
    of row ``index``: a dict part -> values."""
    row = SC.ROWS[index]
    derived = {c[0]: c for c in alternative if c[1] in ("neg_of", "equals")}
    free = [p for p in parts if p not in derived]
    lists = [_candidates(alternative, p, part_dtype, _moderate(row)) for p in free]
    total = math.prod(len(v) for v in lists)
    if total == 0:
        return None
    picks = _spread(total, CAP * 4 if derived or any(c[1] in ("same_sign", "diff_sign")
                                                     for c in alternative) else CAP, index)
    idx = np.array(np.unravel_index(picks, [len(v) for v in lists]))
    env = {p: v[i] for p, v, i in zip(free, lists, idx)}
    for p, c in derived.items():
        env[p] = -env[c[2]] if c[1] == "neg_of" else env[c[2]]
    if "x1" in env:
        env["|x1|"] = np.abs(env["x1"])
    ok = np.logical_and.reduce([np.broadcast_to(SC._clause(c, env), picks.shape)
                                for c in alternative])
    keep = np.flatnonzero(ok)[:CAP]
    return {p: env[p][keep] for p in parts}


def _parts(name, domain):
    args = SC.operands(name)
    if domain == "complex":
        return ("a", "b") if len(args) == 1 else ("a", "b", "c", "d")
    if name in CONVERSIONS:
        return ("self",)
    return args


@functools.lru_cache(maxsize=None)
def batch(name, domain, dtype):
    """``(args, assigned)``: NumPy arrays of ``dtype``, one per argument of ``name``,
    holding the inputs of every row of ``domain`` (deduplicated), and the row that
    judges each element."""
    dt = np.dtype(dtype)
    part_dtype = np.dtype(f"float{dt.itemsize * 4}") if dt.kind == "c" else dt
    parts = _parts(name, domain)
    indices = SC.rows(name, domain)
    columns = {p: [] for p in parts}
    remaining = []
    for index in indices:
        when = SC.ROWS[index][2]
        if when == ((("*", "remaining"),),):
            remaining.append(index)
            continue
        for alternative in when:
            got = _alternative_inputs(index, alternative, parts, part_dtype)
            if got is not None:
                for p in parts:
                    columns[p].append(got[p])
    if remaining:  # "in the remaining cases": a spread of all combinations
        uni = universe(part_dtype)
        grid = np.array(list(itertools.product(range(len(uni)), repeat=len(parts))))
        pick = grid[_spread(len(grid), CAP * 4, len(parts))]
        for j, p in enumerate(parts):
            columns[p].append(uni[pick[:, j]])
    cols = [np.concatenate(columns[p]) if columns[p] else np.zeros(0, part_dtype)
            for p in parts]
    # deduplicate by bit pattern (NaN signs kept apart)
    view = np.stack([c.view(f"u{part_dtype.itemsize}") for c in cols], axis=1)
    _, first = np.unique(view, axis=0, return_index=True)
    cols = [c[np.sort(first)] for c in cols]
    if dt.kind == "c":
        pairs = [cols[i:i + 2] for i in range(0, len(cols), 2)]
        args = []
        for re_part, im_part in pairs:
            z = np.empty(re_part.shape, dt)
            z.real, z.imag = re_part, im_part
            args.append(z)
    else:
        args = [c.astype(dt) for c in cols]
    env = SC.environment(args, dt) if name not in CONVERSIONS else {"self": args[0]}
    assigned = SC.judged_by(*SC.assign(indices, env))
    keep = assigned >= 0
    if name == "clip":  # min > max is unspecified (a namespace may raise)
        with np.errstate(invalid="ignore"):
            keep &= ~(env["min"] > env["max"])
    args = [a[keep] for a in args]
    for a in args:  # cached: shared by every namespace checked
        a.setflags(write=False)
    return tuple(args), assigned[keep]


def coverage(name, domain, dtype):
    """``{row index: number of batch inputs it judges}`` over the rows of ``name`` and
    ``domain`` (0: a row no input reaches -- an earlier row covers all its inputs)."""
    if name in REDUCTIONS:
        return {i: 1 for i in SC.rows(name, domain)}
    _, assigned = batch(name, domain, dtype)
    return {i: int((assigned == i).sum()) for i in SC.rows(name, domain)}


# ---- calling the namespace -----------------------------------------------------------------
def _dtype(xp, name):
    return getattr(xp, name, None)


def _as_xp(xp, arr):
    """``arr`` in ``xp``, from a copy: a namespace sharing memory with NumPy must not
    write into the cached inputs (in-place forms)."""
    return xp.asarray(np.array(arr, copy=True), dtype=_dtype(xp, arr.dtype.name))


_FUNCTIONS_ONLY = contextvars.ContextVar("laxarray_special_cases_functions_only",
                                         default=False)


@contextlib.contextmanager
def functions_only():
    """Within this block the operators of the arrays are left out (the functions alone are
    checked): for a namespace that replaces functions of another library but hands out
    that library's arrays, whose operators it does not change (tests build such
    namespaces)."""
    token = _FUNCTIONS_ONLY.set(True)
    try:
        yield
    finally:
        _FUNCTIONS_ONLY.reset(token)


def _forms(xp, name):
    """``(label, call)`` of the forms of elementwise ``name`` the standard has: the
    function, its operator, its in-place operator (mutable namespaces only); ``call``
    takes NumPy arguments and returns the namespace's result."""
    fn = resolve(xp, name)
    arity = len(SC.operands(name))

    def function(*args):
        if name == "clip":
            return fn(_as_xp(xp, args[0]), min=_as_xp(xp, args[1]), max=_as_xp(xp, args[2]))
        return fn(*[_as_xp(xp, a) for a in args])
    forms = [(f"{name}({', '.join(SC.operands(name))})", function)]
    if _FUNCTIONS_ONLY.get():
        return forms
    op = SC.OPERATOR_OF.get(name)
    if op is not None and arity <= 2:
        def operator(*args):
            first = _as_xp(xp, args[0])
            return getattr(first, op)(*[_as_xp(xp, a) for a in args[1:]])
        forms.append((f"x1.{op}(x2)" if arity == 2 else f"x.{op}()", operator))
    iop = SC.INPLACE_OF.get(name)
    if iop is not None and arity == 2 and arrays_mutable():
        def inplace(x1, x2):
            first = _as_xp(xp, x1)
            getattr(first, iop)(_as_xp(xp, x2))
            return first
        forms.append((f"x1.{iop}(x2)", inplace))
    return forms


def _elementwise_failures(xp, name, domain, dtype):
    args, assigned = batch(name, domain, dtype)
    if not len(assigned):
        return []
    env = SC.environment(args, dtype)
    out = []
    for label, call in _forms(xp, name):
        try:
            got = np.asarray(to_numpy(call(*args)))
        except Exception as exc:  # noqa: BLE001 -- reported as the form's failure
            err = ConformanceError(f"{name}: {label} raised {type(exc).__name__}: {exc} on "
                                   f"the standard's special-case inputs ({dtype})")
            out.append((label, dtype, err))
            continue
        if got.shape != assigned.shape:
            err = ConformanceError(f"{name}: {label} gave shape {got.shape} on "
                                   f"{assigned.shape[0]} special-case inputs ({dtype})")
            out.append((label, dtype, err))
            continue
        verdict, rows_of = SC.judge(name, env, got)
        if verdict.bad.any():
            out.append((label, dtype, SC.failure(name, label, args, got, verdict, rows_of)))
    return out


def _conversion_failures(xp, name, domain, dtype):
    args, assigned = batch(name, domain, dtype)
    convert = CONVERSIONS[name]
    out = []
    for v, index in zip(args[0], assigned):
        arr = xp.asarray(v.item(), dtype=_dtype(xp, dtype))
        shown = f"{name[2:-2]}(xp.asarray({v.item()!r}, dtype=xp.{dtype}))"
        got = raised = None
        try:
            got = convert(arr)
        except Exception as exc:  # noqa: BLE001 -- judged against the row
            raised = exc
        want, check_src = _conversion_want(name, v.item(), index)
        if SC.ROWS[index][3][0] == "raises":
            ok = raised is not None and any(c.__name__ == want for c in type(raised).__mro__)
            got = got if raised is None else raised
        else:
            ok = raised is None and eval(check_src, {"_same": _same, "math": math},  # noqa: S307
                                         {"got": got})
            got = got if raised is None else raised
        if not ok:
            err = ConformanceError(f"{name}: {shown} gave {got!r}, expected {want!r}: the "
                                   f"standard's special case {SC.ROWS[index][4]!r}")
            err.conversion = (name, v.item(), dtype, index)
            out.append((shown, dtype, err))
    return out


def _conversion_want(name, v, index):
    """``(want, check)``: what the row ``index`` says ``name`` gives for the value ``v``
    (an exception's name for "raise"), and for a value a Python expression of ``got``
    (and ``_same``) that holds when the result conforms."""
    kind, *rargs = SC.ROWS[index][3]
    if kind == "raises":
        return rargs[0], ""
    if kind == "int_part":
        want = math.trunc(v)
        return want, f"type(got) is int and got == {want!r}"
    if kind == "complex":
        re_v = v if rargs[0] == "self" else SC.value(rargs[0])
        want = complex(re_v, SC.value(rargs[1]))
        frees = rargs[2].split(",")
        return want, (f"isinstance(got, complex) and _same(got.real, {_literal(want.real)}, "
                      f"{'re' in frees}) and _same(got.imag, {_literal(want.imag)}, "
                      f"{'im' in frees})")
    want = SC.value(rargs[0])
    if isinstance(want, bool):
        return want, f"type(got) is bool and got == {want!r}"
    if name == "__int__":
        return int(want), f"type(got) is int and got == {int(want)!r}"
    return want, f"isinstance(got, float) and _same(got, {_literal(want)}, {rargs[0] == '±0'})"


def _literal(v):
    """Python source of float ``v``, NaN and infinities included."""
    if math.isnan(v):
        return 'float("nan")'
    if math.isinf(v):
        return 'float("inf")' if v > 0 else 'float("-inf")'
    return repr(v)


def _conversion_reproduction(namespace_label, name, v, dtype, index):
    """A self-contained snippet (NumPy-free: Python and the namespace) of one conversion
    breaking row ``index``: it raises AssertionError where the result is not the row's."""
    want, check_src = _conversion_want(name, v, index)
    builtin = CONVERSIONS[name].__name__
    lines = ["import importlib", "import math", "", inspect.getsource(_same).strip(), "",
             f"xp = importlib.import_module({namespace_label!r})",
             f"x = xp.asarray({_literal(v) if isinstance(v, float) else repr(v)}, "
             f"dtype=xp.{dtype})"]
    text = SC.ROWS[index][4].replace('"', "'")
    if not check_src:
        lines += ["try:", f"    got = {builtin}(x)", f"except {want}:",
                  "    got = None",
                  f'assert got is None, f"{builtin}(x) gave {{got!r}}, expected {want}: '
                  f'{text}"']
    else:
        lines += [f"got = {builtin}(x)",
                  f'assert {check_src}, f"{builtin}(x) gave {{got!r}}, expected {want!r}: '
                  f'{text}"']
    return "\n".join(lines)


def _same(g, e, free=False):
    """Whether floats ``g`` and ``e`` agree: NaN meets NaN, a zero's sign counts unless
    ``free``."""
    if math.isnan(e):
        return math.isnan(g)
    return g == e and (free or math.copysign(1.0, g) == math.copysign(1.0, e))


# ---- reductions ---------------------------------------------------------------------------
def _reduction_input(name, clause, dtype):
    """``(x, kwargs)``: an input meeting a reduction row's clause."""
    dt = np.dtype(dtype)
    operand = clause[0]
    if operand in ("M", "N"):
        return np.zeros((0, 0) if name.startswith("linalg.") else (0,), dt), {}
    if operand == "M-correction":
        return np.array([1.0, 2.0, 3.0], dt), {"correction": 3.0}
    if operand == "det":
        return np.array([[1.0, 2.0], [2.0, 4.0]], dt), {}
    x = np.array([1.0, 2.0, 3.0], dt)
    if operand == "x":
        x[1] = np.nan
    elif operand == "a":
        x[1] = complex(np.nan, 2.0)
    elif operand == "b":
        x[1] = complex(2.0, np.nan)
    return x, {}


def _reduction_failures(xp, name, domain, dtype):
    fn = resolve(xp, name)
    out = []
    for index in SC.rows(name, domain):
        _, _, when, result, text = SC.ROWS[index]
        x, kwargs = _reduction_input(name, when[0][0], dtype)
        label = f"{name}({x.tolist()!r}{''.join(f', {k}={v!r}' for k, v in kwargs.items())})"
        try:
            res = fn(_as_xp(xp, x), **kwargs)
        except Exception as exc:  # noqa: BLE001 -- reported as the row's failure
            out.append((label, dtype, ConformanceError(
                f"{name}: {label} raised {type(exc).__name__}: {exc}; the standard's special "
                f"case {text!r}")))
            continue
        if result[0] == "fields":
            parts = [(getattr(res, field, None) if hasattr(res, field) else
                      res[i], token) for i, (field, token) in enumerate(result[1:])]
        else:
            parts = [(res, result)]
        for got, token in parts:
            got = np.asarray(to_numpy(got))
            row = token if isinstance(token, tuple) else ("value", token)
            if row[0] == "complex" and got.dtype.kind != "c":
                row = ("value", row[1])
            verdict = _judge_one(row, got)
            if verdict.bad.any():
                out.append((label, dtype, ConformanceError(
                    f"{name}: {label} gave {got.tolist()!r}, expected "
                    f"{verdict.expected.tolist()!r}: the standard's special case {text!r}",
                    check="values", actual=got[verdict.bad], expected=verdict.expected[
                        verdict.bad], details={"rtol": 0.0, "atol": 0.0,
                                               "signed_zeros": True},
                    where=verdict.bad)))
    return out


def _judge_one(result, got):
    """The :class:`~laxarray.conformance.special_cases.Judgement` of a reduction's result
    ``got`` against ``result`` (a row's result tuple)."""
    verdict = SC.Judgement(got)
    kind, *args = result
    if kind == "part":
        which, token = args
        part = got.real if which == "re" else got.imag
        verdict.bad = SC._part(part, token, 0.0)[0]
        return verdict
    if kind == "complex":
        frees = args[2].split(",")
        bad_re, e_re, _ = SC._part(got.real, args[0], 0.0, "re" in frees)
        bad_im, e_im, _ = SC._part(got.imag, args[1], 0.0, "im" in frees)
        verdict.bad = bad_re | bad_im
        verdict.expected = SC._complex(e_re, e_im, got.dtype)
        return verdict
    verdict.bad, e, _ = SC._part(got.real if got.dtype.kind == "c" else got, args[0], 0.0)
    verdict.expected = np.asarray(e, got.dtype)
    return verdict


# ---- all of it --------------------------------------------------------------------------------
def failures(xp, name, exclude=()):
    """``[(form, dtype, ConformanceError)]``: every form and dtype of ``name`` on which
    ``xp`` breaks a row of the standard's special cases (dtypes named in ``exclude``, or
    missing from ``xp``, are left out)."""
    out = []
    for domain in sorted({SC.ROWS[i][1] for i in SC.BY_FUNCTION.get(name, ())}):
        for dtype in DTYPES[domain]:
            if dtype in exclude or _dtype(xp, dtype) is None:
                continue
            if name in CONVERSIONS:
                out += _conversion_failures(xp, name, domain, dtype)
            elif name in REDUCTIONS:
                out += _reduction_failures(xp, name, domain, dtype)
            else:
                out += _elementwise_failures(xp, name, domain, dtype)
    return out


def check(xp, name, exclude=()):
    """Raise the first of :func:`failures` (a :class:`ConformanceError` naming the form,
    the dtype and the standard's bullet), with the number of others in its message."""
    found = failures(xp, name, exclude)
    if found:
        form, dtype, err = found[0]
        if len(found) > 1:
            others = ", ".join(sorted({f"{f} ({d})" for f, d, _ in found[1:]}))[:300]
            err.args = (f"{err.args[0]}; also broken: {others}",)
        raise err


def outcome(xp, name, *, namespace_label="xp", exclude=(), mutable=True):
    """The runner's view of :func:`failures`: None where ``xp`` meets every row of
    ``name``, else ``(message, snippet, standalone, dtypes)``: the first failure's message,
    a snippet -- a self-contained reproduction of the failing namespace call where one can
    be written (:func:`laxarray.conformance.snippets.reproduction`), then this check again
    -- whether it has the self-contained part, and the failing dtypes.  ``mutable``:
    whether ``xp``'s arrays can be written to (the in-place forms need it)."""
    calls = []
    with mutable_arrays(mutable), np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = failures(Calls(xp, [], log=calls), name, exclude)
        if not found:
            return None
        form, dtype, err = found[0]
        if len(found) > 1:
            others = ", ".join(sorted({f"{f} ({d})" for f, d, _ in found[1:]}))
            err.args = (f"{err.args[0]}; also broken: {others}"[:1500],)
        try:
            if hasattr(err, "conversion"):
                standalone, why = _conversion_reproduction(namespace_label, *err.conversion), ""
                source = standalone.replace(
                    f"xp = importlib.import_module({namespace_label!r})", "")
                why = snippets._fails_alike(source, xp, err)
                standalone = None if why else standalone
            else:
                standalone, why = snippets.reproduction(xp, namespace_label, name, err, calls)
        except Exception as bug:  # noqa: BLE001 -- a reproduction must not hide the result
            standalone, why = None, f"writing it failed ({type(bug).__name__}: {bug})"
    message = " ".join(f"{type(err).__name__}: {err}".split())[:500]
    lines = [f"# {name} on {namespace_label}: the standard's special cases ({form}, {dtype})"]
    replay = ["import importlib", f"xp = importlib.import_module({namespace_label!r})",
              f"from {__name__.rpartition('.')[0]} import special_cases_check",
              f"special_cases_check.check(xp, {name!r})"]
    if standalone:
        lines += ["# Self-contained reproduction (needs NumPy and the namespace only):",
                  standalone, "",
                  "# Every special case of the standard again (needs laxarray.conformance):",
                  "REPLAY = False", "if REPLAY:"] + [f"    {line}" for line in replay[2:]]
    else:
        lines += [f"# No self-contained reproduction: {why}.",
                  "# Every special case of the standard again (needs laxarray.conformance):"]
        lines += replay
    return message, "\n".join(lines), standalone is not None, sorted({d for _, d, _ in found})


__all__ = ["DTYPES", "CAP", "CONVERSIONS", "REDUCTIONS", "has_cases", "universe", "batch",
           "coverage", "failures", "check", "outcome", "functions_only"]
