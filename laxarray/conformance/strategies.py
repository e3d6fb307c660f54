"""Hypothesis strategies for conformance: dtypes, shapes, arrays with special values, axes.

Strategies build **NumPy** arrays (the oracle's inputs); a spec converts them to the
namespace under test with ``xp.asarray``.  Shapes are kept small (rank <= 3, sides <= 4)
so that jit-compiling namespaces reuse compiled kernels across examples; the reduction-like
specs add a few large arrays as pinned examples (:func:`large_arrays`).
"""

from __future__ import annotations

import functools
import math
from builtins import max as builtins_max, min as builtins_min

import numpy as np
from hypothesis import strategies as st

BOOL = ("bool",)
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTEGRAL = SIGNED + UNSIGNED
REAL_FLOATING = ("float32", "float64")
COMPLEX_FLOATING = ("complex64", "complex128")
FLOATING = REAL_FLOATING + COMPLEX_FLOATING
NUMERIC = INTEGRAL + FLOATING
ALL = BOOL + NUMERIC
REAL_NUMERIC = INTEGRAL + REAL_FLOATING

#: dtype-name groups by category name (as used in specs).
DTYPE_GROUPS = {
    "bool": BOOL, "integral": INTEGRAL, "signed integer": SIGNED,
    "unsigned integer": UNSIGNED, "real floating": REAL_FLOATING,
    "complex floating": COMPLEX_FLOATING, "floating-point": FLOATING, "numeric": NUMERIC,
    "real numeric": REAL_NUMERIC, "integer or boolean": BOOL + INTEGRAL, "any": ALL,
    "real": BOOL + REAL_NUMERIC,
}


@functools.lru_cache(maxsize=None)
def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    """Array shapes, 0-d and empty included."""
    return _stating(st.lists(st.integers(min_side, max_side), min_size=min_dims,
                             max_size=max_dims).map(tuple),
                    "shape", (min_dims, max_dims, min_side, max_side))


def _stating(strategy, kind, info):
    """``strategy`` stating what it draws (its ``_boundary``: ``(kind, info)``), which the
    boundary examples read (:mod:`laxarray.conformance.boundaries`)."""
    strategy._boundary = (kind, info)
    return strategy


def broadcastable_shapes(shape):
    """Shapes that broadcast with ``shape`` (dims dropped from the left or set to 1)."""
    return _broadcastable_shapes(tuple(shape))


@functools.lru_cache(maxsize=1024)   # one strategy per shape: hypothesis validates each anew
def _broadcastable_shapes(shape):
    def make(draw_dims):
        drop, ones = draw_dims
        out = list(shape[drop:])
        for i in ones:
            if i < len(out):
                out[i] = 1
        return tuple(out)
    return _stating(st.tuples(st.integers(0, len(shape)),
                              st.lists(st.integers(0, max(len(shape) - 1, 0)),
                                       max_size=2)).map(make), "bcast", tuple(shape))


def _special_floats(dtype):
    info = np.finfo(dtype)
    return [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0,
            float(info.max), float(-info.max), float(info.tiny), float(info.smallest_subnormal),
            float(-info.smallest_subnormal), np.pi, -np.pi / 2, 1e-8, -3.0]


def scalars(dtype, *, finite=False, min_value=None, max_value=None):
    """Scalars of ``dtype`` biased towards special values (NaN, +-inf, +-0, subnormals,
    extremes) unless ``finite``."""
    return _scalars(np.dtype(dtype).name, bool(finite), min_value, max_value)


# Strategies are built once per argument tuple (:func:`_scalars`, :func:`_arrays`,
# :func:`shapes`, :func:`dtypes`): hypothesis validates a new strategy object on its first
# draw, which cost more than the draw itself -- about half of a warm run's time.
@functools.lru_cache(maxsize=4096)
def _scalars(dtype, finite, min_value, max_value):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = info.min if min_value is None else max(info.min, min_value)
        hi = info.max if max_value is None else min(info.max, max_value)
        edges = [v for v in (lo, hi, 0, 1, -1, 2) if lo <= v <= hi]
        return st.one_of(st.sampled_from(edges), st.integers(lo, hi))
    real_dt = np.dtype(f"float{dt.itemsize * 4}") if dt.kind == "c" else dt
    width = real_dt.itemsize * 8
    specials = _special_floats(real_dt)
    if finite:
        specials = [v for v in specials if np.isfinite(v)]
    if min_value is not None or max_value is not None:
        lo = -np.inf if min_value is None else min_value
        hi = np.inf if max_value is None else max_value
        specials = [v for v in specials if lo <= v <= hi]
    real = st.one_of(
        st.sampled_from(specials) if specials else st.nothing(),
        st.floats(min_value=min_value, max_value=max_value, width=width,
                  allow_nan=not finite and min_value is None and max_value is None,
                  allow_infinity=not finite and (min_value is None or max_value is None),
                  allow_subnormal=True),
        st.floats(-10.0 if min_value is None else builtins_max(-10.0, min_value),
                  10.0 if max_value is None else builtins_min(10.0, max_value), width=width),
    )
    if dt.kind == "c":
        return st.builds(complex, real, real)
    return real


#: the special set of the dense draw mode: NaN (twice: the value most often mishandled),
#: infinities and signed zeros, with a few ordinary values so that specials meet ordinary
#: numbers too (-1.5 and 0.5 tell the rounding modes apart); the constant mode draws from
#: its first six (the specials proper).
DENSE_FLOATS = (np.nan, np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -1.5, 2.0)

#: per-array draw modes of :func:`arrays` for floating dtypes, each entry as likely:
#: elements one by one from :func:`scalars`; elements densely from the special set; the
#: whole array one special value.  Finite draws (no NaN or infinity allowed, where only
#: zeros are left for the constant mode) use ``FINITE_MODES``.
MODES = ("mixed", "dense", "dense", "constant")
FINITE_MODES = ("mixed", "mixed", "dense", "constant")


def dense_floats(*, finite=False, min_value=None, max_value=None, constant=False):
    """The special set (:data:`DENSE_FLOATS`; its first six if ``constant``) restricted
    like :func:`scalars`: the finite ones only if ``finite``, those within ``[min_value,
    max_value]`` if given."""
    vals = DENSE_FLOATS[:6] if constant else DENSE_FLOATS
    vals = [v for v in vals if not finite or np.isfinite(v)]
    if min_value is not None or max_value is not None:
        lo = -np.inf if min_value is None else min_value
        hi = np.inf if max_value is None else max_value
        vals = [v for v in vals if lo <= v <= hi]
    return vals


def _specials(dtype, constant=False, **bounds):
    """Elements from the special set for ``dtype`` (complex: both parts from it), or None
    where the dtype has none (integers, booleans) or the bounds leave none."""
    dt = np.dtype(dtype)
    if dt.kind not in "fc":
        return None
    vals = dense_floats(constant=constant, **bounds)
    if not vals:
        return None
    real = st.sampled_from(vals)
    return st.builds(complex, real, real) if dt.kind == "c" else real


def arrays(dtype, shape, *, finite=False, min_value=None, max_value=None):
    """NumPy arrays of ``dtype`` and ``shape``.

    For floating dtypes a draw mode is drawn first (:data:`MODES`): ``"mixed"`` takes each
    element from :func:`scalars` (special values now and then), ``"dense"`` each from the
    special set (:func:`dense_floats`: NaN, +-inf, +-0 and a few ordinary values, so that
    specials meet each other and land at every position), ``"constant"`` one special value
    (NaN, +-inf, +-0) for the whole array (an all-NaN or all-inf reduction, a zero everywhere).
    The bounds restrict every mode alike.  Other dtypes: elements from :func:`scalars`.
    """
    dtype, shape = np.dtype(dtype).name, tuple(int(n) for n in shape)
    return _stating(_arrays(dtype, shape, bool(finite), min_value, max_value), "array",
                    (dtype, shape, dict(finite=bool(finite), min_value=min_value,
                                        max_value=max_value)))


@functools.lru_cache(maxsize=4096)
def _arrays(dtype, shape, finite, min_value, max_value):
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) if shape else 1
    bounds = dict(finite=finite, min_value=min_value, max_value=max_value)
    elems = scalars(dtype, **bounds)
    build = lambda vals: np.asarray(vals, dtype=dt).reshape(shape)  # noqa: E731
    mixed = st.lists(elems, min_size=n, max_size=n).map(build)
    special = _specials(dtype, **bounds)
    if special is None:
        return mixed
    dense = st.lists(special, min_size=n, max_size=n).map(build)
    one = _specials(dtype, constant=True, **bounds)
    one = special if one is None else one
    constant = one.map(lambda v: np.full(shape, v, dtype=dt))
    by_mode = {"mixed": mixed, "dense": dense, "constant": constant}
    nonfinite = any(not np.isfinite(v) for v in dense_floats(**bounds))
    return st.sampled_from(MODES if nonfinite else FINITE_MODES).flatmap(by_mode.__getitem__)


def kind_class(dtype):
    """The class of a dtype that draws are balanced over: ``"bool"``, ``"integer"``
    (signed and unsigned), ``"real floating"``, ``"complex floating"``."""
    return {"b": "bool", "i": "integer", "u": "integer", "f": "real floating",
            "c": "complex floating"}[np.dtype(dtype).kind]


def by_kind(options, key=kind_class):
    """One of ``options``, its class (``key``, default :func:`kind_class`) drawn first,
    uniformly: the eight integer dtypes do not crowd out the floating ones, where special
    values live (NaN, infinities, signed zeros).  One strategy per ``(options, key)``, as
    :func:`_scalars`: pass a named ``key``, not a new lambda per call."""
    return _by_kind(tuple(options), key)


@functools.lru_cache(maxsize=1024)
def _by_kind(options, key):
    classes = {}
    for option in options:
        classes.setdefault(key(option), []).append(option)
    groups = [tuple(members) for members in classes.values()]
    if len(groups) == 1:
        return _stating(st.sampled_from(groups[0]), "dtype", tuple(options))
    return _stating(st.sampled_from(groups).flatmap(_members), "dtype", tuple(options))


@functools.lru_cache(maxsize=1024)
def _members(group):
    return st.sampled_from(group)


@functools.lru_cache(maxsize=None)
def dtypes(group):
    """dtype names of a group (``"numeric"``, ``"real floating"`` ...), each class of
    dtype (:func:`kind_class`) as likely as another."""
    return by_kind(DTYPE_GROUPS[group])


@functools.lru_cache(maxsize=None)
def axes(ndim, *, allow_none=True, allow_tuple=True):
    """Axis arguments: None, a (possibly negative) int, or a tuple of unique axes."""
    options = []
    if allow_none:
        options.append(st.none())
    if ndim > 0:
        options.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            options.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)
                           .map(tuple))
    # (the tuples stated: every axis, and the first and the last of three or more -- a
    # tuple that is not axis=None in another form)
    stated = ((None,) if allow_none else ()) + tuple(range(-ndim, ndim)) + \
        ((tuple(range(ndim)),) if allow_tuple and ndim > 0 else ()) + \
        (((0, ndim - 1),) if allow_tuple and ndim > 2 else ())
    return _stating(st.one_of(*options), "options", stated)


#: the placements of :func:`placed`: where a special value changes a reduction's, a scan's
#: or a sort's answer, put there on purpose rather than left to land by chance.
PLACEMENTS = ("as drawn", "nan slice", "one nan", "signed zeros", "infinities")


def placed(x, axis=None, kinds=PLACEMENTS):
    """``x`` (a floating NumPy array; other dtypes and empty arrays are returned as they
    are) with special values put where they change the answer of a reduction, scan or sort
    over ``axis`` (None: the whole array; an int or a tuple of axes): one of ``kinds``
    (:data:`PLACEMENTS`), drawn --

    - ``"nan slice"``: one slice along ``axis`` all NaN (an all-NaN reduction row);
    - ``"one nan"``: a NaN in one slice, beside its other values;
    - ``"signed zeros"``: ``-0.0`` and ``+0.0`` in one slice, in a drawn order (ties of
      ``max``/``argmax``, the order a stable sort keeps);
    - ``"infinities"``: ``+inf`` and ``-inf`` in one slice (``inf - inf`` in a sum or a
      cumulative sum);
    - ``"as drawn"``: ``x`` unchanged.

    Complex arrays take the value in the real part (imaginary part 0).
    """
    return _stating(_placed(x, axis, kinds), "placed",
                    (lambda only: _placed(x, axis, only), tuple(kinds)))


@st.composite
def _placed(draw, x, axis, kinds):
    x = np.asarray(x)
    kind = draw(st.sampled_from(kinds), label="placement")
    if kind == "as drawn" or x.dtype.kind not in "fc" or x.size == 0:
        return x
    rows, back = _slices(x, axis)
    r = draw(st.integers(0, rows.shape[0] - 1), label="slice")
    m = rows.shape[1]
    if kind == "nan slice":
        rows[r, :] = np.nan
    elif kind == "one nan":
        rows[r, draw(st.integers(0, m - 1), label="at")] = np.nan
    else:
        a, b = (-0.0, 0.0) if kind == "signed zeros" else (np.inf, -np.inf)
        if draw(st.booleans(), label="swap"):
            a, b = b, a
        i = draw(st.integers(0, m - 1), label="at")
        rows[r, i] = a
        if m > 1:
            j = draw(st.integers(0, m - 2), label="and at")
            rows[r, j + (j >= i)] = b
    return _unslice(rows, back)


def _slices(x, axis):
    """``(rows, back)``: a copy of ``x`` as a 2-d array whose rows are its slices along
    ``axis`` (None: the whole array; an int or a tuple of axes), and what :func:`_unslice`
    needs to put the rows back in ``x``'s layout."""
    if x.ndim == 0:
        return np.array(x, copy=True).reshape(1, 1), None
    axes = tuple(range(x.ndim)) if axis is None else \
        tuple(a % x.ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    if not axes:
        axes = (x.ndim - 1,)
    rest = tuple(a for a in range(x.ndim) if a not in axes)
    perm = rest + axes
    moved = np.array(np.transpose(x, perm), copy=True)
    return moved.reshape(-1, math.prod(x.shape[a] for a in axes)), (moved, perm)


def _unslice(rows, back):
    """The array that :func:`_slices` took ``rows`` from, with their values."""
    if back is None:
        return rows.reshape(())
    moved, perm = back
    out = rows.reshape(moved.shape)
    return np.ascontiguousarray(np.transpose(out, np.argsort(perm)))


#: the large size class of the reduction-like specs, run as pinned examples
#: (:func:`large_arrays`): ``(dtype, shape, axis, where the NaN goes)``, each of 4096
#: elements or more -- where XLA:CPU's reduce fusion drops NaN from ``max``/``min`` -- which
#: the random draws (sides <= 4) never reach; each dtype puts its NaN first, in the middle
#: and last once, smallest arrays first (a failure stops at the first).
LARGE = (("float32", (4096,), None, "first"),
         ("float64", (4096,), None, "last"),
         ("float64", (5000,), 0, "middle"),
         ("float32", (2, 4100), -1, "last"),
         ("float64", (4100, 3), 0, "first"),
         ("float32", (10 ** 5,), None, "middle"))


@functools.lru_cache(maxsize=None)
def large_arrays():
    """The arrays of the large size class, ``(axis, x)`` per entry of :data:`LARGE`.

    Ordinary values are ``+-(1 + k / 4096)`` for ``|k| <= 128`` (exact in float32; sums
    and products of 10**5 of them stay far from overflow and underflow), from a fixed seed.
    The first slice along ``axis`` holds a NaN at its first, middle or last position with
    ``+inf`` and ``-inf`` beside it; a second slice a lone ``+inf``, a third a lone ``-inf``.
    The arrays are read-only (a pinned example hands out copies).
    """
    rng = np.random.default_rng(4096)
    out = []
    for dtype, shape, axis, nan_at in LARGE:
        n = math.prod(shape)
        values = np.where(rng.random(n) < 0.5, -1.0, 1.0) * (
            1 + rng.integers(-128, 129, n) / 4096)
        rows, back = _slices(values.reshape(shape).astype(dtype), axis)
        m = rows.shape[1]
        i = {"first": 0, "middle": m // 2, "last": m - 1}[nan_at]
        beside = (1, 2) if i == 0 else (-1, -2) if i == m - 1 else (-1, 1)
        rows[0, [i, i + beside[0], i + beside[1]]] = np.nan, np.inf, -np.inf
        rows[1:3, i] = (np.inf, -np.inf)[:rows.shape[0] - 1]
        x = _unslice(rows, back)
        x.flags.writeable = False
        out.append((axis, x))
    return tuple(out)


#: the placements of :func:`placed_pair`: where a special value changes the answer of a
#: contraction (a sum of products over paired axes of two operands: matmul, tensordot,
#: vecdot, outer), put there on purpose rather than left to land by chance.
PAIR_PLACEMENTS = ("as drawn", "one nan", "nan slice", "inf times zero",
                   "opposite infinities")

#: the finite factors met by the infinities of ``"opposite infinities"``
_FACTORS = (1.0, -1.0, 0.5, -2.0)


def _normalize(axes, ndim):
    return tuple(int(a) % ndim for a in axes) if ndim else ()


def broadcast_index(index, shape):
    """The index into an operand of ``shape`` of the element ``index`` of a broadcast
    result (aligned from the right: leading dimensions dropped, dimensions of size 1 at
    0)."""
    index = tuple(index)[len(index) - len(shape):] if shape else ()
    return tuple(0 if n == 1 else i for i, n in zip(index, shape))


def placed_pair(x1, x2, axes1, axes2, *, batch1=(), batch2=(), kinds=PAIR_PLACEMENTS):
    """``(x1, x2)`` with special values put where they change a contraction's answer.

    ``axes1`` of ``x1`` are summed over with ``axes2`` of ``x2`` (paired in order: the
    contracted index ``k``; none for an outer product), ``batch1`` and ``batch2`` broadcast
    against each other (paired from the right, as in broadcasting); other axes are free.
    One output element is drawn -- a free index of each operand and an index of the
    broadcast batch -- and there one of ``kinds`` (:data:`PAIR_PLACEMENTS`):

    - ``"one nan"``: a NaN at one contracted index of one operand's slice;
    - ``"nan slice"``: that operand's whole contracted slice NaN;
    - ``"inf times zero"``: ``+-inf`` in one operand and ``+-0`` in the other at the same
      contracted index, so they meet in one product: NaN, in any summation order;
    - ``"opposite infinities"``: ``+inf`` and ``-inf`` at two contracted indices of one
      operand's slice and one finite nonzero value at both in the other's: ``inf * v +
      -inf * v`` is NaN in any order (one contracted index: one infinity, an infinite
      result);
    - ``"as drawn"``: both unchanged.

    Only real floating operands are changed: integers have no specials, and in a complex
    product the order of the parts' operations decides which parts ``inf * 0`` makes NaN.
    Empty operands are returned as they are.
    """
    def build(only):
        return _placed_pair(x1, x2, axes1, axes2, batch1, batch2, only)
    return _stating(build(tuple(kinds)), "placed pair", (build, tuple(kinds)))


@st.composite
def _placed_pair(draw, x1, x2, axes1, axes2, batch1, batch2, kinds):
    x1, x2 = np.array(x1, copy=True), np.array(x2, copy=True)
    if x1.dtype.kind != "f" or x2.dtype.kind != "f" or x1.size == 0 or x2.size == 0:
        return x1, x2
    kind = draw(st.sampled_from(kinds), label="placement")
    if kind == "as drawn":
        return x1, x2
    axes1, axes2 = _normalize(axes1, x1.ndim), _normalize(axes2, x2.ndim)
    sizes = tuple(x1.shape[a] for a in axes1)
    if sizes != tuple(x2.shape[a] for a in axes2):
        raise ValueError(f"placed_pair: contracted sizes differ: {x1.shape} {axes1}, "
                         f"{x2.shape} {axes2}")
    # the output element: one batch index of the broadcast result, free indices
    index1, index2 = [None] * x1.ndim, [None] * x2.ndim
    for a1, a2 in zip(reversed(_normalize(batch1, x1.ndim)),
                      reversed(_normalize(batch2, x2.ndim))):
        n1, n2 = x1.shape[a1], x2.shape[a2]
        i = draw(st.integers(0, builtins_max(n1, n2) - 1), label="batch index")
        index1[a1], index2[a2] = (0 if n1 == 1 else i), (0 if n2 == 1 else i)
    for index, x, contracted in ((index1, x1, axes1), (index2, x2, axes2)):
        for a in range(x.ndim):
            if index[a] is None and a not in contracted:
                index[a] = draw(st.integers(0, x.shape[a] - 1), label="free index")

    def at(index, axes, k):  # the element of one operand at contracted index k
        out = list(index)
        for a, i in zip(axes, k):
            out[a] = i
        return tuple(out)

    flat = draw(st.integers(0, math.prod(sizes) - 1), label="k")
    k = np.unravel_index(flat, sizes) if sizes else ()
    ops = [(x1, index1, axes1), (x2, index2, axes2)]
    if draw(st.booleans(), label="in x2"):
        ops.reverse()
    (a, ia, axa), (b, ib, axb) = ops
    if kind == "one nan":
        a[at(ia, axa, k)] = np.nan
    elif kind == "nan slice":
        a[at(ia, axa, [slice(None)] * len(axa))] = np.nan
    elif kind == "inf times zero":
        a[at(ia, axa, k)] = draw(st.sampled_from((np.inf, -np.inf)), label="inf")
        b[at(ib, axb, k)] = draw(st.sampled_from((0.0, -0.0)), label="zero")
    else:  # opposite infinities
        v = draw(st.sampled_from(_FACTORS), label="factor")
        sign = draw(st.sampled_from((1.0, -1.0)), label="sign")
        a[at(ia, axa, k)], b[at(ib, axb, k)] = sign * np.inf, v
        if math.prod(sizes) > 1:
            other = draw(st.integers(0, math.prod(sizes) - 2), label="and k")
            other = np.unravel_index(other + (other >= flat), sizes)
            a[at(ia, axa, other)], b[at(ib, axb, other)] = -sign * np.inf, v
    return x1, x2
