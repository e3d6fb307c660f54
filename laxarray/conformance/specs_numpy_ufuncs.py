"""Conformance specs (extension "numpy") for the ufunc methods of laxarray.numpy_api.ufuncs.

One spec per ufunc and method, named as the namespace spells it (``add.reduce``,
``maximum.accumulate``, ``multiply.outer``, ``add.at``), against NumPy's method of the same
ufunc.  ``reduce`` draws ``axis`` (an int, ``None`` or a tuple where the ufunc is reorderable),
``keepdims`` and ``initial``; ``at`` is laxarray's functional form ``f.at(a, indices, b)``
returning a new array, so the oracle applies NumPy's in-place ``f.at`` to a copy (a namespace
whose ``at`` returns ``None``, NumPy itself, is read as in-place on its argument).

Exact ufuncs (``maximum``, ``logical_*``, ``bitwise_*``, integer arithmetic) see special
values and compare exactly; floating arithmetic folds of ``n`` terms compare within their
rows of :data:`~laxarray.conformance.tolerances.BOUNDS` (``add.*`` ...), with the scale
those rows name (the same fold of magnitudes, or the result's magnitude).  Elements are
small so that integer products and float folds stay finite.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, strategies as st

from . import strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, to_numpy)
from .spec import Spec, as_xp, register, resolve

#: ufunc -> (dtype group of reduce/accumulate, of outer/at, exact?, reorderable?, has identity?)
UFUNCS = {
    "add": ("any", "numeric", False, True, True),
    "subtract": ("numeric", "numeric", False, False, False),
    "multiply": ("any", "numeric", False, True, True),
    "divide": ("floating-point", "floating-point", False, False, False),
    "maximum": ("real numeric", "real numeric", True, True, False),
    "minimum": ("real numeric", "real numeric", True, True, False),
    "logical_and": ("any", "any", True, True, True),
    "logical_or": ("any", "any", True, True, True),
    "logical_xor": ("any", "any", True, True, True),
    "bitwise_and": ("integer or boolean", "integer or boolean", True, True, True),
    "bitwise_or": ("integer or boolean", "integer or boolean", True, True, True),
    "bitwise_xor": ("integer or boolean", "integer or boolean", True, True, True),
    "hypot": ("real floating", "real floating", False, True, True),
    "logaddexp": ("real floating", "real floating", False, True, True),
}
#: ``outer`` is one broadcast call for every ufunc, ``accumulate`` of a ufunc without a
#: cumulative function one ``lax.scan`` fold: checked for one of each family only (CI time)
NO_OUTER = ("logical_or", "logical_xor", "bitwise_or", "bitwise_xor", "hypot")
NO_ACCUMULATE = ("logical_or", "bitwise_or", "bitwise_xor")
#: the ufuncs with ``at`` in laxarray (the arithmetic ones that ``Array.at`` provides)
AT_UFUNCS = ("add", "subtract", "multiply", "maximum", "minimum")
_SHAPES = S.shapes(max_dims=2, max_side=3)


def _np_ufunc(name):
    """NumPy's ufunc of the same name (the oracle)."""
    return getattr(np, name)


def _elements(data, name, dtype, shape, label):
    """Exact ufuncs see the full range (special values included); arithmetic small values."""
    kind = np.dtype(dtype).kind
    if UFUNCS[name][2] or kind == "b":
        return data.draw(S.arrays(dtype, shape), label=label)
    if name == "divide":  # parts of magnitude in [1, 4): quotients of a fold stay normal
        x = data.draw(S.arrays(dtype, shape, finite=True, min_value=-4, max_value=4),
                      label=label)

        def away(p):
            return np.where(p < 0, -1, 1) * (np.abs(p) % 3 + 1)
        return (away(x.real) + 1j * away(x.imag) if x.dtype.kind == "c"
                else away(x)).astype(dtype)
    lo = 0 if kind == "u" else -4
    return data.draw(S.arrays(dtype, shape, finite=True, min_value=lo, max_value=4),
                     label=label)


def _scalar(data, name, dtype, label):
    """A Python scalar of ``dtype``'s kind for ``initial`` / ``at``'s ``b``."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return data.draw(st.booleans(), label=label)
    if kind in "iu":
        return data.draw(st.integers(0 if kind == "u" else -3, 3), label=label)
    if name == "divide":
        return data.draw(st.sampled_from((1.0, -2.0, 3.5)), label=label)
    return float(data.draw(st.integers(-6, 6), label=label)) / 2


def _compare(fn, got, expected, *, exact, n, scale):
    """dtype, shape and values; inexact folds of ``n`` terms within ``fn``'s bound with
    ``scale`` (NaN where NumPy's)."""
    expected = np.asarray(expected)
    assert_dtype(fn, got, expected.dtype.name)
    assert_shape(fn, got, expected.shape)
    g = to_numpy(got)
    if exact or expected.dtype.kind in "biu":
        assert_values(fn, g, expected, bound="exact", signed_zeros=False)
        return
    assert_values(fn, g, expected, scale=scale, n=n, signed_zeros=False)


def _magnitude_fold(name, method, x, **kwargs):
    """The same fold of ``|x|`` (sum of magnitudes; product for multiply; None where the
    bound is relative to the result): the scale of the rounding error of a float fold."""
    ax = np.abs(x.astype(np.complex128) if x.dtype.kind == "c" else x.astype(np.float64))
    if name in ("multiply",):
        return getattr(np.multiply, method)(ax, **kwargs)
    if name in ("divide", "hypot", "logaddexp"):  # relative error: scale = |result|
        return None
    return getattr(np.add, method)(ax, **kwargs)


def _relative_scale(name, expected):
    """The scale of a fold whose bound names the result's magnitude (``outer``;
    ``logaddexp``: at least 1, its error is absolute near 0); None for ``divide`` and
    ``hypot``, whose rows are relative."""
    if name in ("divide", "hypot"):
        return None
    e = np.abs(np.asarray(expected).astype(np.complex128))
    return np.maximum(e, 1.0) if name == "logaddexp" else e


def _reduce_check(name):
    group, _, exact, reorderable, has_identity = UFUNCS[name]

    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        shape = data.draw(_SHAPES, label="shape")
        x = _elements(data, name, dtype, shape, "x")
        ndim = len(shape)
        axis = data.draw(S.axes(ndim, allow_none=reorderable or ndim <= 1,
                                allow_tuple=reorderable), label="axis")
        if axis is None and ndim == 0 and not reorderable:
            axis = ()
        keepdims = data.draw(st.booleans(), label="keepdims")
        kwargs = dict(axis=axis, keepdims=keepdims)
        if data.draw(st.booleans(), label="use initial"):
            kwargs["initial"] = _scalar(data, name, dtype, "initial")
        axes = range(ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        n = int(np.prod([shape[a] for a in axes])) + ("initial" in kwargs)
        with np.errstate(all="ignore"):
            try:
                expected = _np_ufunc(name).reduce(x, **kwargs)
            except ValueError:  # an empty reduction without identity: both must refuse
                assume(not has_identity)
                try:
                    resolve(xp, f"{name}.reduce")(as_xp(xp, x), **kwargs)
                except ValueError:
                    return
                raise ConformanceError(f"{name}.reduce: no ValueError for an empty "
                                       f"reduction of shape {shape} over axis {axis}") from None  # the oracle's error is expected here
        got = resolve(xp, f"{name}.reduce")(as_xp(xp, x), **kwargs)
        scale = None
        if not exact:
            mag_kwargs = dict(kwargs, **({"initial": abs(kwargs["initial"])}
                                         if "initial" in kwargs else {}))
            scale = _magnitude_fold(name, "reduce", x, **mag_kwargs)
            scale = _relative_scale(name, expected) if scale is None else scale
        _compare(f"{name}.reduce", got, expected, exact=exact, n=n, scale=scale)
    return check


def _accumulate_check(name):
    group, _, exact, _, _ = UFUNCS[name]

    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        shape = data.draw(S.shapes(min_dims=1, max_dims=2, max_side=3), label="shape")
        x = _elements(data, name, dtype, shape, "x")
        axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
        with np.errstate(all="ignore"):
            expected = _np_ufunc(name).accumulate(x, axis=axis)
        got = resolve(xp, f"{name}.accumulate")(as_xp(xp, x), axis=axis)
        scale = None if exact else _magnitude_fold(name, "accumulate", x, axis=axis)
        _compare(f"{name}.accumulate", got, expected, exact=exact, n=shape[axis],
                 scale=_relative_scale(name, expected) if scale is None else scale)
    return check


def _outer_check(name):
    _, group, exact, _, _ = UFUNCS[name]

    def check(xp, data):
        d1 = data.draw(S.dtypes(group), label="dtype A")
        d2 = data.draw(S.dtypes(group), label="dtype B")
        # (mixed kinds only where NumPy's promotion and the namespace's agree: same group)
        a = _elements(data, name, d1, data.draw(S.shapes(max_dims=2, max_side=3), label="A"),
                      "A")
        b = _elements(data, name, d2, data.draw(S.shapes(max_dims=2, max_side=3), label="B"),
                      "B")
        with np.errstate(all="ignore"):
            try:
                expected = _np_ufunc(name).outer(a, b)
            except TypeError:  # no common type (int8 & uint64 -> float64 for bitwise_and)
                try:
                    resolve(xp, f"{name}.outer")(as_xp(xp, a), as_xp(xp, b))
                except TypeError:
                    return
                raise ConformanceError(f"{name}.outer: no TypeError for dtypes {d1}, {d2}") from None  # the oracle's error is expected here
        got = resolve(xp, f"{name}.outer")(as_xp(xp, a), as_xp(xp, b))
        _compare(f"{name}.outer", got, expected, exact=exact, n=1,
                 scale=_relative_scale(name, expected))
    return check


def _at_check(name):
    _, group, exact, _, _ = UFUNCS[name]

    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        shape = data.draw(S.shapes(min_dims=1, max_dims=2, min_side=1, max_side=4),
                          label="shape")
        a = _elements(data, name, dtype, shape, "a")
        a0 = a.copy()  # (NumPy's in-place ``at`` may write into ``a`` through as_xp)
        m = data.draw(st.integers(0, 6), label="number of indices")
        idx = np.asarray(data.draw(st.lists(st.integers(-shape[0], shape[0] - 1), min_size=m,
                                            max_size=m), label="indices"), np.int64)
        if data.draw(st.booleans(), label="scalar b"):
            b = _scalar(data, name, dtype, "b")
            b_xp = b
        else:  # one value per index, broadcast over the trailing axes
            b = _elements(data, name, dtype, (m,) + shape[1:], "b")
            b_xp = as_xp(xp, b)
        expected = a0.copy()
        with np.errstate(all="ignore"):  # (NumPy's ``at`` does not read a Python b as weak:
            # uint64 maximum.at with b=0 computes in float64; the oracle gets b in a's dtype)
            _np_ufunc(name).at(expected, idx, np.asarray(b, dtype))
        a_xp = as_xp(xp, a)
        got = resolve(xp, f"{name}.at")(a_xp, as_xp(xp, idx), b_xp)
        if got is None:  # NumPy's in-place form
            got = a_xp
        counts = np.bincount(idx % shape[0], minlength=shape[0]).reshape(
            (-1,) + (1,) * (len(shape) - 1)) + 1
        scale = None
        if not exact and expected.dtype.kind in "fc":
            scale = np.abs(a0).astype(np.float64) + counts * np.max(np.abs(b), initial=0)
            if name == "multiply":
                scale = np.abs(expected)
        _compare(f"{name}.at", got, expected, exact=exact, n=int(counts.max()), scale=scale)
    return check


for _name in UFUNCS:
    _group = S.DTYPE_GROUPS[UFUNCS[_name][0]]
    register(Spec(f"{_name}.reduce", _reduce_check(_name), _group, extension="numpy",
                  kind="ufunc method"))
    if _name not in NO_ACCUMULATE:
        register(Spec(f"{_name}.accumulate", _accumulate_check(_name), _group,
                      extension="numpy", kind="ufunc method"))
    if _name not in NO_OUTER:
        register(Spec(f"{_name}.outer", _outer_check(_name), S.DTYPE_GROUPS[UFUNCS[_name][1]],
                      extension="numpy", kind="ufunc method"))
for _name in AT_UFUNCS:
    register(Spec(f"{_name}.at", _at_check(_name), S.DTYPE_GROUPS[UFUNCS[_name][1]],
                  extension="numpy", kind="ufunc method"))
