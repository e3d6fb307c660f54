"""Conformance specs of reductions, utility, searching and sorting functions (oracle: NumPy).

Each draws a dtype, a shape (0-d and empty included), values with special values, and the
keyword arguments (negative and tuple axes, keepdims), then compares dtype, shape and
values with NumPy.  Sums, products and moments compare within their rows of
:data:`~laxarray.conformance.tolerances.BOUNDS` (which grow with the number of terms:
summation order differs); everything else is exact.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, reject, strategies as st

from . import device_dtypes, signatures, strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, to_numpy)
from .spec import Spec, _draw_scalar, as_xp, large_examples, register, resolve, xp_dtype


def _axes_count(shape, axis):
    if axis is None:
        return max(math.prod(shape), 1)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return max(math.prod(shape[a] for a in axes), 1)


def _sum_dtype(name):
    """The standard's result dtype of ``sum``/``prod``/``cumulative_sum`` with no ``dtype``:
    the default integer dtype of the run's device (int64, or int32 on a device without
    64-bit types) for bool and signed integers, the default unsigned one (of the same
    width) for unsigned integers, the input's floating dtype otherwise."""
    kind = np.dtype(name).kind
    default = {"b": "integral", "i": "integral", "u": "unsigned"}.get(kind)
    return device_dtypes.default(default) if default else np.dtype(name).name


def _nan_part_free(got, *expected):
    """``(got, *expected)`` with a NaN that ``got`` has in a complex part where the expected
    value has none put into the expected values too, in the elements whose expected value
    has a non-finite part (and whose NaN parts ``got`` keeps).  The standard (``mean``) says
    the real-valued special cases "should" apply to the parts independently and only a NaN
    part "must" stay NaN, so a NaN in the other parts of such an element is the
    implementation's -- NumPy's complex division makes ``mean([nan + inf j])`` and
    ``mean([inf + inf j])`` ``nan + nan j``, ``mean([inf + 1j])`` ``inf + nan j``."""
    if got.dtype.kind != "c" or any(e.dtype.kind != "c" for e in expected):
        return (got, *expected)
    e = expected[0]
    e_nan = (np.isnan(e.real), np.isnan(e.imag))
    g_nan = (np.isnan(got.real), np.isnan(got.imag))
    must = (~e_nan[0] | g_nan[0]) & (~e_nan[1] | g_nan[1])  # a NaN part stays NaN
    special = ~(np.isfinite(e.real) & np.isfinite(e.imag)) & must
    free_re = special & g_nan[0] & ~e_nan[0]
    free_im = special & g_nan[1] & ~e_nan[1]
    out = [got]
    for a in expected:
        a = np.array(a, copy=True)
        a.real[free_re] = np.nan
        a.imag[free_im] = np.nan
        out.append(a)
    return tuple(out)


def reduction(name, oracle, group, *, result=lambda d: d, finite=False, accumulate=False,
              nonempty=False, oracle_kwargs=None, placements=None, large=False,
              nan_parts_free=False):
    """Spec of ``name(x, axis=..., keepdims=...)`` against ``oracle(x, axis=..., keepdims=...)``;
    ``placements``: the kinds of :func:`~laxarray.conformance.strategies.placed` put into
    the reduced slices of floating inputs (NaN in one row, an all-NaN row, +-inf, +-0);
    ``large``: pin the large size class too (NaN and +-inf in arrays of 4096 elements or
    more: :func:`~laxarray.conformance.spec.large_examples`); ``nan_parts_free``: a
    complex result part that must be NaN frees the other (:func:`_nan_part_free`)."""
    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        shape = data.draw(S.shapes(min_side=1 if nonempty else 0), label="shape")
        kwargs = {}
        bounded = dict(min_value=-4, max_value=4) if np.dtype(dtype).kind in "iu" and \
            name == "prod" else {}
        x = data.draw(S.arrays(dtype, shape, finite=finite, **bounded), label="x")
        axis = data.draw(S.axes(len(shape)), label="axis")
        if placements:
            x = data.draw(S.placed(x, axis, _complex_safe(name, dtype, placements)),
                          label="x placed")
        keepdims = data.draw(st.booleans(), label="keepdims")
        if axis is not None:
            kwargs["axis"] = axis
        if _takes_dtype(name) and data.draw(st.booleans(), label="dtype passed"):
            kwargs["dtype"] = xp_dtype(xp, result(dtype))  # (the dtype it defaults to)
        with np.errstate(all="ignore"):
            expected = np.asarray(oracle(x, axis=axis, keepdims=keepdims,
                                         **(oracle_kwargs or {})))
        out = resolve(xp, name)(as_xp(xp, x), keepdims=keepdims, **kwargs)
        assert_dtype(name, out, result(dtype))
        assert_shape(name, out, expected.shape)
        got = to_numpy(out)
        n = _axes_count(shape, axis) if accumulate else 1
        scale = None
        if accumulate and np.dtype(dtype).kind in "fc" and x.size:
            with np.errstate(all="ignore"):
                scale = np.asarray(oracle(np.abs(x), axis=axis, keepdims=keepdims))
        exp = expected.astype(got.dtype, copy=False) if expected.dtype.kind == got.dtype.kind \
            else expected
        if scale is not None:
            with np.errstate(all="ignore"):
                # whether a partial sum overflows depends on the order (NumPy's pairwise
                # [0, inf, -MAX, -MAX] gives inf + -inf = NaN, left to right gives inf): the
                # sum in wider precision, where none overflows, is a valid result too
                wide = np.clongdouble if x.dtype.kind == "c" else np.longdouble
                alt_wide = np.asarray(oracle(x.astype(wide), axis=axis, keepdims=keepdims))
                alt_wide = alt_wide.astype(got.dtype, copy=False)
            if nan_parts_free:
                got, exp, alt_wide = _nan_part_free(got, exp, alt_wide)
            assert_values(name, got, exp, scale=scale, n=n, signed_zeros=False,
                          alternatives=[alt_wide])
            return
        assert_values(name, got, exp, bound="exact", signed_zeros=False)  # empty, or exact
    return register(Spec(name, check, S.DTYPE_GROUPS[group], kind="reduction",
                         pinned=large_examples() if large else None))


def _takes_dtype(name):
    """Whether the standard's signature of ``name`` has a ``dtype`` keyword (``sum``,
    ``prod``)."""
    sig = signatures.signature(name)
    return sig is not None and any(p.name == "dtype" for p in sig.params)


def _complex_safe(name, dtype, kinds):
    """``kinds``, but only ``"as drawn"`` for a complex product: which of ``inf * 0`` and
    ``inf * x`` a complex product of infinities meets depends on the order of its
    multiplications, and whether ``NaN + 0j`` keeps its finite part (``1 * (NaN + 0j)`` is
    ``NaN + NaN j``) on whether it is multiplied at all: the standard fixes neither (a
    complex value with a NaN part is NaN)."""
    if "prod" in name and np.dtype(dtype).kind == "c":
        return ("as drawn",)
    return kinds


#: the placements of :func:`~laxarray.conformance.strategies.placed` per function family
_NAN_INF = ("as drawn", "one nan", "nan slice", "infinities")
_ALL_PLACEMENTS = S.PLACEMENTS

# the reductions where NaN and +-inf must propagate pin the large size class too
reduction("sum", np.sum, "numeric", result=_sum_dtype, accumulate=True, placements=_NAN_INF,
          large=True)
# finite base draws (as before); NaN, +-inf and +-0 placed in the reduced slices on purpose
reduction("prod", np.prod, "numeric", result=_sum_dtype, accumulate=True, finite=True,
          placements=_ALL_PLACEMENTS, large=True)
reduction("max", np.max, "real numeric", nonempty=True, placements=_ALL_PLACEMENTS,
          large=True)
reduction("min", np.min, "real numeric", nonempty=True, placements=_ALL_PLACEMENTS,
          large=True)
reduction("all", np.all, "any", result=lambda d: "bool")
reduction("any", np.any, "any", result=lambda d: "bool")
reduction("count_nonzero", lambda x, axis, keepdims: np.asarray(
    np.count_nonzero(x, axis=axis, keepdims=keepdims), dtype=np.int64), "any",
    result=lambda d: device_dtypes.default("indexing"))  # "the default array index data type"
def _mean_oracle(x, axis, keepdims):
    """Sum divided by the (real) count; complex parts divided separately (NumPy divides by
    a complex count, which turns ``0+inf*j`` into ``nan+inf*j``)."""
    total = np.sum(x, axis=axis, keepdims=keepdims)
    n = math.prod(x.shape) if axis is None else math.prod(
        x.shape[a] for a in (axis if isinstance(axis, tuple) else (axis,)))
    if x.dtype.kind != "c":
        return total / np.asarray(n, dtype=x.dtype)
    out = np.empty(np.shape(total), dtype=x.dtype)
    out.real = np.real(total) / n
    out.imag = np.imag(total) / n
    return out


reduction("mean", _mean_oracle, "floating-point", accumulate=True, nonempty=True,
          placements=_NAN_INF, large=True, nan_parts_free=True)


def _moments(name, oracle):
    def check(xp, data):
        dtype = data.draw(S.dtypes("real floating"), label="dtype")
        shape = data.draw(S.shapes(min_dims=1, min_side=1), label="shape")
        x = data.draw(S.arrays(dtype, shape, min_value=-100, max_value=100), label="x")
        axis = data.draw(S.axes(len(shape)), label="axis")
        # the bounds keep the moments' rounding error small; NaN and +-inf (whose moment is
        # NaN: inf - inf) are placed on purpose
        x = data.draw(S.placed(x, axis, _NAN_INF), label="x placed")
        correction = data.draw(st.sampled_from([0, 1, 0.5]), label="correction")
        keepdims = data.draw(st.booleans(), label="keepdims")
        n = _axes_count(shape, axis)
        if n - correction <= 0:  # (never for a pinned example: reject() wants a search)
            reject()
        with np.errstate(all="ignore"):
            expected = np.asarray(oracle(x, axis=axis, ddof=correction, keepdims=keepdims))
        out = resolve(xp, name)(as_xp(xp, x), axis=axis, correction=correction,
                                keepdims=keepdims)
        assert_dtype(name, out, dtype)
        assert_shape(name, out, expected.shape)
        got = to_numpy(out).astype(np.float64)
        finite = np.abs(x[np.isfinite(x)]).astype(np.float64)
        scale = (np.max(finite) if finite.size else 0.0) ** (2 if name == "var" else 1)
        assert_values(name, got, expected.astype(np.float64), scale=scale, n=n, dtype=dtype,
                      signed_zeros=False)
    return register(Spec(name, check, S.REAL_FLOATING, kind="reduction",
                         pinned=large_examples(correction=1)))


_moments("var", np.var)
_moments("std", np.std)


def _cumulative(name, oracle):
    def check(xp, data):
        dtype = data.draw(S.dtypes("numeric"), label="dtype")
        shape = data.draw(S.shapes(min_dims=1), label="shape")
        bounded = dict(min_value=-3, max_value=3) if np.dtype(dtype).kind in "iu" else {}
        x = data.draw(S.arrays(dtype, shape, finite=True, **bounded), label="x")
        axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis") \
            if len(shape) > 1 or data.draw(st.booleans(), label="explicit axis") else None
        # finite draws (no order-dependent overflow); NaN, +-inf (inf - inf, inf * 0) and
        # +-0 placed in one scanned slice on purpose
        kinds = ("as drawn", "one nan", "infinities", "infinities", "signed zeros")
        x = data.draw(S.placed(x, axis, _complex_safe(name, dtype, kinds)), label="x placed")
        include_initial = data.draw(st.booleans(), label="include_initial")
        kwargs = {}
        if data.draw(st.booleans(), label="dtype passed"):
            kwargs["dtype"] = xp_dtype(xp, _sum_dtype(dtype))  # (the dtype it defaults to)
        with np.errstate(all="ignore"):
            expected = oracle(x, axis=axis, include_initial=include_initial)
        out = resolve(xp, name)(as_xp(xp, x), axis=axis, include_initial=include_initial,
                                **kwargs)
        assert_dtype(name, out, _sum_dtype(dtype))
        assert_shape(name, out, expected.shape)
        got = to_numpy(out)
        if got.dtype.kind in "fc":
            n = shape[axis if axis is not None else 0] + 1
            assert_values(name, got, expected.astype(got.dtype), n=n, signed_zeros=False)
        else:
            assert_values(name, got, expected)
    return register(Spec(name, check, S.NUMERIC, kind="reduction", pinned=large_examples(
        **{"explicit axis": lambda d: d["axis"] is not None,
           "include_initial": lambda d: d["keepdims"]})))


_cumulative("cumulative_sum", np.cumulative_sum)
_cumulative("cumulative_prod", np.cumulative_prod)


def _diff_check(xp, data):
    dtype = data.draw(S.dtypes("real numeric"), label="dtype")
    shape = data.draw(S.shapes(min_dims=1, min_side=1), label="shape")
    x = data.draw(S.arrays(dtype, shape, finite=True), label="x")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = data.draw(st.integers(0, 2), label="n")
    assume(shape[axis] > n or n == 0)
    x = data.draw(S.placed(x, axis, ("as drawn", "one nan", "infinities")), label="x placed")
    kwargs, extra = {}, {}
    for word in ("prepend", "append"):  # arrays of x's shape but along axis (0 to 2 there;
        # not with n=0, where NumPy returns x as it is and the standard says nothing)
        if data.draw(st.booleans(), label=f"{word} passed") and n:
            side = list(shape)
            side[axis] = data.draw(st.integers(0, 2), label=f"{word} length")
            extra[word] = data.draw(S.arrays(dtype, tuple(side), finite=True), label=word)
            kwargs[word] = as_xp(xp, extra[word])
    with np.errstate(all="ignore"):
        expected = np.diff(x, n=n, axis=axis, **extra)
    out = xp.diff(as_xp(xp, x), axis=axis, n=n, **kwargs)
    assert_dtype("diff", out, expected.dtype.name)
    assert_values("diff", to_numpy(out), expected, signed_zeros=False)


register(Spec("diff", _diff_check, S.REAL_NUMERIC, kind="utility", tags=("boundaries",)))


def _arg_check(name, oracle):
    def check(xp, data):
        dtype = data.draw(S.dtypes("real numeric"), label="dtype")
        shape = data.draw(S.shapes(min_side=1), label="shape")
        x = data.draw(S.arrays(dtype, shape), label="x")
        axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1))
                         if shape else st.none(), label="axis")
        # NaN beside other values (NumPy: the first NaN wins), all-NaN, +-0 and +-inf ties
        x = data.draw(S.placed(x, axis, ("one nan", "one nan", "nan slice", "signed zeros",
                                         "infinities")), label="x placed")
        keepdims = data.draw(st.booleans(), label="keepdims")
        expected = np.asarray(oracle(x, axis=axis, keepdims=keepdims))
        out = resolve(xp, name)(as_xp(xp, x), axis=axis, keepdims=keepdims)
        assert_dtype(name, out, device_dtypes.default("indexing"))
        assert_values(name, to_numpy(out), expected)
    return register(Spec(name, check, S.REAL_NUMERIC, kind="searching",
                         pinned=large_examples()))


_arg_check("argmax", np.argmax)
_arg_check("argmin", np.argmin)


def _nonzero_check(xp, data):
    dtype = data.draw(S.dtypes("any"), label="dtype")
    shape = data.draw(S.shapes(min_dims=1), label="shape")
    x = data.draw(S.arrays(dtype, shape), label="x")
    x = data.draw(S.placed(x, None, ("as drawn", "signed zeros", "one nan")), label="x placed")
    expected = np.nonzero(x)
    out = xp.nonzero(as_xp(xp, x))
    if len(out) != len(expected):
        raise ConformanceError(f"nonzero: {len(out)} index arrays, expected {len(expected)}")
    for o, e in zip(out, expected):
        assert_dtype("nonzero", o, device_dtypes.default("indexing"))
        assert_values("nonzero", to_numpy(o), e)


register(Spec("nonzero", _nonzero_check, S.ALL, kind="searching", needs=("data_dependent_shapes",)))


def _searchsorted_check(xp, data):
    dtype = data.draw(S.dtypes("real numeric"), label="dtype")
    n = data.draw(st.integers(0, 6), label="n")
    x1 = np.sort(data.draw(S.arrays(dtype, (n,)), label="x1"))
    x2 = data.draw(S.arrays(dtype, data.draw(S.shapes(max_dims=2), label="shape")), label="x2")
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    arg2 = as_xp(xp, x2)
    if data.draw(st.booleans(), label="scalar x2"):  # a Python scalar of a kind x1's dtype
        x2, arg2 = _draw_scalar(data, dtype, ("int", "float"), None, x1, "x2")  # takes
    kwargs, sorter = {}, None
    if data.draw(st.booleans(), label="sorter passed"):  # x1 unsorted, and its sorter
        perm = data.draw(st.permutations(range(n)), label="order")
        x1 = x1[np.asarray(perm, dtype=np.intp)]
        sorter = np.argsort(x1, kind="stable").astype(device_dtypes.default("indexing"))
        kwargs["sorter"] = as_xp(xp, sorter)
    expected = np.searchsorted(x1, x2, side=side, sorter=sorter)
    out = xp.searchsorted(as_xp(xp, x1), arg2, side=side, **kwargs)
    assert_dtype("searchsorted", out, device_dtypes.default("indexing"))
    assert_values("searchsorted", to_numpy(out), expected)


register(Spec("searchsorted", _searchsorted_check, S.REAL_NUMERIC, kind="searching"))


def _where_check(xp, data):
    # (on a device without 64-bit types: float32 for float64)
    d1, d2 = data.draw(st.sampled_from(device_dtypes.narrowed([
        ("float64", "float32"), ("int8", "int16"), ("bool", "bool"), ("complex64", "float64"),
        ("uint8", "uint8"), ("complex128", "complex64")])), label="dtypes")
    shape = data.draw(S.shapes(), label="shape")
    cshape = data.draw(S.broadcastable_shapes(shape), label="c shape")
    if data.draw(st.booleans(), label="c swap"):  # the condition the larger operand, x1
        shape, cshape = cshape, shape  # and x2 broadcast against it (issue 74)
    cond = data.draw(S.arrays("bool", cshape), label="c")
    # a Python scalar on either side (2024.12 on), of each kind the other's dtype (d1) takes
    scalar = data.draw(st.booleans(), label="scalar x2")
    side = data.draw(st.sampled_from(["x2", "x1"]), label="scalar side")
    if scalar:
        arr = data.draw(S.arrays(d1, shape), label="x1" if side == "x2" else "x2")
        value, py = _draw_scalar(data, d1, signatures.SCALARS, None, arr, side)
        if side == "x2":
            x1, a1, x2, a2 = arr, as_xp(xp, arr), value, py
        else:
            x1, a1, x2, a2 = value, py, arr, as_xp(xp, arr)
    else:  # x1 and x2 of broadcast shapes, either one the larger (swap)
        shape2 = data.draw(S.broadcastable_shapes(shape), label="shape2")
        if data.draw(st.booleans(), label="swap"):
            shape, shape2 = shape2, shape
        x1 = data.draw(S.arrays(d1, shape), label="x1")
        x2 = data.draw(S.arrays(d2, shape2), label="x2")
        a1, a2 = as_xp(xp, x1), as_xp(xp, x2)
    expected = np.where(cond, x1, x2)
    out = xp.where(as_xp(xp, cond), a1, a2)
    assert_dtype("where", out, expected.dtype.name)
    assert_values("where", to_numpy(out), expected)


register(Spec("where", _where_check, S.ALL, kind="searching", tags=("broadcasting",)))


def _sort_check(name):
    def check(xp, data):
        dtype = data.draw(S.dtypes("real numeric"), label="dtype")
        shape = data.draw(S.shapes(min_dims=1), label="shape")
        x = data.draw(S.arrays(dtype, shape), label="x")
        axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
        descending = data.draw(st.booleans(), label="descending")
        # -0.0 and +0.0 tie (a stable sort keeps their order, so the signs are fixed); NaN
        # sorts last ascending (its place descending is unspecified)
        x = data.draw(S.placed(x, axis, ("as drawn", "signed zeros", "signed zeros")
                               + (() if descending else ("one nan", "nan slice"))),
                      label="x placed")
        stable = data.draw(st.sampled_from([True, True, False]), label="stable")
        out = resolve(xp, name)(as_xp(xp, x), axis=axis, descending=descending, stable=stable)
        if name == "argsort":
            assert_dtype(name, out, device_dtypes.default("indexing"))
        out = to_numpy(out)
        if descending:
            # the standard leaves NaN placement unspecified: check on NaN-free inputs
            assume(not np.isnan(x.astype(np.float64)).any())
        if not stable:  # ties in any order: the values sorted (zeros' signs free), and
            values = out  # argsort's indices a permutation of each slice
            if name == "argsort":
                ranks = np.moveaxis(np.broadcast_to(
                    np.arange(x.shape[axis]), np.moveaxis(x, axis, -1).shape), -1, axis)
                assert_values(name, np.sort(out, axis=axis), ranks)
                values = np.take_along_axis(x, out.astype(np.intp), axis)
            order = np.sort(x, axis=axis)
            if descending:
                order = np.flip(order, axis)
            assert_values(name, values, order, signed_zeros=False)
            return

        def oracle(keys):
            if descending:
                order = np.flip(np.argsort(np.flip(keys, axis), axis=axis, stable=True), axis)
                order = keys.shape[axis] - 1 - order
            else:
                order = np.argsort(keys, axis=axis, stable=True)
            return order if name == "argsort" else np.take_along_axis(x, order, axis)
        assert_values(name, out, oracle(x), signed_zeros=True)
    return register(Spec(name, check, S.REAL_NUMERIC, kind="sorting"))


_sort_check("sort")
_sort_check("argsort")
