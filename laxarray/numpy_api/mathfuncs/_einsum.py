"""einsum and einsum_path: Einstein summation as a sequence of pairwise ``lax.dot_general``.

The subscripts are parsed in Python (explicit ``->`` or implicit output, ``...`` ellipsis,
or NumPy's interleaved ``(op, sublist, ..., [out])`` form).  A contraction path is chosen
from the static shapes -- NumPy's ``greedy`` and ``optimal`` algorithms, reimplemented
here (no opt_einsum) -- and one jitted kernel runs it: per operand, repeated labels become
diagonals and labels needed nowhere else are summed; then each step contracts two operands
with one ``dot_general`` (shared labels still needed become batch dimensions, the others are
contracted).  The path, label strings and dtypes are static, so under ``jax.jit`` the
traced program is a handful of ``dot_general``/``transpose``/``reduce_sum`` primitives.
"""

from __future__ import annotations

import itertools
import math
import string

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import dot_general
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array
from laxarray.array_api._convert import to_raw
from laxarray._core.jax_regions import in_wide_region

_LETTERS = string.ascii_uppercase + string.ascii_lowercase  # NumPy's sublist order
_CASTING = ("no", "equiv", "safe", "same_kind", "unsafe")


# ---- parsing -------------------------------------------------------------------------------
def _sublist_to_str(fn, sub):
    if not isinstance(sub, (list, tuple)):
        # NumPy: "the subscripts for each operand must be a list or a tuple" (TypeError)
        fail(TypeError, fn, "a list or tuple of subscripts for each operand", sub)
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
            continue
        try:
            i = int(s)
        except (TypeError, ValueError):
            fail(TypeError, fn, "sublist entries that are ints in [0, 52) or Ellipsis", s)
        if not 0 <= i < 52:
            fail(ValueError, fn, "sublist entries that are ints in [0, 52) or Ellipsis", s)
        out.append(_LETTERS[i])
    return "".join(out)


def _split_operands(fn, args):
    """``(subscripts, operands)`` from the string form or the interleaved sublist form."""
    # NumPy's classes: ValueError for too few arguments, TypeError for a non-list sublist
    if not args or (isinstance(args[0], str) and len(args) < 2):
        fail(ValueError, fn, "a subscripts string and at least one operand, or operands "
                             "each followed by its subscripts list", args)
    if isinstance(args[0], str):
        return args[0].replace(" ", ""), list(args[1:])
    if len(args) < 2:
        fail(ValueError, fn, "at least an operand and its subscripts list", args)
    ops = list(args[0::2])
    subs = list(args[1::2])
    out = None
    if len(args) % 2 == 1:  # trailing output sublist
        out, ops = ops[-1], ops[:-1]
    terms = ",".join(_sublist_to_str(fn, s) for s in subs)
    if out is not None:
        terms += "->" + _sublist_to_str(fn, out)
    return terms, ops


def _expand_term(fn, term, ndim, ell_letters, pos):
    if "." in term:
        if term.count(".") != 3 or "..." not in term:
            fail(ValueError, fn, "'...' as the only use of '.' in the subscripts", term)
        left, right = term.split("...")
        n_ell = ndim - len(left) - len(right)
        if n_ell < 0:
            fail(ValueError, fn, f"at most {ndim} subscripts for operand {pos}", term)
        return left + (ell_letters[len(ell_letters) - n_ell:] if n_ell else "") + right
    if len(term) != ndim:
        fail(ValueError, fn, f"{ndim} subscripts for operand {pos} of rank {ndim}", term)
    return term


def parse_subscripts(fn, subscripts, shapes):
    """Expanded ``(input terms, output term, label sizes)``; raises naming ``fn``."""
    if subscripts.count("->") > 1 or ("-" in subscripts.replace("->", "")) or (
            ">" in subscripts.replace("->", "")):
        fail(ValueError, fn, "subscripts with at most one '->'", subscripts)
    lhs, arrow, rhs = subscripts.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        fail(ValueError, fn, f"{len(terms)} operands for the subscripts {subscripts!r}",
             len(shapes))
    for ch in lhs + rhs:
        if ch not in _LETTERS and ch not in ",.":
            fail(ValueError, fn, "subscript labels in [a-zA-Z]", ch)
    used = set(lhs + rhs)
    free = [c for c in _LETTERS if c not in used]
    n_ell = 0
    for t, s in zip(terms, shapes):
        if "..." in t:
            n_ell = max(n_ell, len(s) - len(t.replace("...", "")))
    ell = "".join(free[:n_ell])
    inputs = tuple(_expand_term(fn, t, len(s), ell, i) for i, (t, s) in
                   enumerate(zip(terms, shapes)))
    if arrow:
        if "." in rhs:
            if rhs.count(".") != 3 or "..." not in rhs:
                fail(ValueError, fn, "'...' as the only use of '.' in the output", rhs)
            output = rhs.replace("...", ell)
        else:
            output = rhs
            if any(c in "".join(inputs) for c in ell):
                fail_text(ValueError, fn, "the output has fewer dimensions than the "
                          "broadcast '...' of the inputs: put '...' in the output subscripts")
        if len(set(output)) != len(output):
            fail(ValueError, fn, "an output subscript without repeated labels", rhs)
        for c in output:
            if c not in "".join(inputs):
                fail(ValueError, fn, f"output label {c!r} to appear in an input", rhs)
    else:
        joined = "".join(t.replace("...", "") for t in terms)
        once = sorted(c for c in set(joined) if joined.count(c) == 1)
        output = ell + "".join(once)
    sizes = {}
    for pos, (term, shape) in enumerate(zip(inputs, shapes)):
        for c, d in zip(term, shape):
            prev = sizes.get(c)
            if prev is None or prev == 1:
                sizes[c] = d
            elif d != 1 and d != prev:
                fail(ValueError, fn, f"size {prev} for label {c!r} (as in earlier operands) "
                     f"in operand {pos}", d)
    return inputs, output, sizes


# ---- paths (NumPy's algorithms) ------------------------------------------------------------
def _size(labels, sizes):
    return math.prod(sizes[c] for c in labels)


def _flops(labels, inner, n_terms, sizes):
    return _size(labels, sizes) * (max(1, n_terms - 1) + (1 if inner else 0))


def _find_contraction(positions, sets, output):
    contract, keep, remaining = set(), set(output), []
    for i, s in enumerate(sets):
        if i in positions:
            contract |= s
        else:
            remaining.append(s)
            keep |= s
    result = keep & contract
    remaining.append(result)
    return result, remaining, contract - result, contract


def _greedy_path(sets, output, sizes, limit):
    if len(sets) == 1:
        return [(0,)]
    if len(sets) == 2:
        return [(0, 1)]
    _, _, removed, contract = _find_contraction(range(len(sets)), sets, output)
    naive = _flops(contract, removed, len(sets), sizes)
    known, path, path_cost = [], [], 0

    def candidate(pos):
        res, new_sets, rem, con = _find_contraction(pos, sets, output)
        new_size = _size(res, sizes)
        if new_size > limit:
            return None
        removed_size = sum(_size(sets[p], sizes) for p in pos) - new_size
        cost = _flops(con, rem, len(pos), sizes)
        if path_cost + cost > naive:
            return None
        return [(-removed_size, cost), pos, new_sets]

    pairs = itertools.combinations(range(len(sets)), 2)
    for _ in range(len(sets) - 1):
        for pos in pairs:
            if sets[pos[0]].isdisjoint(sets[pos[1]]):
                continue
            c = candidate(pos)
            if c is not None:
                known.append(c)
        if not known:
            for pos in itertools.combinations(range(len(sets)), 2):
                c = candidate(pos)
                if c is not None:
                    known.append(c)
            if not known:
                path.append(tuple(range(len(sets))))
                break
        best = min(known, key=lambda k: k[0])
        bx, by = best[1]
        updated = []
        for cost, (x, y), con_sets in known:
            if x in best[1] or y in best[1]:
                continue
            del con_sets[by - int(by > x) - int(by > y)]
            del con_sets[bx - int(bx > x) - int(bx > y)]
            con_sets.insert(-1, best[2][-1])
            updated.append((cost, (x - int(x > bx) - int(x > by), y - int(y > bx) -
                                   int(y > by)), con_sets))
        known = updated
        sets = best[2]
        last = len(sets) - 1
        pairs = ((i, last) for i in range(last))
        path.append(best[1])
        path_cost += best[0][1]
    return path


def _optimal_path(sets, output, sizes, limit):
    results = [(0, [], sets)]
    for it in range(len(sets) - 1):
        step = []
        for cost, positions, remaining in results:
            for con in itertools.combinations(range(len(sets) - it), 2):
                res, new_sets, rem, contract = _find_contraction(con, remaining, output)
                if _size(res, sizes) > limit:
                    continue
                step.append((cost + _flops(contract, rem, 2, sizes), positions + [con],
                             new_sets))
        if not step:
            path = min(results, key=lambda r: r[0])[1]
            return path + [tuple(range(len(sets) - it))]
        results = step
    if not results:
        return [tuple(range(len(sets)))]
    return min(results, key=lambda r: r[0])[1]


def _choose_path(fn, optimize, inputs, output, sizes):
    """The path (list of position tuples) for ``optimize``, NumPy's conventions."""
    kind, limit, explicit = optimize, None, None
    if kind is True:
        kind = "greedy"
    if kind is None:
        kind = False
    if kind is False or isinstance(kind, str):
        pass
    elif isinstance(kind, (list, tuple)) and len(kind) and kind[0] == "einsum_path":
        explicit = [tuple(p) for p in kind[1:]]
    elif (isinstance(kind, (list, tuple)) and len(kind) == 2 and isinstance(kind[0], str)
          and isinstance(kind[1], (int, float))):
        kind, limit = kind[0], int(kind[1])
    else:
        fail(TypeError, fn, "'optimize' to be a bool, 'greedy', 'optimal', ('greedy', limit) "
             "or ['einsum_path', ...]", optimize)
    if isinstance(kind, str) and kind not in ("greedy", "optimal"):
        fail(ValueError, fn, "'optimize' to be 'greedy' or 'optimal'", kind)
    sets = [set(t) for t in inputs]
    out = set(output)
    if limit is None:
        limit = max(_size(t, sizes) for t in list(inputs) + [output])
    if explicit is not None:
        _check_path(fn, explicit, len(inputs))
        return explicit
    if kind is False or len(inputs) <= 2 or set("".join(inputs)) == out:
        return [tuple(range(len(inputs)))]
    if kind == "greedy":
        return _greedy_path(sets, out, sizes, limit)
    return _optimal_path(sets, out, sizes, limit)


def _check_path(fn, path, n):
    for step in path:
        if not step or len(set(step)) != len(step) or any(
                not isinstance(p, (int, np.integer)) or not 0 <= p < n for p in step):
            fail(ValueError, fn, f"path steps of distinct positions in [0, {n})", step)
        n = n - len(step) + 1
    if n != 1:
        fail(ValueError, fn, "a path that contracts all operands into one", path)


def _plan(inputs, output, path, sizes):
    """Per step: (positions sorted descending, result labels); and the report rows."""
    terms = list(inputs)
    steps, rows = [], []
    for k, step in enumerate(path):
        pos = tuple(sorted((int(p) for p in step), reverse=True))
        sets = [set(t) for t in terms]
        res, _, removed, contract = _find_contraction(pos, sets, set(output))
        picked = [terms.pop(p) for p in pos]
        if k == len(path) - 1:
            result = output
        else:
            result = "".join(c for _, c in sorted((sizes[c], c) for c in res))
        terms.append(result)
        steps.append((pos, result))
        rows.append((len(contract), _flops(contract, removed, len(pos), sizes),
                     _size(res, sizes), ",".join(picked) + "->" + result, list(terms)))
    return tuple(steps), rows


def _report(subscripts_in, output, inputs, sizes, rows):
    labels = set("".join(inputs))
    inner = sum(len(set(t)) for t in inputs) - len(labels) > 0
    naive = _flops(labels, inner, len(inputs), sizes)
    opt = sum(r[1] for r in rows) + 1
    text = f"  Complete contraction:  {subscripts_in}->{output}\n"
    text += f"         Naive scaling:  {len(labels)}\n"
    text += "     Optimized scaling:  %d\n" % max(r[0] for r in rows)
    text += f"      Naive FLOP count:  {naive:.3e}\n"
    text += f"  Optimized FLOP count:  {opt:.3e}\n"
    text += f"   Theoretical speedup:  {naive / opt:3.3f}\n"
    text += f"  Largest intermediate:  {max(r[2] for r in rows):.3e} elements\n"
    text += "-" * 74 + "\n" + "%6s %24s %40s\n" % ("scaling", "current", "remaining")
    text += "-" * 74
    for scale, _, _, current, remaining in rows:
        text += "\n%4d    %24s %40s" % (scale, current, ",".join(remaining) + "->" + output)
    return text


# ---- the kernel ----------------------------------------------------------------------------
def _diagonal_pair(x, labels, c):
    """Take the diagonal over the first two axes labelled ``c`` (kept at the first one)."""
    i = labels.index(c)
    j = labels.index(c, i + 1)
    n = x.shape[i]
    rest = [a for a in range(x.ndim) if a not in (i, j)]
    x = lax.transpose(x, tuple(rest) + (i, j))
    flat = lax.reshape(x, x.shape[:-2] + (n * n,))
    diag = lax.slice_in_dim(flat, 0, n * n, stride=n + 1, axis=flat.ndim - 1)
    new = [labels[a] for a in rest] + [c]
    return diag, "".join(new)


def _prepare(x, labels, keep, sizes):
    """Squeeze broadcast size-1 labels, take diagonals, sum labels not in ``keep``."""
    drop = [a for a, c in enumerate(labels) if x.shape[a] == 1 and sizes[c] != 1]
    if drop:
        x = lax.squeeze(x, drop)
        labels = "".join(c for a, c in enumerate(labels) if a not in drop)
    for c in sorted(set(labels)):
        while labels.count(c) > 1:
            x, labels = _diagonal_pair(x, labels, c)
    summed = tuple(a for a, c in enumerate(labels) if c not in keep)
    if summed:
        x = lax.reduce_sum(x, summed)
        labels = "".join(c for c in labels if c in keep)
    return x, labels


def _contract_pair(a, la, b, lb, keep, precision):
    batch = [c for c in la if c in lb and c in keep]
    contract = [c for c in la if c in lb and c not in keep]
    a_free = [c for c in la if c not in lb]
    b_free = [c for c in lb if c not in la]
    dims = (([la.index(c) for c in contract], [lb.index(c) for c in contract]),
            ([la.index(c) for c in batch], [lb.index(c) for c in batch]))
    out = dot_general(a, b, dims, precision=precision)
    return out, "".join(batch + a_free + b_free)


def _transpose_to(x, labels, target):
    if labels == target:
        return x
    return lax.transpose(x, tuple(labels.index(c) for c in target))


@kernel(static=("inputs", "output", "steps", "sizes", "dtype", "compute", "precision"))
def _einsum_kernel(*ops, inputs, output, steps, sizes, dtype, compute, precision):
    sizes = dict(sizes)
    terms = [(lax.convert_element_type(x, compute), t) for x, t in zip(ops, inputs)]
    for pos, result in steps:
        group = [terms.pop(p) for p in pos][::-1]
        others = set("".join(t for _, t in terms)) | set(result)
        prepared = []
        for i, (x, t) in enumerate(group):
            keep = others | set("".join(u for j, (_, u) in enumerate(group) if j != i))
            prepared.append(_prepare(x, t, keep, sizes))
        x, t = prepared[0]
        for k in range(1, len(prepared)):
            y, u = prepared[k]
            keep = others | set("".join(v for _, v in prepared[k + 1:]))
            x, t = _contract_pair(x, t, y, u, keep, precision)
            x, t = _prepare(x, t, keep, sizes)
        x, t = _prepare(x, t, set(result), sizes)
        # a label of ``result`` may come from a broadcast size-1 axis only: restore it
        for c in result:
            if c not in t:
                x = lax.expand_dims(x, (x.ndim,))
                t += c
        terms.append((x, t))  # intermediates keep dot_general's axis order (no transposes)
    (x, t), = terms
    x = _broadcast_out(x, t, output, sizes)
    if _dt.kind_of(dtype) == "b":
        return lax.ne(x, lax.full_like(x, 0))
    return lax.convert_element_type(x, dtype)


def _broadcast_out(x, t, output, sizes):
    x = _transpose_to(x, t, output)
    shape = tuple(sizes[c] for c in output)
    if x.shape != shape:
        x = lax.broadcast_in_dim(x, shape, tuple(range(len(shape))))
    return x


# ---- public --------------------------------------------------------------------------------
def _resolve(fn, args):
    subscripts, operands = _split_operands(fn, args)
    raws = [x._value if type(x) is Array else to_raw(fn, x, "operands") for x in operands]
    inputs, output, sizes = parse_subscripts(fn, subscripts, [tuple(v.shape) for v in raws])
    return subscripts, raws, inputs, output, sizes


@in_wide_region
def einsum(*operands, out=None, optimize="greedy", dtype=None, casting="safe",
           precision=None):
    """Evaluate the Einstein summation convention on the operands.

    Array API: (not in the standard). NumPy: numpy.einsum.

    Parameters
    ----------
    *operands : str and array_like
        The subscripts as a string (explicit ``->`` output or implicit, ``...`` for
        broadcast axes) followed by the arrays; or NumPy's interleaved form ``a, [0, 1], b,
        [1, 2], [0, 2]``.
    out : None
        NumPy's ``out``: only None is accepted.
    optimize : {'greedy', 'optimal', True, False} or list, optional
        The contraction path: ``'greedy'`` (default here; NumPy's default ``False``
        contracts left to right), ``'optimal'``, ``True`` (greedy), ``False``, ``(kind,
        memory_limit)``, or an explicit ``['einsum_path', (i, j), ...]`` as
        :func:`einsum_path` returns.  All give the same result up to rounding.
    dtype : dtype, optional
        The dtype to compute in; the operands must cast to it under ``casting``.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        The rule for ``dtype``; default ``'safe'``.
    precision : optional
        Passed to ``lax.dot_general``; default HIGHEST for floating types.

    Returns
    -------
    Array
        The result, of the promoted dtype (or ``dtype``); booleans give a boolean "any of
        all" result, as NumPy's.

    Raises
    ------
    TypeError
        If ``out`` is given, or an operand does not cast to ``dtype`` under ``casting``.
    ValueError
        If the subscripts do not match the operands' number or ranks, or a label has
        different sizes.

    Notes
    -----
    Static under ``jax.jit``: the subscripts, ``optimize``, ``dtype``, ``casting``,
    ``precision`` (the path is chosen from the static shapes).

    Contractions run pairwise on ``lax.dot_general``.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.einsum("ij,jk->ik", a, a)
    Array([[ 7, 10],
           [15, 22]])
    >>> la.einsum("ii", a)
    Array(5)
    >>> la.einsum("i,i", la.asarray([1, 2]), la.asarray([3, 4]))
    Array(11)
    >>> la.einsum(a, [0, 1], [1])
    Array([4, 6])
    """
    fn = "einsum"
    if out is not None:
        fail(TypeError, fn, "out=None (laxarray arrays are immutable)", out)
    if casting not in _CASTING:
        fail(ValueError, fn, f"'casting' to be one of {_CASTING}", casting)
    subscripts, raws, inputs, output, sizes = _resolve(fn, operands)
    in_dt = _dt.result_type(*[v.dtype for v in raws]) if raws else _dt.default_float()
    if dtype is None:
        out_dt = in_dt
    else:
        out_dt = _dt.canonicalize_dtype(fn, dtype)
        for v in raws:
            if not np.can_cast(v.dtype, out_dt, casting=casting):
                fail(TypeError, fn, f"operands castable to {out_dt} under casting="
                     f"{casting!r}", v)
    compute = _dt.int32 if _dt.kind_of(out_dt) == "b" else out_dt
    path = _choose_path(fn, optimize, inputs, output, sizes)
    steps, _ = _plan(inputs, output, path, sizes)
    return call(_einsum_kernel, *raws, inputs=inputs, output=output, steps=steps,
                sizes=tuple(sorted(sizes.items())), dtype=out_dt, compute=compute,
                precision=precision)


@in_wide_region
def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """The contraction path einsum would use, and a printable report. NumPy: numpy.einsum_path.

    Returns ``(['einsum_path', (i, j), ...], report)`` with NumPy's path algorithms
    (``'greedy'``, ``'optimal'``, ``False``, ``(kind, memory_limit)``) and report format.
    Only the operands' shapes are used; nothing is computed.
    """
    fn = "einsum_path"
    if einsum_call is not False:
        fail(ValueError, fn, "einsum_call=False", einsum_call)
    subscripts, ops = _split_operands(fn, operands)
    shapes = [tuple(x.shape) if hasattr(x, "shape") else np.shape(x) for x in ops]
    inputs, output, sizes = parse_subscripts(fn, subscripts, shapes)
    path = _choose_path(fn, optimize, inputs, output, sizes)
    _, rows = _plan(inputs, output, path, sizes)
    lhs = ",".join(inputs)
    return ["einsum_path", *path], _report(lhs, output, inputs, sizes, rows)


__all__ = ["einsum", "einsum_path"]
