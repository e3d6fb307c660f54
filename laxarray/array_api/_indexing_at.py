"""``x.at[key]``: functional indexed updates, as jax's ``.at``.

``x.at[key].set(v)`` / ``add`` / ``subtract`` / ``multiply`` / ``divide`` / ``min`` / ``max``
/ ``power`` return a new Array (``x`` is unchanged); ``x.at[key].get()`` is ``x[key]`` with
options.  Keys are everything ``x[key]`` accepts.  Repeated indices accumulate for ``add``,
``subtract``, ``multiply``, ``min`` and ``max``; for ``set``, ``divide`` and ``power`` one of
the repeated updates wins (which one is unspecified).

``mode`` (static under ``jax.jit``):

* ``None`` (default): the indexing rule -- eagerly an out-of-range index raises
  ``IndexError``; under tracing negative indices wrap once, then a get clamps and an update
  drops what is still out of range (reported by ``checkify`` with ``index_checks``).
* ``'promise_in_bounds'``: no eager check; otherwise as ``None``.
* ``'clip'``: indices are clamped into range (get and update).
* ``'fill'`` / ``'drop'``: a get returns ``fill_value`` for an out-of-range index (default:
  NaN for inexact dtypes, the minimum of signed, the maximum of unsigned integers, True);
  an update skips it.

In every mode a negative index first wraps once.  ``indices_are_sorted`` and
``unique_indices`` are promises passed to XLA (a wrong promise gives unspecified results).
``get(size=N, fill_value=...)`` makes a boolean-mask get work under ``jax.jit``: the result
holds the first ``N`` selected elements, padded with ``fill_value`` (mode ``'fill'``).
"""

from __future__ import annotations

import numpy as np

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.validate import check_bool, check_int, check_output_cast
from laxarray.array_api import _indexing_advanced as _adv
from laxarray.array_api import _indexing_basic as _basic
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._operators import cast_back
from laxarray._core.jaxapi import in_wide_mode

_OPS_CATEGORY = {"set": "any", "add": "numeric", "subtract": "numeric", "multiply": "numeric",
                 "divide": "floating-point", "min": "real", "max": "real", "power": "numeric"}


class IndexUpdateHelper:
    """``x.at``: index it (``x.at[key]``) to get an :class:`IndexUpdateRef`."""

    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    def __getitem__(self, key):
        return IndexUpdateRef(self._array, key)

    def __repr__(self):
        return f"_IndexUpdateHelper({self._array!r})"


class IndexUpdateRef:
    """``x.at[key]``: the methods below return updated copies of ``x``."""

    __slots__ = ("_array", "_key")

    def __init__(self, array, key):
        self._array, self._key = array, key

    def __repr__(self):
        return f"_IndexUpdateRef({self._array!r}, {self._key!r})"

    @in_wide_mode
    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None,
            fill_value=None, size=None):
        """``x[key]`` with an out-of-range ``mode``; ``size`` for a traced boolean mask.
        NumPy: x[key]. jax: x.at[key].get."""
        fn = "Array.at.get"
        x = self._array
        _check_options(fn, mode, indices_are_sorted, unique_indices)
        if size is not None:
            size = check_int(fn, size, "size", minimum=0)
        entries = _adv.classify_key(fn, self._key)
        if size is not None and not any(t == "mask" for t, _ in entries):
            fail(ValueError, fn, "size= only with a boolean mask in the key", size)
        if not _needs_gather(entries, mode):
            return _basic.getitem_basic(x, _adv.basic_key(entries), fn)
        return _adv.getitem(x, entries, mode=mode, fill_value=fill_value, size=size,
                            sorted_=indices_are_sorted, unique=unique_indices, fn=fn)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] = values``. NumPy: x[key] = values. jax: x.at[key].set."""
        return self._update("set", values, indices_are_sorted, unique_indices, mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] += values`` (repeated indices accumulate). jax: x.at[key].add."""
        return self._update("add", values, indices_are_sorted, unique_indices, mode)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] -= values`` (repeated indices accumulate).
        jax: x.at[key].subtract."""
        return self._update("subtract", values, indices_are_sorted, unique_indices, mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] *= values`` (repeated indices accumulate).
        jax: x.at[key].multiply."""
        return self._update("multiply", values, indices_are_sorted, unique_indices, mode)

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] /= values`` (floating-point ``x``). jax: x.at[key].divide."""
        return self._update("divide", values, indices_are_sorted, unique_indices, mode)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] = minimum(x[key], values)``. jax: x.at[key].min."""
        return self._update("min", values, indices_are_sorted, unique_indices, mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] = maximum(x[key], values)``. jax: x.at[key].max."""
        return self._update("max", values, indices_are_sorted, unique_indices, mode)

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[key] **= values``. jax: x.at[key].power."""
        return self._update("power", values, indices_are_sorted, unique_indices, mode)

    @in_wide_mode
    def _update(self, op, values, indices_are_sorted, unique_indices, mode,
                casting="same_kind"):
        """``x[key] <op>= values`` as a new Array.  The selected elements are computed in
        the dtype ``op`` gives for ``x`` and ``values`` and cast back to ``x.dtype`` as NumPy
        casts (``casting``: ``'same_kind'`` as NumPy's ``x[key] += v``, or ``'unsafe'`` as
        NumPy's ``ufunc.at``)."""
        fn = f"Array.at.{op}"
        x = self._array
        _check_options(fn, mode, indices_are_sorted, unique_indices)
        if op != "set":
            dtypes = _dtypes(op, x.dtype, values)
            result, compute = dtypes or (x.dtype, x.dtype)
            if compute != x.dtype or result != x.dtype:
                if casting == "same_kind":
                    check_output_cast(fn, _AT_FUNCTIONS[op], result, x.dtype,
                                      f"a result that casts to the array's dtype {x.dtype} "
                                      "by NumPy's 'same_kind' rule (updates keep the dtype)")
                wide = IndexUpdateRef(cast_back(x, compute), self._key)
                out = wide._update(op, values, indices_are_sorted, unique_indices, mode)
                return cast_back(out, x.dtype)
        category = _OPS_CATEGORY[op]
        if x.dtype not in _dt.CATEGORIES[category]:
            _dt.check_category(fn, "x", x.dtype, category)
        entries = _adv.classify_key(fn, self._key)
        if _needs_gather(entries, mode):
            return _adv.updated(_adv.update(x, entries, values, op, mode=mode,
                                    sorted_=indices_are_sorted, unique=unique_indices, fn=fn))
        return _basic.update_basic(x, _adv.basic_key(entries), values, op, fn)


#: at-method -> the standard function it applies (NumPy's messages name its ufunc)
_AT_FUNCTIONS = {"add": "add", "subtract": "subtract", "multiply": "multiply",
                 "divide": "divide", "min": "minimum", "max": "maximum", "power": "pow"}


def _dtypes(op, dtype, values):
    """``(result, compute)`` for ``x.at[key].op(values)`` with ``x`` of ``dtype``: the dtype
    of NumPy's result (the promoted one, Python scalars weak; integer ``divide`` gives
    float64, bool ``power`` int8) and the dtype laxarray computes it in (int8 for bool
    sums, products and extremes: NumPy's logical or/and, cast back by ``!= 0``); None where
    only the update itself can tell (a list of values)."""
    if isinstance(values, np.generic) and _dt.kind_of(values.dtype) in "biufc":
        values = values.item()
    pytype = _dt.scalar_pytype(values)
    if pytype is not None:
        out = _dt.weak_promote(dtype, pytype)
    else:
        v_dtype = getattr(values, "dtype", None)
        if v_dtype not in _dt.CATEGORIES["any"] or getattr(values, "shape", None) is None:
            return None
        out = _dt.promote_types(dtype, v_dtype)
    if op == "divide" and _dt.kind_of(out) not in "fc":
        out = _dt.default_float()
    if out == _dt.bool_:
        if op == "power":
            out = _dt.int8
        elif op in ("add", "multiply", "min", "max"):
            return out, _dt.int8
    return out, out


def _needs_gather(entries, mode):
    """Arrays in the key, or integers whose range the mode (not IndexError) decides."""
    return _adv.is_advanced(entries) or (mode is not None and
                                         any(t == "int" for t, _ in entries))


def _check_options(fn, mode, indices_are_sorted, unique_indices):
    if mode is not None and (not isinstance(mode, str) or mode not in _adv.MODES):
        fail(ValueError, fn, "mode None, 'promise_in_bounds', 'clip', 'fill' or 'drop'", mode)
    check_bool(fn, indices_are_sorted, "indices_are_sorted")
    check_bool(fn, unique_indices, "unique_indices")


provide(at=IndexUpdateHelper)
