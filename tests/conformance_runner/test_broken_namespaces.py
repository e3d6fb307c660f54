"""The runner judges itself, continued: more namespaces with one deliberately injected bug
each (NaN propagation, ties, result dtypes, keepdims, negative axes, empty inputs, signed
zeros, complex conjugation, norm modes, creation arguments, ...), which the runner must
flag on the right function.  (tests/conformance_runner/test_runner_cli.py holds the first
set; together they are the project's set of broken namespaces.)"""

import math

import numpy as np
import pytest

from laxarray.conformance import SPECS, runner
from laxarray.conformance.special_cases import conform
from laxarray.conformance.special_cases_check import functions_only
from laxarray.conformance.specs_elementwise import _expm1_oracle

cnp = pytest.importorskip("array_api_compat.numpy")

# the first set's factories (this folder is on sys.path: it has no __init__.py)
from test_runner_cli import (STANDARD, BROKEN, _with_linalg, broken,  # noqa: E402
                             floor_divide_zero_sign_lost)


def _namespace(overrides, linalg=None):
    """``broken`` of test_runner_cli, with ``linalg`` (a dict) replacing functions of its
    ``linalg`` too."""
    return broken(**overrides, **({"linalg": _with_linalg(**linalg)} if linalg else {}))


def _a(x):
    return np.asarray(x)


# ---- NaN propagation ------------------------------------------------------------------------
def _maximum_fmax(x1, x2, /):
    return np.fmax(x1, x2)


def _minimum_fmin(x1, x2, /):
    return np.fmin(x1, x2)


def _min_skips_nan(x, /, *, axis=None, keepdims=False):
    if x.dtype.kind == "f" and x.size:
        return _a(np.fmin.reduce(x, axis=axis, keepdims=keepdims))
    return cnp.min(x, axis=axis, keepdims=keepdims)


def _drops_nan_from_4096(name, reduce):
    """``name`` as XLA:CPU's reduce fusion computes it: from 4096 elements on, NaN is
    dropped (the extreme of the other values: ``reduce``, NumPy's fmax or fmin)."""
    def extreme(x, /, *, axis=None, keepdims=False):
        if x.dtype.kind == "f" and x.size >= 4096:
            return _a(reduce.reduce(x, axis=axis, keepdims=keepdims))
        return getattr(cnp, name)(x, axis=axis, keepdims=keepdims)
    return extreme


#: max and min of a namespace with XLA:CPU's fault (jax.numpy's, laxarray's before issue 38)
_DROP_NAN_FROM_4096 = {"max": _drops_nan_from_4096("max", np.fmax),
                       "min": _drops_nan_from_4096("min", np.fmin)}


def _sum_skips_nan(x, /, *, axis=None, dtype=None, keepdims=False):
    if x.dtype.kind == "f":
        return _a(np.nansum(x, axis=axis, dtype=dtype, keepdims=keepdims))
    return cnp.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _isfinite_nan(x, /):
    return _a(~cnp.isinf(x))


def _equal_nan_is_nan(x1, x2, /):
    out = _a(cnp.equal(x1, x2))
    a1, a2 = _a(x1), _a(x2)
    if a1.dtype.kind in "fc" or a2.dtype.kind in "fc":
        return _a(out | (np.isnan(a1) & np.isnan(a2)))
    return out


def _log_zero_nan(x, /):
    out = cnp.log(x)
    return _a(np.where(_a(x) == 0, np.nan, out)) if _a(x).dtype.kind == "f" else out


# ---- ties and order -------------------------------------------------------------------------
def _argmin_last(x, /, *, axis=None, keepdims=False):
    flipped = np.flip(x, axis=axis)
    idx = np.argmin(flipped, axis=axis, keepdims=keepdims)
    size = x.size if axis is None else x.shape[axis]
    return _a(size - 1 - idx)


def _argsort_unstable(x, /, *, axis=-1, descending=False, stable=True):
    # equal keys come out in reverse input order
    flipped = np.flip(x, axis=axis)
    order = np.argsort(-flipped if descending else flipped, axis=axis, kind="stable")
    return _a(x.shape[axis] - 1 - order) if x.ndim else _a(order)


def _nonzero_reversed(x, /):
    return tuple(i[::-1] for i in cnp.nonzero(x))


def _where_swapped(condition, x1, x2, /):
    return cnp.where(condition, x2, x1)


# ---- result dtypes --------------------------------------------------------------------------
def _multiply_keeps_x1_dtype(x1, x2, /):
    out = cnp.multiply(x1, x2)
    return out.astype(_a(x1).dtype) if hasattr(x1, "dtype") else out


def _equal_returns_int(x1, x2, /):
    return _a(cnp.equal(x1, x2)).astype(np.int8)


def _floor_of_int_float(x, /):
    return _a(np.floor(x)).astype(np.float64)


def _full_like_ignores_dtype(x, /, fill_value, *, dtype=None, device=None):
    return cnp.full_like(x, fill_value)


def _zeros_float32(shape, *, dtype=None, device=None):
    return cnp.zeros(shape, dtype=dtype or np.float32)


# ---- keepdims, axes, negative axes ----------------------------------------------------------
def _var_ignores_keepdims(x, /, *, axis=None, correction=0.0, keepdims=False):
    return cnp.var(x, axis=axis, correction=correction)


def _prod_ignores_axis(x, /, *, axis=None, dtype=None, keepdims=False):
    return cnp.prod(x, dtype=dtype, keepdims=keepdims)


def _concat_ignores_axis(arrays, /, *, axis=0):
    return cnp.concat(arrays, axis=0 if axis is not None else None)


def _stack_negative_axis(arrays, /, *, axis=0):
    if axis < 0:
        axis = axis + arrays[0].ndim  # off by one: the new axis counts in the length
    return cnp.stack(arrays, axis=axis)


def _permute_dims_inverse(x, /, axes):
    return cnp.permute_dims(x, tuple(int(i) for i in np.argsort(axes)))


def _squeeze_all(x, /, axis):
    return _a(np.squeeze(x))


def _take_ignores_axis(x, indices, /, *, axis=None):
    return cnp.take(x, indices, axis=None if x.ndim == 1 else 0)


def _moveaxis_swapped(x, source, destination, /):
    return cnp.moveaxis(x, destination, source)


# ---- empty inputs ---------------------------------------------------------------------------
def _all_empty_false(x, /, *, axis=None, keepdims=False):
    out = cnp.all(x, axis=axis, keepdims=keepdims)
    return _a(out & (_a(x).size > 0))


def _any_empty_true(x, /, *, axis=None, keepdims=False):
    out = cnp.any(x, axis=axis, keepdims=keepdims)
    return _a(out | (_a(x).size == 0))


def _max_empty_axis_zero(x, /, *, axis=None, keepdims=False):
    if _a(x).size == 0 and axis is not None:
        shape = list(x.shape)
        axes = axis if isinstance(axis, tuple) else (axis,)
        for a in axes:
            shape[a] = 1
        out = np.zeros(shape, x.dtype)
        return out if keepdims else np.squeeze(out, axis=axes)
    return cnp.max(x, axis=axis, keepdims=keepdims)


# ---- signed zeros and special values --------------------------------------------------------
def _sqrt_loses_zero_sign(x, /):
    out = cnp.sqrt(x)
    return _a(out + 0) if _a(out).dtype.kind == "f" else out


def _ceil_loses_zero_sign(x, /):
    out = cnp.ceil(x)
    return _a(out + 0) if _a(out).dtype.kind == "f" else out


def _signbit_of_value(x, /):
    return _a(_a(x) < 0)


def _copysign_ignores_zero(x1, x2, /):
    return _a(np.where(_a(x2) == 0, np.abs(x1), np.copysign(x1, x2)))


def _exp_minus_inf_nan(x, /):
    out = cnp.exp(x)
    return _a(np.where(np.isneginf(x), np.nan, out)) if _a(x).dtype.kind == "f" else out


# ---- complex --------------------------------------------------------------------------------
def _conj_identity(x, /):
    return x


def _real_is_abs(x, /):
    return _a(np.abs(x)) if _a(x).dtype.kind == "c" else cnp.real(x)


def _square_of_complex_is_abs2(x, /):
    if _a(x).dtype.kind == "c":
        return _a(np.abs(x) ** 2).astype(x.dtype)
    return cnp.square(x)


def _linalg_vecdot_no_conj(x1, x2, /, *, axis=-1):
    return cnp.sum(x1 * x2, axis=axis)


# ---- arithmetic -----------------------------------------------------------------------------
def _atan2_swapped(x1, x2, /):
    return cnp.atan2(x2, x1)


def _expm1_standard(x, /):
    # NumPy's complex expm1 is off the standard at infinities and NaN (expm1(inf+nanj) is
    # nan+nanj, the standard says inf+nanj), which the special-value draws find: the
    # unbroken namespace of this bug takes the standard's special cases from the oracle
    # and its table (NumPy's expm1(-inf + 2j) is -0.99999988 + 0j, not -1 + 0j)
    return _a(conform("expm1", (_a(x),), _expm1_oracle(_a(x))))


def _expm1_naive(x, /):
    naive = _a(np.exp(x) - np.asarray(1, dtype=_a(x).dtype))
    return _a(np.where(np.isfinite(_a(x)), naive, _expm1_standard(x)))


def _log_inf_nan_is_nan(x, /):
    # the standard: log(+-inf + NaN j) is +inf + NaN j (NumPy's too); this gives NaN + NaN j
    out, a = _a(cnp.log(x)), _a(x)
    if a.dtype.kind != "c":
        return out
    return _a(np.where(np.isinf(a.real) & np.isnan(a.imag),
                       np.asarray(complex(np.nan, np.nan), a.dtype), out))


def _logaddexp_naive(x1, x2, /):
    return _a(np.log(np.exp(x1) + np.exp(x2)))


def _less_equal_is_less(x1, x2, /):
    return cnp.less(x1, x2)


def _logical_xor_is_or(x1, x2, /):
    return cnp.logical_or(x1, x2)


def _trunc_is_floor(x, /):
    return cnp.floor(x)


def _count_nonzero_counts_zeros(x, /, *, axis=None, keepdims=False):
    return _a(np.sum(_a(x) == 0, axis=axis, keepdims=keepdims))


def _std_ignores_correction(x, /, *, axis=None, correction=0.0, keepdims=False):
    return cnp.std(x, axis=axis, keepdims=keepdims)


def _cumulative_prod_off_by_one(x, /, *, axis=None, dtype=None, include_initial=False):
    return cnp.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=not include_initial)


# ---- creation -------------------------------------------------------------------------------
def _linspace_no_endpoint(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    return cnp.linspace(start, stop, num, dtype=dtype, endpoint=False)


def _eye_ignores_k(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    return cnp.eye(n_rows, n_cols, dtype=dtype)


def _arange_inclusive(start, /, stop=None, step=1, *, dtype=None, device=None):
    out = cnp.arange(start, stop, step, dtype=dtype)
    return _a(out[:-1]) if out.size > 1 else out


def _triu_off_by_one(x, /, *, k=0):
    return cnp.triu(x, k=k - 1)


# ---- linalg: norm modes and friends ---------------------------------------------------------
def _vector_norm_ignores_ord(x, /, *, axis=None, keepdims=False, ord=2):
    return cnp.linalg.vector_norm(x, axis=axis, keepdims=keepdims)


def _matrix_norm_nuc_is_fro(x, /, *, keepdims=False, ord="fro"):
    return cnp.linalg.matrix_norm(x, keepdims=keepdims, ord="fro" if ord == "nuc" else ord)


def _inv_transposed(x, /):
    return _a(np.swapaxes(cnp.linalg.inv(x), -1, -2))


def _trace_ignores_offset(x, /, *, offset=0, dtype=None):
    return cnp.linalg.trace(x, dtype=dtype)


def _cross_negated(x1, x2, /, *, axis=-1):
    return _a(-np.asarray(cnp.linalg.cross(x1, x2, axis=axis)))


def _outer_swapped(x1, x2, /):
    return cnp.linalg.outer(x2, x1)


# ---- special values where they change the answer (strategies.placed) ----------------------
def _argmax_skips_nan(x, /, *, axis=None, keepdims=False):
    a = _a(x)
    if a.dtype.kind == "f" and a.size:
        # NaN-free slices as NumPy, others as if NaN were absent (all-NaN: the first)
        filled = np.where(np.isnan(a), -np.inf, a)
        return _a(np.argmax(filled, axis=axis, keepdims=keepdims))
    return cnp.argmax(x, axis=axis, keepdims=keepdims)


def _unique_values_merges_nan(x, /):
    a = _a(x).reshape(-1)
    if a.dtype.kind not in "fc":
        return cnp.unique_values(x)
    nan = np.isnan(a)
    return _a(np.concatenate([np.unique_values(a[~nan]), a[nan][:1]]))


def _sort_negative_zero_first(x, /, *, axis=-1, descending=False, stable=True):
    a = _a(x)
    if a.dtype.kind != "f":
        return cnp.sort(x, axis=axis, descending=descending, stable=stable)
    # ties of -0.0 and +0.0 broken by sign (-0.0 first), not by position
    order = np.lexsort((~np.signbit(a), a), axis=axis)
    out = np.take_along_axis(a, order, axis)
    return _a(np.flip(out, axis) if descending else out)


def _cumulative_sum_inf_minus_inf_is_zero(x, /, *, axis=None, dtype=None,
                                          include_initial=False):
    out = _a(cnp.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial))
    if out.dtype.kind != "f":
        return out
    nan_in = _a(cnp.cumulative_sum(_a(np.isnan(_a(x))).astype(np.int64), axis=axis,
                                   include_initial=include_initial)) > 0
    return _a(np.where(np.isnan(out) & ~nan_in, 0.0, out).astype(out.dtype))


def _var_ignores_infinities(x, /, *, axis=None, correction=0.0, keepdims=False):
    a = _a(x)
    finite_or_nan = np.where(np.isinf(a), 0.0, a).astype(a.dtype)
    return STANDARD["var"](finite_or_nan, axis=axis, correction=correction,
                           keepdims=keepdims)


def _matmul_skips_zero_terms(x1, x2, /):
    # a BLAS that skips zero entries (reference DGEMM's IF (B(L,J).NE.ZERO), applied to
    # both operands): a term with a zero factor counts as 0, so inf * 0 is 0, not NaN
    a, b = _a(x1), _a(x2)
    if a.dtype.kind != "f" or b.dtype.kind != "f":
        return cnp.matmul(x1, x2)
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    f1, f2 = a2[..., :, :, None], b2[..., None, :, :]
    with np.errstate(all="ignore"):
        out = np.where((f1 == 0) | (f2 == 0), 0.0, f1 * f2).sum(axis=-2)
    if a.ndim == 1:
        out = out[..., 0, :]
    if b.ndim == 1:
        out = out[..., 0]
    return _a(out.astype(np.result_type(a, b)))


# ---- wrong on one code path only (issue 56): right everywhere else -------------------------
def _argmax_last_tie_1d_none(x, /, *, axis=None, keepdims=False):
    # a 1-D input with axis=None takes a "flat" path that returns the last of tied maxima
    out = cnp.argmax(x, axis=axis, keepdims=keepdims)
    a = _a(x)
    if a.ndim != 1 or axis is not None or not a.size or \
            (a.dtype.kind == "f" and np.isnan(a).any()):
        return out
    last = a.size - 1 - int(np.argmax(a[::-1]))
    return _a(np.full(_a(out).shape, last, dtype=_a(out).dtype))


def _sum_negative_axis_drops_keepdims(x, /, *, axis=None, dtype=None, keepdims=False):
    # keepdims=True is honoured except where the axis is given as a negative int
    negative = isinstance(axis, int) and axis < 0
    return cnp.sum(x, axis=axis, dtype=dtype, keepdims=keepdims and not negative)


def _min_1d_none_skips_nan(x, /, *, axis=None, keepdims=False):
    # the whole-array path of a 1-D input skips NaN (fmin); every other path propagates it
    a = _a(x)
    if a.ndim == 1 and axis is None and a.dtype.kind == "f" and a.size:
        return _a(np.fmin.reduce(a, axis=None, keepdims=keepdims))
    return cnp.min(x, axis=axis, keepdims=keepdims)


def _argsort_1d_reverses_ties(x, /, *, axis=-1, descending=False, stable=True):
    # a 1-D ascending sort takes a path that orders ties last-first (n-D inputs are right)
    a = _a(x)
    if a.ndim != 1 or descending:
        return cnp.argsort(x, axis=axis, descending=descending, stable=stable)
    return _a(np.lexsort((-np.arange(a.size), a)).astype(np.int64))


# ---- wrong for one value of an enumerated keyword only (issue 56): right for the others --
def _argsort_descending_first_ties_reversed(x, /, *, axis=-1, descending=False, stable=True):
    # descending=True is the flip of the ascending order where a slice's first element ties
    # with a later one (its ties come out last-first); right ascending, and without such ties
    out = cnp.argsort(x, axis=axis, descending=descending, stable=stable)
    a = _a(x)
    if not descending or a.ndim == 0 or not a.size:
        return out
    rows = np.moveaxis(a, axis, -1)
    first = (rows[..., 1:] == rows[..., :1]).any(axis=-1, keepdims=True)
    flipped = np.flip(np.argsort(rows, axis=-1, stable=True), axis=-1)
    fixed = np.where(first, flipped, np.moveaxis(_a(out), axis, -1))
    return _a(np.moveaxis(fixed, -1, axis).astype(_a(out).dtype))


def _cumulative_sum_1d_initial_one(x, /, *, axis=None, dtype=None, include_initial=False):
    # the 1-D path with include_initial=True starts from 1 (cumulative_prod's identity);
    # every other path, and include_initial=False, starts from 0
    out = cnp.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)
    a = _a(x)
    if a.ndim != 1 or not include_initial:
        return out
    return _a(_a(out) + np.ones((), dtype=_a(out).dtype))


def _vector_norm_axis_pair_min_is_ord_minus_one(x, /, *, axis=None, keepdims=False, ord=2):
    # over a tuple of some of the axes (two of three), ord=-inf computes the ord=-1 norm;
    # every other ord, an int axis, axis=None and the tuple of every axis are right
    if isinstance(axis, tuple) and 1 < len(axis) < _a(x).ndim and ord == -math.inf:
        ord = -1
    return cnp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)


# ---- issue 74: wrong only for an argument kind the runner did not draw before -------------------
def _subtract_scalar_x1_strong(x1, x2, /):
    # a Python scalar first operand is read as a 0-d array of its default dtype (int64,
    # float64, complex128) and promotes the array operand: int8 - ... gives int64; a scalar
    # second operand, and two arrays, are right
    if isinstance(x1, (bool, int, float, complex)):
        x1 = cnp.asarray(x1)
    return cnp.subtract(x1, x2)


def _moveaxis_tuples_to_front(x, source, destination, /):
    # given tuples, the axes go to the front whatever the destination; ints are right
    if isinstance(source, tuple):
        destination = tuple(range(len(source)))
    return cnp.moveaxis(x, source, destination)


def _diff_standard(x, /, *, axis=-1, n=1, prepend=None, append=None):
    # NumPy's diff reads prepend=None and append=None as values to put there (None - 1.0
    # raises TypeError); the standard's None is "nothing"
    kw = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return cnp.diff(x, axis=axis, n=n, **kw)


def _diff_ignores_prepend(x, /, *, axis=-1, n=1, prepend=None, append=None):
    # prepend is accepted and unused; append is right
    return _diff_standard(x, axis=axis, n=n, append=append)


def _square_rows(a, b):
    """Whether ``a`` is 1-D and ``b`` a square 2-D array of its length (more than 1)."""
    a, b = _a(a), _a(b)
    return a.ndim == 1 and b.ndim == 2 and b.shape[0] == b.shape[1] == a.shape[0] > 1


def _add_1d_along_rows_of_a_square(x1, x2, /):
    # a 1-D operand against a square 2-D one of its length is broadcast along the rows
    # (the first axis), not the last: every other rank pair is right
    if _square_rows(x1, x2):
        x1 = cnp.asarray(_a(x1)[:, None])
    elif _square_rows(x2, x1):
        x2 = cnp.asarray(_a(x2)[:, None])
    return cnp.add(x1, x2)


def _clip_1d_max_along_rows_of_a_square(x, /, min=None, max=None):
    # a 1-D max against a square 2-D x of its length is broadcast along the rows (the
    # first axis), not the last; min, and max of every other rank pair, are right
    if max is not None and _square_rows(max, x):
        max = cnp.asarray(_a(max)[:, None])
    return cnp.clip(x, min=min, max=max)


def _where_1d_condition_along_rows_of_a_square(condition, x1, x2, /):
    # a 1-D condition against square 2-D x1 and x2 of its length picks along the rows (the
    # first axis), not the last; x1 against x2, and every other rank pair, are right
    if _square_rows(condition, np.empty(np.broadcast_shapes(np.shape(x1), np.shape(x2)))):
        condition = cnp.asarray(_a(condition)[:, None])
    return cnp.where(condition, x1, x2)


#: the kinds of issue 74, one per class of cell it made the runner draw: a Python scalar
#: in one argument, a tuple form, a keyword, a rank pair (of two operands, of clip's x and
#: a bound, of where's condition and the others)
ISSUE_74 = {
    "subtract promotes a Python scalar x1 (scalar promotion in one argument)": (
        "subtract", {"subtract": _subtract_scalar_x1_strong}),
    "moveaxis moves tuples of axes to the front (a tuple form)": (
        "moveaxis", {"moveaxis": _moveaxis_tuples_to_front}),
    "diff ignores prepend (an unused keyword)": ("diff", {"diff": _diff_ignores_prepend}),
    "add broadcasts 1-D along the rows of a square 2-D operand (one rank pair)": (
        "add", {"add": _add_1d_along_rows_of_a_square}),
    "clip broadcasts a 1-D max along the rows of a square 2-D x (one rank pair of x and "
    "a bound)": ("clip", {"clip": _clip_1d_max_along_rows_of_a_square}),
    "where applies a 1-D condition along the rows of square 2-D x1 and x2 (one rank pair "
    "of the condition)": ("where", {"where": _where_1d_condition_along_rows_of_a_square}),
}


BROKEN_MORE = {
    # NaN propagation
    "maximum drops NaN (fmax)": ("maximum", {"maximum": _maximum_fmax}),
    "minimum drops NaN (fmin)": ("minimum", {"minimum": _minimum_fmin}),
    "min skips NaN": ("min", {"min": _min_skips_nan}),
    "sum skips NaN": ("sum", {"sum": _sum_skips_nan}),
    # only arrays of 4096 elements or more: the reductions' pinned large size class
    # (strategies.large_arrays) catches it at the default count and seed, the random
    # draws (sides <= 4) never do
    "max drops NaN from 4096 elements": ("max", _DROP_NAN_FROM_4096),
    "min drops NaN from 4096 elements": ("min", _DROP_NAN_FROM_4096),
    "isfinite of NaN": ("isfinite", {"isfinite": _isfinite_nan}),
    "NaN == NaN": ("equal", {"equal": _equal_nan_is_nan}),
    "log(0) is NaN": ("log", {"log": _log_zero_nan}),
    # special values placed on purpose (strategies.placed; the boundary examples run each
    # placement once)
    "argmax skips NaN": ("argmax", {"argmax": _argmax_skips_nan}),
    "unique_values merges NaNs": ("unique_values",
                                  {"unique_values": _unique_values_merges_nan}),
    "stable sort puts -0.0 before +0.0": ("sort", {"sort": _sort_negative_zero_first}),
    "cumulative_sum: inf - inf is 0": ("cumulative_sum",
                                       {"cumulative_sum": _cumulative_sum_inf_minus_inf_is_zero}),
    "var ignores infinities": ("var", {"var": _var_ignores_infinities}),
    # strategies.placed_pair puts an inf and a 0 in one product
    "matmul: inf * 0 is 0 (zero terms skipped)": ("matmul",
                                                  {"matmul": _matmul_skips_zero_terms}),
    # ties and order
    "argmin returns the last minimum": ("argmin", {"argmin": _argmin_last}),
    "stable argsort reverses ties": ("argsort", {"argsort": _argsort_unstable}),
    "nonzero in reverse order": ("nonzero", {"nonzero": _nonzero_reversed}),
    "where swaps its branches": ("where", {"where": _where_swapped}),
    # result dtypes
    "multiply without promotion": ("multiply", {"multiply": _multiply_keeps_x1_dtype}),
    "equal returns integers": ("equal", {"equal": _equal_returns_int}),
    "floor of integers is float": ("floor", {"floor": _floor_of_int_float}),
    "full_like ignores dtype": ("full_like", {"full_like": _full_like_ignores_dtype}),
    "zeros defaults to float32": ("zeros", {"zeros": _zeros_float32}),
    # keepdims and axes
    "var ignores keepdims": ("var", {"var": _var_ignores_keepdims}),
    "prod ignores axis": ("prod", {"prod": _prod_ignores_axis}),
    "concat ignores axis": ("concat", {"concat": _concat_ignores_axis}),
    "stack negative axis off by one": ("stack", {"stack": _stack_negative_axis}),
    "permute_dims applies the inverse": ("permute_dims",
                                         {"permute_dims": _permute_dims_inverse}),
    "squeeze drops every unit axis": ("squeeze", {"squeeze": _squeeze_all}),
    "take ignores axis": ("take", {"take": _take_ignores_axis}),
    "moveaxis swaps source and destination": ("moveaxis", {"moveaxis": _moveaxis_swapped}),
    # empty inputs
    "all of nothing is False": ("all", {"all": _all_empty_false}),
    "any of nothing is True": ("any", {"any": _any_empty_true}),
    # signed zeros and special values
    "sqrt(-0.0) loses its sign": ("sqrt", {"sqrt": _sqrt_loses_zero_sign}),
    "ceil(-0.5) loses the zero's sign": ("ceil", {"ceil": _ceil_loses_zero_sign}),
    "signbit of -0.0 is False": ("signbit", {"signbit": _signbit_of_value}),
    "copysign ignores a zero's sign": ("copysign", {"copysign": _copysign_ignores_zero}),
    "exp(-inf) is NaN": ("exp", {"exp": _exp_minus_inf_nan}),
    # complex
    "conj is the identity": ("conj", {"conj": _conj_identity}),
    "real of complex is abs": ("real", {"real": _real_is_abs}),
    "square of complex is |x|**2": ("square", {"square": _square_of_complex_is_abs2}),
    "linalg.vecdot forgets to conjugate": ("linalg.vecdot", {},
                                           {"vecdot": _linalg_vecdot_no_conj}),
    # arithmetic
    "atan2 arguments swapped": ("atan2", {"atan2": _atan2_swapped}),
    "expm1 loses precision": ("expm1", {"expm1": _expm1_naive}),
    # the standard's special cases: a row no note relaxes (-0.0 // 1.0 is -0.0)
    "floor_divide loses -0.0's sign": ("floor_divide",
                                       {"floor_divide": floor_divide_zero_sign_lost}),
    "log(inf + NaN j) is NaN + NaN j": ("log", {"log": _log_inf_nan_is_nan}),
    "logaddexp overflows": ("logaddexp", {"logaddexp": _logaddexp_naive}),
    "less_equal is less": ("less_equal", {"less_equal": _less_equal_is_less}),
    "logical_xor is or": ("logical_xor", {"logical_xor": _logical_xor_is_or}),
    "trunc is floor": ("trunc", {"trunc": _trunc_is_floor}),
    "count_nonzero counts zeros": ("count_nonzero",
                                   {"count_nonzero": _count_nonzero_counts_zeros}),
    "std ignores correction": ("std", {"std": _std_ignores_correction}),
    "off-by-one cumulative_prod": ("cumulative_prod",
                                   {"cumulative_prod": _cumulative_prod_off_by_one}),
    # creation
    "linspace drops the endpoint": ("linspace", {"linspace": _linspace_no_endpoint}),
    "eye ignores k": ("eye", {"eye": _eye_ignores_k}),
    "arange stops one short": ("arange", {"arange": _arange_inclusive}),
    "triu off by one diagonal": ("triu", {"triu": _triu_off_by_one}),
    # linalg: norm modes and friends
    "vector_norm ignores ord": ("linalg.vector_norm", {},
                                {"vector_norm": _vector_norm_ignores_ord}),
    # the nuclear and Frobenius norms differ only for matrices of rank 2 or more: the
    # boundary examples draw 2 x 3 matrices, each ord once
    "matrix_norm nuc is fro": ("linalg.matrix_norm", {},
                               {"matrix_norm": _matrix_norm_nuc_is_fro}),
    "linalg.inv transposed": ("linalg.inv", {}, {"inv": _inv_transposed}),
    "linalg.trace ignores offset": ("linalg.trace", {}, {"trace": _trace_ignores_offset}),
    "linalg.cross negated": ("linalg.cross", {}, {"cross": _cross_negated}),
    "linalg.outer swapped": ("linalg.outer", {}, {"outer": _outer_swapped}),
    # wrong on one code path only (issue 56): the boundary phase crosses its value classes
    # with the paths (boundaries.crossed), so the path and the value class meet
    "argmax of a 1-D tie is the last (axis=None only)": (
        "argmax", {"argmax": _argmax_last_tie_1d_none}),
    "min of a 1-D input skips NaN (axis=None only)": (
        "min", {"min": _min_1d_none_skips_nan}),
    "sum drops keepdims on a negative axis": (
        "sum", {"sum": _sum_negative_axis_drops_keepdims}),
    "stable argsort reverses ties of 1-D inputs only": (
        "argsort", {"argsort": _argsort_1d_reverses_ties}),
    # wrong for one value of an enumerated keyword only: the boundary phase crosses the
    # value classes and the paths with every value of each keyword (boundaries.crossed)
    "descending argsort reverses ties of the first element (descending=True only)": (
        "argsort", {"argsort": _argsort_descending_first_ties_reversed}),
    "cumulative_sum starts 1-D inputs from 1 (include_initial=True only)": (
        "cumulative_sum", {"cumulative_sum": _cumulative_sum_1d_initial_one}),
    "vector_norm over two of three axes: ord=-inf is ord=-1": (
        "linalg.vector_norm", {}, {"vector_norm": _vector_norm_axis_pair_min_is_ord_minus_one}),
    **ISSUE_74,
}


#: the unbroken namespace of a bug, where it is not array_api_compat.numpy itself: the
#: functions NumPy gets wrong by the standard, replaced by conforming ones
BASES = {"expm1 loses precision": {"expm1": _expm1_standard},
         "std ignores correction": {"std": STANDARD["std"]},
         "var ignores keepdims": {"var": STANDARD["var"]},
         "var ignores infinities": {"var": STANDARD["var"]},
         "stable sort puts -0.0 before +0.0": {"sort": STANDARD["sort"]},
         "floor_divide loses -0.0's sign": {"floor_divide": STANDARD["floor_divide"]},
         "diff ignores prepend (an unused keyword)": {"diff": _diff_standard}}


def _case(bug):
    """``(name, broken namespace)`` of a bug of :data:`BROKEN_MORE` (every bug runs at the
    default example count: no bug has its own)."""
    name, overrides, *rest = BROKEN_MORE[bug]
    linalg = rest[0] if rest else None
    return name, _namespace({**BASES.get(bug, {}), **overrides}, linalg)


@pytest.mark.parametrize("bug", sorted(BROKEN_MORE))
def test_runner_flags_injected_bug(bug):
    (name, ns), n, seed = _case(bug), 25, 0
    spec = SPECS[name]
    with functions_only():  # (the arrays are NumPy's: their operators are NumPy's)
        base = runner.run_spec(_namespace(BASES[bug]) if bug in BASES else cnp, spec,
                               max_examples=n, seed=seed)
    assert base.status == "pass", base.message  # the spec passes on the unbroken namespace
    result = runner.run_spec(ns, spec, max_examples=n, seed=seed, namespace_label="broken",
                             shrink=False)
    assert result.status in ("fail", "error"), (result.status, result.message)


def test_the_project_has_at_least_60_kinds_of_bug():
    assert len(BROKEN) + len(BROKEN_MORE) >= 60
    assert not set(BROKEN) & set(BROKEN_MORE)


def test_reductions_pin_the_large_size_class():
    for name in ("max", "min", "sum", "prod", "mean", "argmax", "argmin", "cumulative_sum",
                 "amax", "amin", "ptp", "nanmax", "nanmin"):
        examples = SPECS[name].pinned()
        assert len(examples) >= 3 and {e["dtype"] for e in examples} == {"float32", "float64"}
        at = set()
        for e in examples:
            x = e.get("x placed", e["x"])
            assert x.size >= 4096 and np.isposinf(x).any() and np.isneginf(x).any()
            rows = np.moveaxis(x, e["axis"], -1).reshape(-1, x.shape[e["axis"]]) \
                if e["axis"] is not None else x.reshape(1, -1)
            i = int(np.flatnonzero(np.isnan(rows[0]))[0])
            at.add("first" if i == 0 else "last" if i == rows.shape[1] - 1 else "middle")
        assert at == {"first", "middle", "last"}, name


def test_pinned_failure_snippet_reproduces_it():
    ns = _namespace(_DROP_NAN_FROM_4096)
    result = runner.run_spec(ns, SPECS["max"], namespace_label="broken", shrink=False)
    assert result.status == "fail"  # the search passes, the first pinned example fails
    assert "pinned example 0" in result.snippet and result.standalone
    # the snippet imports its namespace by name; run it on the broken one, then the correct
    source = result.snippet.replace("xp = importlib.import_module('broken')", "")
    with pytest.raises(AssertionError, match="max"):
        exec(source, {"xp": ns})
    exec(source, {"xp": cnp})
